// Feeds ffmpeg a playlist as one endless FLV on its stdin (`-re -f flv -i pipe:0 -c copy`): the items' tags one
// item after another, their timestamps moved so that every item's first frame follows the previous item's last
// one exactly (its frame count times the frame duration), and, with a soundtrack, the soundtrack's audio tags looping
// on a clock of their own (its AAC frames times 1024 samples) in place of the items' sound. Decode timestamps thus
// increase across every join and every pass, on one RTMP connection; ffmpeg only copies. Measured in
// docs/stream-task.md ("Playlists").
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { FlvTagSplitter, flvHeader, isEndOfSequence, isSequenceHeader, setTimestamp, tagData, TAG_AUDIO, TAG_SCRIPT, TAG_VIDEO, type FlvTag } from './flv';
import type { PlaylistItem, PlaylistRuntime } from './playlist';

/** Where the timeline starts (ms): room for an item whose sound starts a little before its picture. ffmpeg starts
 * its output at 0 whatever the input's first timestamp is. */
export const TIMELINE_START_MS = 1000;

/** Samples in an AAC-LC frame. */
const AAC_FRAME_SAMPLES = 1024;

/** What the pipe is written in: fewer, larger writes wake the process less often. */
const WRITE_BYTES = 64 * 1024;

export interface Soundtrack {
  /** The soundtrack remuxed into an audio-only FLV. */
  path: string;
  sampleRate: number;
}

/** An item began (its first tag was written). */
export interface JoinReport {
  itemId: string;
  /** Wall-clock milliseconds from the previous item's last tag to this item's first (opening and reading its file);
   * undefined for the first item of a run. */
  switchMs?: number;
  /** Where the item starts on the output timeline (ms). */
  atMs: number;
}

interface TimedTag {
  tag: FlvTag;
  /** Output time in ms, not wrapped. */
  at: number;
}

async function* fileTags(path: string, signal: AbortSignal): AsyncGenerator<FlvTag> {
  const splitter = new FlvTagSplitter();
  const stream = createReadStream(path, { highWaterMark: 256 * 1024, signal });
  for await (const chunk of stream) yield* splitter.push(chunk as Buffer);
  if (splitter.leftover) throw new Error(`${path} ends inside a tag`);
}

/** Frames per second from ffprobe's "30/1". */
export function frameDurationMs(frameRate: string): number {
  const [num, den] = frameRate.split('/').map(Number);
  if (!num || !Number.isFinite(num)) throw new Error(`no frame rate: ${frameRate}`);
  return (1000 * (den || 1)) / num;
}

/** The playlist's tags (video, and the items' own audio unless `withAudio` is false), retimed, item after item. */
async function* playlistTags(playlist: PlaylistRuntime, withAudio: boolean, signal: AbortSignal, hooks: FeedHooks): AsyncGenerator<TimedTag> {
  const lastHeader = new Map<number, Buffer>();
  const lastAt = new Map<number, number>();
  let videoClockMs = TIMELINE_START_MS;
  let endedAt: number | undefined;
  for (let item: PlaylistItem = playlist.current(); ; item = playlist.advance()) {
    const shift = videoClockMs - item.firstVideoMs;
    const frameMs = frameDurationMs(item.profile.frameRate);
    let frames = 0;
    let reported = false;
    for await (const tag of fileTags(item.path, signal)) {
      if (tag.type === TAG_SCRIPT || (tag.type === TAG_AUDIO && !withAudio)) continue;
      if ((tag.type !== TAG_AUDIO && tag.type !== TAG_VIDEO) || isEndOfSequence(tag)) continue;
      if (isSequenceHeader(tag)) {
        // The codec's parameters: sent once, and again only when an item's differ (ffmpeg then writes the new
        // ones to the destination).
        const data = tagData(tag);
        if (lastHeader.get(tag.type)?.equals(data)) continue;
        lastHeader.set(tag.type, Buffer.from(data));
        const at = Math.max(Math.round(videoClockMs), lastAt.get(tag.type) ?? 0);
        setTimestamp(tag, at);
        yield { tag, at };
        continue;
      }
      let at = Math.round(shift + tag.timestamp);
      const previous = lastAt.get(tag.type);
      if (previous !== undefined && at <= previous) {
        // Not with stream-ready items, whose sound ends inside their picture; a frame out of order would be refused
        // by the muxer.
        if (tag.type === TAG_AUDIO) {
          hooks.onDroppedAudio?.(item.id);
          continue;
        }
        at = previous + 1;
      }
      if (!reported) {
        reported = true;
        playlist.began(Date.now());
        hooks.onJoin?.({ itemId: item.id, ...(endedAt === undefined ? {} : { switchMs: performance.now() - endedAt }), atMs: Math.round(videoClockMs) });
      }
      lastAt.set(tag.type, at);
      if (tag.type === TAG_VIDEO) frames += 1;
      setTimestamp(tag, at);
      yield { tag, at };
    }
    if (!frames) throw new Error(`item ${item.id} has no video frames`);
    videoClockMs += frames * frameMs;
    endedAt = performance.now();
  }
}

/** The soundtrack's audio tags, retimed, pass after pass: each pass starts where the last one's frames end. */
async function* soundtrackTags(soundtrack: Soundtrack, signal: AbortSignal): AsyncGenerator<TimedTag> {
  const frameMs = (AAC_FRAME_SAMPLES * 1000) / soundtrack.sampleRate;
  let clockMs = TIMELINE_START_MS;
  let headerSent = false;
  let lastAt = -1;
  for (;;) {
    let frames = 0;
    let first: number | undefined;
    for await (const tag of fileTags(soundtrack.path, signal)) {
      if (tag.type !== TAG_AUDIO) continue;
      if (isSequenceHeader(tag)) {
        if (headerSent) continue;
        headerSent = true;
        setTimestamp(tag, Math.round(clockMs));
        yield { tag, at: Math.round(clockMs) };
        continue;
      }
      first ??= tag.timestamp;
      const at = Math.max(Math.round(clockMs + tag.timestamp - first), lastAt + 1);
      lastAt = at;
      frames += 1;
      setTimestamp(tag, at);
      yield { tag, at };
    }
    if (!frames) throw new Error('the soundtrack has no audio frames');
    clockMs += frames * frameMs;
  }
}

/** Two timed tag streams as one, in time order (ties: the first stream's first). */
async function* merged(a: AsyncGenerator<TimedTag>, b: AsyncGenerator<TimedTag>): AsyncGenerator<TimedTag> {
  let nextA = await a.next();
  let nextB = await b.next();
  try {
    while (!nextA.done || !nextB.done) {
      if (nextB.done || (!nextA.done && nextA.value.at <= nextB.value.at)) {
        yield nextA.value as TimedTag;
        nextA = await a.next();
      } else {
        yield nextB.value;
        nextB = await b.next();
      }
    }
  } finally {
    await Promise.all([a.return(undefined), b.return(undefined)]);
  }
}

export interface FeedHooks {
  onJoin?(report: JoinReport): void;
  /** An audio frame of the item was left out: it would not have come after the previous item's last one. */
  onDroppedAudio?(itemId: string): void;
}

export interface FeedOptions extends FeedHooks {
  playlist: PlaylistRuntime;
  soundtrack?: Soundtrack;
  out: Writable;
  signal: AbortSignal;
}

/**
 * Writes the FLV until the signal aborts or `out` fails (ffmpeg exited). Resolves in either case; rejects when an
 * item cannot be read.
 */
export async function feedFlv(options: FeedOptions): Promise<void> {
  const { out, signal } = options;
  const stop = new AbortController();
  const abort = () => stop.abort();
  signal.addEventListener('abort', abort, { once: true });
  out.once('close', abort);
  // A write to an ffmpeg that is gone fails with EPIPE: the run is over, the supervisor hears of it from its exit.
  out.on('error', abort);
  const tags = playlistTags(options.playlist, !options.soundtrack, stop.signal, options);
  const source = options.soundtrack ? merged(tags, soundtrackTags(options.soundtrack, stop.signal)) : tags;
  const write = async (chunk: Buffer) => {
    if (!out.write(chunk)) await once(out, 'drain', { signal: stop.signal });
  };
  try {
    await write(flvHeader({ audio: true, video: true }));
    let batch: Buffer[] = [];
    let size = 0;
    for await (const { tag } of source) {
      batch.push(tag.bytes);
      size += tag.bytes.length;
      if (size < WRITE_BYTES) continue;
      await write(Buffer.concat(batch, size));
      batch = [];
      size = 0;
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    signal.removeEventListener('abort', abort);
    out.off('close', abort);
    await source.return(undefined).catch(() => undefined);
  }
}
