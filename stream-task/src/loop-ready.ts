// A video whose own audio ends after its picture does (MediaConvert pads the audio to at least the video's length;
// items transcoded before the stream-ready profile ended the audio inside the video) loops badly by stream copy:
// ffmpeg advances each pass by the longest track, so the next pass's first audio frame lands on the previous pass's
// last one and, at FLV's millisecond precision, the decode timestamp repeats at every seam. Such a file is remuxed
// once (stream copy, seconds for minutes of media) with its last audio frames left out: then every pass starts the
// picture exactly where the last ended and the sound a few tens of milliseconds later (lambdas/core/media-spec.ts,
// loopAudioSamples, makes new files that way from the start).
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The packet timeline at a file's two ends, in seconds. */
export interface LoopTimeline {
  videoStart: number;
  /** From the first frame's start to the last frame's end. */
  videoLength: number;
  audioStart: number;
  /** Start of the last audio frame, and a frame's duration. */
  audioLastStart: number;
  audioFrame: number;
}

/** The audio's last frame must end this much before the next pass's first one starts (as loopAudioSamples does). */
const MARGIN_SECONDS = 0.001;

/** The presentation time from which the audio is left out for a seamless copy loop: its frames then end before the
 * next pass's first one starts. Undefined when the file loops seamlessly as it is. */
export function audioCutoff(timeline: LoopTimeline): number | undefined {
  const nextPassAudio = timeline.audioStart + timeline.videoLength;
  if (timeline.audioLastStart + timeline.audioFrame + MARGIN_SECONDS <= nextPassAudio) return undefined;
  return nextPassAudio - timeline.audioFrame - MARGIN_SECONDS;
}

/** A packet as ffprobe's JSON shows it. */
export interface ProbedPacket {
  codec_type: string;
  pts_time?: string;
  duration_time?: string;
}

/** The packet timeline and where the file's clock starts (input options such as -t count from there). */
export type FileTimeline = LoopTimeline & { fileStart: number };

/** ffprobe's `-read_intervals` for the first packets and those from the keyframe before `tailFrom` (seconds) to the
 * end, not the whole file. */
export const endsInterval = (tailFrom: number): string => `%+#8,${tailFrom.toFixed(3)}%`;

/** A tail read from here seeks past any file's end: an indexed container (MP4, Matroska) lands on its last keyframe,
 * so one ffprobe reads the file's header and both its ends without knowing its length first. A container without an
 * index (FLV) reads nothing there, which timelineReachesEnd tells. */
export const PAST_ANY_END = 99_999_999;

/** The timeline from the packets read at a file's two ends; undefined without both picture and sound. */
export function timelineOf(packets: readonly ProbedPacket[], fileStart: number): FileTimeline | undefined {
  const timed = packets.filter((p) => p.pts_time !== undefined);
  const of = (type: string) => timed.filter((p) => p.codec_type === type).map((p) => ({ pts: Number(p.pts_time), duration: Number(p.duration_time ?? 0) }));
  const video = of('video');
  const audio = of('audio');
  if (!video.length || !audio.length) return undefined;
  const lastVideo = video.reduce((latest, p) => (p.pts > latest.pts ? p : latest));
  const videoStart = Math.min(...video.map((p) => p.pts));
  const audioStarts = audio.map((p) => p.pts);
  return {
    fileStart,
    videoStart,
    videoLength: lastVideo.pts + lastVideo.duration - videoStart,
    audioStart: Math.min(...audioStarts),
    audioLastStart: Math.max(...audioStarts),
    audioFrame: Math.max(...audio.map((p) => p.duration)),
  };
}

/** Whether the packets read reach the end of a file `durationSeconds` long (within a second): a tail read that
 * found nothing has only the first packets. */
export function timelineReachesEnd(timeline: FileTimeline, durationSeconds: number): boolean {
  const end = Math.max(timeline.videoStart + timeline.videoLength, timeline.audioLastStart + timeline.audioFrame);
  return end >= timeline.fileStart + durationSeconds - 1;
}

/** The timeline read by an ffprobe of its own, its tail from the last 5 s of the file's known length. */
export async function loopTimeline(path: string, durationSeconds: number, signal?: AbortSignal): Promise<FileTimeline | undefined> {
  const { stdout } = await run(
    'ffprobe',
    [
      '-v',
      'error',
      '-read_intervals',
      endsInterval(Math.max(0, durationSeconds - 5)),
      '-show_entries',
      'packet=codec_type,pts_time,duration_time:format=start_time',
      '-of',
      'json',
      path,
    ],
    { signal, maxBuffer: 16 * 1024 * 1024 },
  );
  const probed = JSON.parse(stdout) as { packets?: ProbedPacket[]; format?: { start_time?: string } };
  return timelineOf(probed.packets ?? [], Number(probed.format?.start_time ?? 0));
}

/** The video as it should be looped: itself, or a remux of it into `dir` without the audio frames past the picture.
 * `timeline`: the video's (undefined without sound: it loops as it is). */
export async function loopReadyVideo(path: string, timeline: FileTimeline | undefined, dir: string, signal?: AbortSignal): Promise<string> {
  const cutoff = timeline && audioCutoff(timeline);
  if (!timeline || cutoff === undefined) return path;
  await mkdir(dir, { recursive: true });
  const target = join(dir, 'loop-ready.mp4');
  // The same file twice: all of its picture, and its sound read up to the cutoff (-t is an input's own option).
  const readAudioFor = (cutoff - timeline.fileStart).toFixed(6);
  await run(
    'ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      '-i',
      path,
      '-t',
      readAudioFor,
      '-i',
      path,
      '-map',
      '0:v:0',
      '-map',
      '1:a:0',
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-y',
      target,
    ],
    { signal },
  );
  return target;
}
