// A playlist's media, made ready once before it plays: each item fetched, probed, checked against the first item's
// profile (stream copy cannot change the picture size, frame rate or sound format in the middle of a stream), and
// remuxed by stream copy into FLV (the container the feeder writes), with its sound cut to end inside its picture as
// a looping single video's is (loop-ready.ts). The downloaded MP4 is removed once its FLV exists, so the disk holds
// about one copy of each item. A soundtrack is remuxed into an audio-only FLV.
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { StreamTaskSpec } from '../../lambdas/contract/stream-task';
import { FlvFileReader, isSequenceHeader, TAG_VIDEO } from './flv';
import { fetchInput, type InputFetcher } from './inputs';
import { audioCutoff, loopTimeline } from './loop-ready';
import type { PlaylistContent, PlaylistItem, StreamProfile } from './playlist';
import type { Soundtrack } from './feeder';

const run = promisify(execFile);

export type PlaylistSpec = NonNullable<StreamTaskSpec['playlist']>;

/** Downloads at once: the items of a long playlist are fetched a few at a time. */
const PARALLEL_FETCHES = 3;

interface ProbedItem {
  durationUs: number;
  bitrateKbps: number;
  profile: StreamProfile;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  pix_fmt?: string;
  sample_rate?: string;
  channels?: number;
}

async function ffprobe(path: string, signal?: AbortSignal): Promise<{ streams: FfprobeStream[]; duration: number; bitRate: number }> {
  const { stdout } = await run(
    'ffprobe',
    [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_entries',
      'format=duration,bit_rate:stream=codec_type,codec_name,profile,width,height,r_frame_rate,pix_fmt,sample_rate,channels',
      path,
    ],
    { signal, maxBuffer: 1024 * 1024 },
  ).catch((error: Error & { stderr?: string }) => {
    throw new Error(`ffprobe cannot read ${relativeName(path)}: ${(error.stderr || error.message).trim()}`);
  });
  const json = JSON.parse(stdout) as { streams?: FfprobeStream[]; format?: { duration?: string; bit_rate?: string } };
  return { streams: json.streams ?? [], duration: Number(json.format?.duration ?? 0), bitRate: Number(json.format?.bit_rate ?? 0) };
}

const relativeName = (path: string) => path.split('/').slice(-2).join('/');

/** What an item is, or why stream copy cannot send it. */
export async function probeItem(path: string, withAudio: boolean, signal?: AbortSignal): Promise<ProbedItem> {
  const probed = await ffprobe(path, signal);
  const video = probed.streams.find((s) => s.codec_type === 'video');
  if (!video) throw new Error('the video file has no video stream');
  if (video.codec_name !== 'h264') throw new Error(`the video is ${video.codec_name}, streaming needs H.264`);
  if (!(probed.duration > 0)) throw new Error('the video has no duration');
  const audio = probed.streams.find((s) => s.codec_type === 'audio');
  if (withAudio && audio && audio.codec_name !== 'aac' && audio.codec_name !== 'mp3')
    throw new Error(`the audio is ${audio.codec_name}, streaming needs AAC or MP3`);
  return {
    durationUs: Math.round(probed.duration * 1e6),
    bitrateKbps: Math.round(probed.bitRate / 1000),
    profile: {
      videoCodec: 'h264',
      width: video.width ?? 0,
      height: video.height ?? 0,
      frameRate: video.r_frame_rate ?? '0/1',
      pixelFormat: video.pix_fmt ?? '',
      ...(withAudio && audio ? { audio: { codec: audio.codec_name ?? '', sampleRate: Number(audio.sample_rate ?? 0), channels: audio.channels ?? 0 } } : {}),
    },
  };
}

/** "1920x1080 30/1 fps yuv420p, aac 44100 Hz 2 ch". */
export function describeProfile(profile: StreamProfile): string {
  const audio = profile.audio ? `${profile.audio.codec} ${profile.audio.sampleRate} Hz ${profile.audio.channels} ch` : 'no sound';
  return `${profile.width}x${profile.height} ${profile.frameRate} fps ${profile.pixelFormat}, ${audio}`;
}

/** Items stream copy can join: the same picture size, frame rate, pixel format and sound format. Bitrates may
 * differ (a new H.264 sequence header at a join is passed on to the destination). */
export const sameProfile = (a: StreamProfile, b: StreamProfile): boolean => describeProfile(a) === describeProfile(b);

/** Where the first video frame of an FLV is (ms). */
async function firstVideoMs(path: string): Promise<number> {
  const reader = new FlvFileReader(64 * 1024);
  await reader.open(path);
  try {
    do {
      while (reader.next()) if (reader.type === TAG_VIDEO && !isSequenceHeader(reader)) return reader.timestamp;
    } while (await reader.fill());
  } finally {
    await reader.close();
  }
  throw new Error(`${relativeName(path)} has no video frames`);
}

/** The item remuxed into `<dir>/item.flv`: all of its picture, its sound (unless a soundtrack replaces it) up to
 * where the picture ends, and a keyframe index (previews seek in it). */
async function remuxItem(source: string, probed: ProbedItem, dir: string, withAudio: boolean, signal?: AbortSignal): Promise<string> {
  const target = join(dir, 'item.flv');
  const timeline = withAudio && probed.profile.audio ? await loopTimeline(source, probed.durationUs / 1e6, signal) : undefined;
  const cutoff = timeline && audioCutoff(timeline);
  const audioInput = !withAudio ? [] : cutoff === undefined ? ['-map', '0:a:0?'] : ['-map', '1:a:0'];
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-i',
    source,
    ...(cutoff === undefined ? [] : ['-t', (cutoff - timeline!.fileStart).toFixed(6), '-i', source]),
    '-map',
    '0:v:0',
    ...audioInput,
    '-c',
    'copy',
    '-flvflags',
    'add_keyframe_index',
    '-f',
    'flv',
    '-y',
    target,
  ];
  await run('ffmpeg', args, { signal }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`cannot prepare ${relativeName(source)}: ${(error.stderr || error.message).trim()}`);
  });
  return target;
}

/** One item: fetched into its own folder, probed, remuxed; the download removed once the FLV exists. */
export async function prepareItem(
  source: { id: string; url: string },
  fetchers: readonly InputFetcher[],
  workDir: string,
  withAudio: boolean,
  signal?: AbortSignal,
): Promise<PlaylistItem> {
  const dir = join(workDir, 'playlist', source.id.replace(/[^A-Za-z0-9_-]/g, '_'));
  await mkdir(dir, { recursive: true });
  const { path: downloaded } = await fetchInput(fetchers, source.url, dir, signal);
  const probed = await probeItem(downloaded, withAudio, signal);
  const path = await remuxItem(downloaded, probed, dir, withAudio, signal);
  // A local source file is used in place: only what we downloaded into the work folder is ours to remove.
  if (!relative(dir, downloaded).startsWith('..')) await rm(downloaded, { force: true });
  return {
    id: source.id,
    path,
    durationUs: probed.durationUs,
    firstVideoMs: await firstVideoMs(path),
    profile: probed.profile,
    bitrateKbps: probed.bitrateKbps,
  };
}

/** Runs `work` over `inputs`, at most `limit` at once, keeping their order. */
async function mapLimited<T, R>(inputs: readonly T[], limit: number, work: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await work(inputs[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return results;
}

/**
 * The playlist's content, its items prepared (those in `known` reused: an edit of a running playlist fetches only
 * what is new), or an Error naming the first item whose profile differs from the first item's.
 */
export async function preparePlaylist(
  spec: PlaylistSpec,
  fetchers: readonly InputFetcher[],
  workDir: string,
  options: { withAudio: boolean; known?: readonly PlaylistItem[]; profile?: StreamProfile; signal?: AbortSignal },
): Promise<PlaylistContent> {
  const known = new Map((options.known ?? []).map((item) => [item.id, item]));
  const unique = [...new Map(spec.items.map((item) => [item.id, item])).values()].filter((item) => !known.has(item.id));
  const fresh = await mapLimited(unique, PARALLEL_FETCHES, (item) => prepareItem(item, fetchers, workDir, options.withAudio, options.signal));
  for (const item of fresh) known.set(item.id, item);
  const items = spec.items.map((item) => known.get(item.id)!);
  const profile = options.profile ?? items[0]!.profile;
  const odd = items.find((item) => !sameProfile(item.profile, profile));
  if (odd) {
    await Promise.all(fresh.map((item) => rm(join(item.path, '..'), { recursive: true, force: true })));
    throw new Error(
      `playlist item ${odd.id} is ${describeProfile(odd.profile)}, not ${describeProfile(profile)} as the playlist: stream copy needs one profile`,
    );
  }
  return { revision: spec.revision, shuffle: spec.shuffle, items };
}

/** The soundtrack as an audio-only FLV, and its sample rate (AAC only: the feeder counts its frames as 1024
 * samples each). */
export async function prepareSoundtrack(
  source: string,
  fetchers: readonly InputFetcher[],
  workDir: string,
  signal?: AbortSignal,
): Promise<Soundtrack & { bitrateKbps: number }> {
  const dir = join(workDir, 'soundtrack');
  await mkdir(dir, { recursive: true });
  const { path: downloaded } = await fetchInput(fetchers, source, dir, signal);
  const probed = await ffprobe(downloaded, signal);
  const audio = probed.streams.find((s) => s.codec_type === 'audio');
  if (!audio) throw new Error('the audio file has no audio stream');
  if (audio.codec_name !== 'aac' || (audio.profile && audio.profile !== 'LC')) {
    throw new Error(`the soundtrack is ${[audio.codec_name, audio.profile].filter(Boolean).join(' ')}, a playlist's soundtrack needs AAC-LC`);
  }
  if (!(probed.duration > 0)) throw new Error('the audio has no duration');
  const path = join(dir, 'soundtrack.flv');
  await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', downloaded, '-map', '0:a:0', '-c', 'copy', '-f', 'flv', '-y', path], { signal }).catch(
    (error: Error & { stderr?: string }) => {
      throw new Error(`cannot prepare the soundtrack: ${(error.stderr || error.message).trim()}`);
    },
  );
  if (!relative(dir, downloaded).startsWith('..')) await rm(downloaded, { force: true });
  return { path, sampleRate: Number(audio.sample_rate), bitrateKbps: Math.round(probed.bitRate / 1000) };
}
