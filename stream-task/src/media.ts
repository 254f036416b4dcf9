// What the inputs are, asked once from ffprobe before streaming: the loop length (for counting loops), the
// bitrate, and whether stream copy into FLV can work at all. An input FLV cannot carry fails the task at once
// with a clear reason instead of restarting ffmpeg for ever.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FfmpegInputs } from './ffmpeg';
import { fetchInput, type InputFetcher } from './inputs';
import { loopReadyVideo } from './loop-ready';
import type { PreparedInputs } from './state-machine';

/** Local files to stream and what the supervisor needs to know about them. */
export interface PreparedMedia extends PreparedInputs {
  files: FfmpegInputs;
}

export interface ProbedStream {
  codecType: string;
  codecName: string;
  bitRate?: number;
}

export interface ProbedMedia {
  durationUs: number;
  bitRate?: number;
  streams: ProbedStream[];
}

const FLV_VIDEO_CODECS = ['h264'];
const FLV_AUDIO_CODECS = ['aac', 'mp3'];

const run = promisify(execFile);

const positive = (value: unknown): number | undefined => {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
};

export async function probeMedia(path: string, signal?: AbortSignal): Promise<ProbedMedia> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_entries', 'format=duration,bit_rate:stream=codec_type,codec_name,bit_rate', path],
    { signal, maxBuffer: 1024 * 1024 },
  ).catch((error: Error & { stderr?: string }) => {
    throw new Error(`ffprobe cannot read ${path}: ${(error.stderr || error.message).trim()}`);
  });
  const json = JSON.parse(stdout) as {
    format?: { duration?: string; bit_rate?: string };
    streams?: { codec_type?: string; codec_name?: string; bit_rate?: string }[];
  };
  const bitRate = positive(json.format?.bit_rate);
  return {
    durationUs: Math.round((positive(json.format?.duration) ?? 0) * 1e6),
    ...(bitRate ? { bitRate } : {}),
    streams: (json.streams ?? []).map((s) => {
      const streamBitRate = positive(s.bit_rate);
      return { codecType: s.codec_type ?? '', codecName: s.codec_name ?? '', ...(streamBitRate ? { bitRate: streamBitRate } : {}) };
    }),
  };
}

/** Loop length and bitrate of what we will send, or an Error saying why it cannot be streamed by copy. */
export function describeInputs(video: ProbedMedia, audio?: ProbedMedia): { loopDurationUs: number; inputBitrateKbps: number } {
  const videoStream = video.streams.find((s) => s.codecType === 'video');
  if (!videoStream) throw new Error('the video file has no video stream');
  if (!FLV_VIDEO_CODECS.includes(videoStream.codecName)) throw new Error(`the video is ${videoStream.codecName}, streaming needs H.264`);
  if (video.durationUs <= 0) throw new Error('the video has no duration');
  const audioStream = (audio ?? video).streams.find((s) => s.codecType === 'audio');
  if (audio && !audioStream) throw new Error('the audio file has no audio stream');
  if (audio && audio.durationUs <= 0) throw new Error('the audio has no duration');
  if (audioStream && !FLV_AUDIO_CODECS.includes(audioStream.codecName)) throw new Error(`the audio is ${audioStream.codecName}, streaming needs AAC or MP3`);
  const streamBits = (videoStream.bitRate ?? 0) + (audioStream?.bitRate ?? 0);
  return { loopDurationUs: video.durationUs, inputBitrateKbps: Math.round((streamBits || video.bitRate || 0) / 1000) };
}

/** Fetches the inputs into `workDir` and probes them: everything the supervisor needs before the first run. */
export async function prepareMedia(
  sources: { video: string; audio?: string },
  fetchers: readonly InputFetcher[],
  workDir: string,
  signal?: AbortSignal,
): Promise<PreparedMedia> {
  const [videoPath, audioPath] = await Promise.all([
    fetchInput(fetchers, sources.video, join(workDir, 'video'), signal),
    sources.audio ? fetchInput(fetchers, sources.audio, join(workDir, 'audio'), signal) : undefined,
  ]);
  const [video, audio] = await Promise.all([probeMedia(videoPath, signal), audioPath ? probeMedia(audioPath, signal) : undefined]);
  const described = describeInputs(video, audio);
  // With a separate audio track the video's own sound is not sent, so its length does not matter.
  const loopPath = audioPath ? videoPath : await loopReadyVideo(videoPath, video.durationUs / 1e6, workDir, signal);
  return { files: { videoPath: loopPath, ...(audioPath ? { audioPath } : {}) }, ...described };
}
