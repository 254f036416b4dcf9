// ffprobe's view of a file, reduced to what the media spec decides on (lambdas/core/media-spec.ts).
import type { SourceMedia } from '../../core/media-spec';
import { run } from './child-process';
import { inputRestrictions, isAcceptedFormat } from './ffmpeg-args';

interface FfprobeStream {
  index: number;
  codec_type?: string;
  width?: number;
  height?: number;
  channels?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  start_time?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}

export interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { duration?: string; format_name?: string };
}

/** ffprobe's JSON, or undefined when ffprobe cannot read the file at all (not a media file, or not one of the
 * accepted containers: ffmpeg-args.ts INPUT_FORMATS, read from the file only). */
export async function ffprobe(path: string, signal?: AbortSignal): Promise<FfprobeOutput | undefined> {
  const result = await run(
    'ffprobe',
    ['-v', 'error', ...inputRestrictions, '-print_format', 'json', '-show_format', '-show_streams', path],
    signal ? { signal } : {},
  );
  if (result.exitCode !== 0) return undefined;
  const output = JSON.parse(result.stdout) as FfprobeOutput;
  return isAcceptedFormat(output.format?.format_name) ? output : undefined;
}

const seconds = (value: string | undefined): number | undefined => {
  const number = value === undefined ? NaN : Number(value);
  return Number.isFinite(number) ? number : undefined;
};

/** Matroska and WebM keep a track's end time only as a `DURATION` tag ("00:00:05.021000000"). */
function tagDuration(tags: Record<string, string> | undefined): number | undefined {
  const match = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(tags?.DURATION ?? '');
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : undefined;
}

function streamDuration(stream: FfprobeStream): number | undefined {
  const own = seconds(stream.duration);
  if (own !== undefined) return own;
  const end = tagDuration(stream.tags);
  return end === undefined ? undefined : end - (seconds(stream.start_time) ?? 0);
}

function ratio(value: string | undefined): number {
  const [num, den] = (value ?? '').split(':').map(Number);
  return num && den ? num / den : 1;
}

/** "30000/1001" as a number; undefined for "0/0" (unknown). */
function rate(value: string | undefined): number | undefined {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den ? num / den : undefined;
}

/** The average rate (a variable-rate phone video's is its nominal one); the stream's base rate when there is none. */
const frameRate = (stream: FfprobeStream): number | undefined => rate(stream.avg_frame_rate) ?? rate(stream.r_frame_rate);

function rotation(stream: FfprobeStream): number {
  const fromSideData = stream.side_data_list?.find((data) => typeof data.rotation === 'number')?.rotation;
  return fromSideData ?? (Number(stream.tags?.rotate) || 0);
}

/** The tracks a transcode uses: the first moving picture and the first audio track. */
function chosenStreams(output: FfprobeOutput): { video?: FfprobeStream | undefined; audio?: FfprobeStream | undefined } {
  const streams = output.streams ?? [];
  return {
    // Cover art in MP3/M4A files is a one-picture "video" stream; it is not a video.
    video: streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic),
    audio: streams.find((s) => s.codec_type === 'audio'),
  };
}

export function sourceFromFfprobe(output: FfprobeOutput): SourceMedia {
  const { video, audio } = chosenStreams(output);
  const durationSeconds = seconds(output.format?.duration);
  const videoDuration = video && streamDuration(video);
  const audioDuration = audio && streamDuration(audio);
  return {
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
    ...(video?.width && video.height
      ? {
          video: {
            width: video.width,
            height: video.height,
            sampleAspectRatio: ratio(video.sample_aspect_ratio),
            rotation: rotation(video),
            ...(frameRate(video) !== undefined ? { frameRate: frameRate(video) } : {}),
            ...(videoDuration !== undefined ? { durationSeconds: videoDuration } : {}),
          },
        }
      : {}),
    ...(audio?.channels ? { audio: { channels: audio.channels, ...(audioDuration !== undefined ? { durationSeconds: audioDuration } : {}) } } : {}),
  };
}

/** Stream indexes ffmpeg must map: the same tracks sourceFromFfprobe described. */
export function selectedStreams(output: FfprobeOutput): { video?: number; audio?: number } {
  const { video, audio } = chosenStreams(output);
  return { ...(video ? { video: video.index } : {}), ...(audio ? { audio: audio.index } : {}) };
}
