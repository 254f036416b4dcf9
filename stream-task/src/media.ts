// What the inputs are, asked once from ffprobe before streaming: the loop length (for counting loops), the
// bitrate, and whether stream copy into FLV can work at all. An input FLV cannot carry fails the task at once
// with a clear reason instead of restarting ffmpeg for ever.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FfmpegInputs } from './ffmpeg';
import type { Soundtrack } from './feeder';
import type { MediaProbe } from '../../lambdas/contract/stream-task';
import { fetchInput, type FetchedInput, type InputFetcher } from './inputs';
import { endsInterval, loopReadyVideo, loopTimeline, PAST_ANY_END, timelineOf, timelineReachesEnd, type FileTimeline, type ProbedPacket } from './loop-ready';
import { PlaylistRuntime, type PlaylistEvents, type StreamProfile } from './playlist';
import { preparePlaylist, prepareSoundtrack, type PlaylistSpec } from './playlist-media';
import { loopPosition } from './preview';
import type { PreparedInputs } from './state-machine';

/** A playlist ready to be fed to ffmpeg (feeder.ts). */
export interface PlaylistPlayback {
  runtime: PlaylistRuntime;
  soundtrack?: Soundtrack;
  /** The profile every item has (an edit must keep it). */
  profile: StreamProfile;
  /** The items carry their own sound (no soundtrack replaces it). */
  withAudio: boolean;
}

/** Local files to stream and what the supervisor needs to know about them. */
export interface PreparedMedia extends PreparedInputs {
  files: FfmpegInputs;
  /** With `files` a feed: what is fed. */
  playlist?: PlaylistPlayback;
}

/** Where the stream is at `now` (a file and a position in it): for preview frames. */
export function playingPosition(media: PreparedMedia, startedAt: number): (now: number) => { path: string; seconds: number } {
  if (media.playlist) return (now) => media.playlist!.runtime.position(now);
  const path = 'videoPath' in media.files ? media.files.videoPath : '';
  return (now) => ({ path, seconds: loopPosition(now - startedAt, media.loopDurationUs) });
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
  /** When asked for: the packets at the file's two ends (undefined without both picture and sound). */
  timeline?: FileTimeline;
}

const FLV_VIDEO_CODECS = ['h264'];
const FLV_AUDIO_CODECS = ['aac', 'mp3'];

const run = promisify(execFile);

const positive = (value: unknown): number | undefined => {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
};

/** The most top-level boxes an indexed MP4 is expected to have (ftyp, moov, mdat, a few free or uuid boxes). */
const MAX_TOP_LEVEL_BOXES = 16;

/** Whether the file is an MP4 whose index holds all of it: ISO BMFF (MP4, M4A, MOV: an `ftyp` box first) with one
 * `moov` box, which then holds every track's codec parameters, durations, bitrate and packet timing, and not
 * fragmented (no `moof` boxes, whose packet timing ffprobe reads as it goes). Reads the top-level box headers only. */
async function isIndexedMp4(path: string): Promise<boolean> {
  const file = await open(path, 'r').catch(() => undefined); // ffprobe then says what is wrong with the path
  if (!file) return false;
  try {
    const { size } = await file.stat();
    const header = Buffer.alloc(16);
    const types: string[] = [];
    for (let offset = 0; offset < size && types.length <= MAX_TOP_LEVEL_BOXES;) {
      const { bytesRead } = await file.read(header, 0, header.length, offset);
      if (bytesRead < 8) return false;
      const declared = header.readUInt32BE(0);
      // 1: a 64-bit size follows the type; 0: the box runs to the end of the file.
      const boxSize = declared === 1 ? Number(header.readBigUInt64BE(8)) : declared === 0 ? size - offset : declared;
      if (boxSize < 8) return false;
      types.push(header.toString('latin1', 4, 8));
      offset += boxSize;
    }
    return types[0] === 'ftyp' && types.length <= MAX_TOP_LEVEL_BOXES && types.filter((type) => type === 'moov').length === 1 && !types.includes('moof');
  } finally {
    await file.close();
  }
}

/** ffprobe's arguments for `probeMedia`. An indexed MP4: `-probesize 32` ends ffprobe's stream analysis at the first
 * packet, so it decodes no frames to guess what the index already says (some 40 ms of a video's first start), and its
 * answer is the same (loop-ready.test.ts). Other files (FLV, Matroska, fragmented MP4) learn their packets' durations
 * while analysing, and keep it. */
export async function ffprobeArgs(path: string, options: { timeline?: boolean } = {}): Promise<string[]> {
  const entries = 'format=duration,bit_rate,start_time:stream=codec_type,codec_name,bit_rate';
  return [
    '-v',
    'error',
    ...((await isIndexedMp4(path)) ? ['-probesize', '32'] : []),
    '-print_format',
    'json',
    ...(options.timeline
      ? ['-read_intervals', endsInterval(PAST_ANY_END), '-show_entries', `${entries}:packet=codec_type,pts_time,duration_time`]
      : ['-show_entries', entries]),
    path,
  ];
}

/** What the file holds, from one ffprobe. With `timeline`, the same ffprobe reads its packets at both ends too (one
 * process fewer before a stream starts: each costs some 130 ms of loading ffmpeg's libraries); a container that
 * cannot seek past its end (FLV) gets a second ffprobe that knows the length. */
export async function probeMedia(path: string, signal?: AbortSignal, options: { timeline?: boolean } = {}): Promise<ProbedMedia> {
  const { stdout } = await run('ffprobe', await ffprobeArgs(path, options), { signal, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: Error & { stderr?: string }) => {
      throw new Error(`ffprobe cannot read ${path}: ${(error.stderr || error.message).trim()}`);
    },
  );
  const json = JSON.parse(stdout) as {
    format?: { duration?: string; bit_rate?: string; start_time?: string };
    streams?: { codec_type?: string; codec_name?: string; bit_rate?: string }[];
    packets?: ProbedPacket[];
  };
  const bitRate = positive(json.format?.bit_rate);
  const probed: ProbedMedia = {
    durationUs: Math.round((positive(json.format?.duration) ?? 0) * 1e6),
    ...(bitRate ? { bitRate } : {}),
    streams: (json.streams ?? []).map((s) => {
      const streamBitRate = positive(s.bit_rate);
      return { codecType: s.codec_type ?? '', codecName: s.codec_name ?? '', ...(streamBitRate ? { bitRate: streamBitRate } : {}) };
    }),
  };
  if (!options.timeline) return probed;
  const seconds = probed.durationUs / 1e6;
  let timeline = timelineOf(json.packets ?? [], Number(json.format?.start_time ?? 0));
  const withBoth = ['video', 'audio'].every((type) => probed.streams.some((s) => s.codecType === type));
  if (withBoth && seconds > 0 && !(timeline && timelineReachesEnd(timeline, seconds))) timeline = await loopTimeline(path, seconds, signal);
  return { ...probed, ...(timeline ? { timeline } : {}) };
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

type ProbeReport = (input: 'video' | 'audio', probe: MediaProbe) => void;

/** What the `input` file holds: what an earlier probe found in the same bytes (the same S3 ETag), or a probe of it now,
 * which `onProbed` gets when the file came from S3 (for the item to keep). */
async function probeOnce(
  input: 'video' | 'audio',
  fetched: FetchedInput,
  known: MediaProbe | undefined,
  probe: () => Promise<ProbedMedia>,
  onProbed: ProbeReport | undefined,
): Promise<ProbedMedia> {
  if (fetched.etag && known?.etag === fetched.etag) {
    const { etag: _etag, ...media } = known;
    return media;
  }
  const media = await probe();
  if (fetched.etag) onProbed?.(input, { etag: fetched.etag, ...media });
  return media;
}

/** A single video's sources, and what earlier tasks' probes found in them. */
export interface VideoSources {
  video: string;
  audio?: string | undefined;
  videoProbe?: MediaProbe | undefined;
  audioProbe?: MediaProbe | undefined;
}

/** Fetches the inputs into `workDir` and probes them: everything the supervisor needs before the first run.
 * `onFetched`: a single video's inputs are on the disk (a playlist's are fetched and probed item by item).
 * `onProbed`: an input of a single video was probed (not known from `videoProbe`/`audioProbe`). */
export async function prepareMedia(
  sources: VideoSources & { playlist?: PlaylistSpec | undefined },
  fetchers: readonly InputFetcher[],
  workDir: string,
  signal?: AbortSignal,
  options: { random?: () => number; events?: PlaylistEvents; onFetched?: () => void; onProbed?: ProbeReport } = {},
): Promise<PreparedMedia> {
  const { onFetched, onProbed, ...playlistOptions } = options;
  if (sources.playlist) return preparePlaylistMedia({ ...sources, playlist: sources.playlist }, fetchers, workDir, signal, playlistOptions);
  const [videoFile, audioFile] = await Promise.all([
    fetchInput(fetchers, sources.video, join(workDir, 'video'), signal),
    sources.audio ? fetchInput(fetchers, sources.audio, join(workDir, 'audio'), signal) : undefined,
  ]);
  onFetched?.();
  // The video's timeline is read whatever the stream sends with it (one ffprobe either way), so that what is kept
  // of the item answers for every stream: with a separate audio track its own sound is not sent, and its timeline
  // not used.
  const [video, audio] = await Promise.all([
    probeOnce('video', videoFile, sources.videoProbe, () => probeMedia(videoFile.path, signal, { timeline: true }), onProbed),
    audioFile && probeOnce('audio', audioFile, sources.audioProbe, () => probeMedia(audioFile.path, signal), onProbed),
  ]);
  const described = describeInputs(video, audio);
  const loopPath = audioFile ? videoFile.path : await loopReadyVideo(videoFile.path, video.timeline, workDir, signal);
  return { files: { videoPath: loopPath, ...(audioFile ? { audioPath: audioFile.path } : {}) }, ...described };
}

/** A playlist's items (and soundtrack) fetched and remuxed, its first pass's order drawn. Items an edit leaves out are
 * removed from the disk once the edit has taken effect. */
async function preparePlaylistMedia(
  sources: { audio?: string; playlist: PlaylistSpec },
  fetchers: readonly InputFetcher[],
  workDir: string,
  signal: AbortSignal | undefined,
  options: { random?: () => number; events?: PlaylistEvents },
): Promise<PreparedMedia> {
  const withAudio = !sources.audio;
  const [soundtrack, content] = await Promise.all([
    sources.audio ? prepareSoundtrack(sources.audio, fetchers, workDir, signal) : undefined,
    preparePlaylist(sources.playlist, fetchers, workDir, { withAudio, ...(signal ? { signal } : {}) }),
  ]);
  const runtime = new PlaylistRuntime(content, options.random, {
    ...options.events,
    onRetired: (items) => {
      options.events?.onRetired?.(items);
      for (const item of items) void rm(dirname(item.path), { recursive: true, force: true });
    },
  });
  const passUs = runtime.passDurationUs;
  // Bits of a pass over its length: the items' own bitrates (their sound included), or their pictures' and the
  // soundtrack's (its bitrate, near enough: the items' AAC is the same 128 kbit/s).
  const itemKbps = content.items.reduce((sum, item) => sum + item.bitrateKbps * item.durationUs, 0) / passUs;
  return {
    files: { feed: 'stdin' },
    loopDurationUs: passUs,
    inputBitrateKbps: Math.round(itemKbps),
    playlist: {
      runtime,
      ...(soundtrack ? { soundtrack: { path: soundtrack.path, sampleRate: soundtrack.sampleRate } } : {}),
      profile: content.items[0]!.profile,
      withAudio,
    },
  };
}
