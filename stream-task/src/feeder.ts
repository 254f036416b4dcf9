// Feeds ffmpeg a playlist as one endless FLV on its stdin (`-re -f flv -i pipe:0 -c copy`): the items' tags one
// item after another, their timestamps moved so that every item's first frame follows the previous item's last
// one exactly (its frame count times the frame duration), and, with a soundtrack, the soundtrack's audio tags looping
// on a clock of their own (its AAC frames times 1024 samples) in place of the items' sound. Decode timestamps thus
// increase across every join and every pass, on one RTMP connection; ffmpeg only copies. Measured in
// docs/stream-task.md ("Playlists").
import type { Writable } from 'node:stream';
import { FlvFileReader, flvHeader, isEndOfSequence, isSequenceHeader, TAG_AUDIO, TAG_HEADER_BYTES, TAG_SCRIPT, TAG_VIDEO, writeTimestamp } from './flv';
import type { PlaylistItem, PlaylistRuntime } from './playlist';

/** Where the timeline starts (ms): room for an item whose sound starts a little before its picture. ffmpeg starts
 * its output at 0 whatever the input's first timestamp is. */
export const TIMELINE_START_MS = 1000;

/** Samples in an AAC-LC frame. */
const AAC_FRAME_SAMPLES = 1024;

/** What an item's file is read in (a read every 0.7 s at 6 Mbit/s). */
const READ_BYTES = 512 * 1024;
/** A batch written into ffmpeg's stdin: at most this much media and this many bytes. The feed is paced by ffmpeg,
 * which reads at the media's pace (`-re`): a batch is written once the one before is taken, so the feeder is ahead by
 * at most one batch plus what the stdin connection holds (libuv's stdio pipe is a Unix socket pair, about 200 KB). */
const BATCH_MEDIA_MS = 200;
const BATCH_BYTES = 256 * 1024;

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

/** A source of retimed tags: `ready()` makes its next tag ready in `reader` at output time `at` (ms, not wrapped)
 * without awaiting anything, or returns false when `load()` must read on first; `take()` once the tag is copied. */
abstract class Lane {
  readonly reader = new FlvFileReader(READ_BYTES);
  at = 0;
  protected pending = false;

  abstract ready(): boolean;
  abstract load(): Promise<void>;

  take(): void {
    this.pending = false;
  }

  close(): Promise<void> {
    return this.reader.close();
  }

  /** The reader's tag is the next, at output time `at`. */
  protected hold(at: number): true {
    this.at = at;
    this.pending = true;
    return true;
  }
}

/** Frames per second from ffprobe's "30/1". */
export function frameDurationMs(frameRate: string): number {
  const [num, den] = frameRate.split('/').map(Number);
  if (!num || !Number.isFinite(num)) throw new Error(`no frame rate: ${frameRate}`);
  return (1000 * (den || 1)) / num;
}

/** The playlist's tags (video, and the items' own audio unless `withAudio` is false), retimed, item after item. */
class PlaylistLane extends Lane {
  /** The codec parameters last sent, by tag type. */
  private readonly lastHeader = new Map<number, Buffer>();
  /** The last media tag's output time, by tag type. */
  private readonly lastAt = new Map<number, number>();
  private videoClockMs = TIMELINE_START_MS;
  private endedAt: number | undefined;
  private item!: PlaylistItem;
  private shift = 0;
  private frameMs = 0;
  private frames = 0;
  private reported = false;

  constructor(
    private readonly playlist: PlaylistRuntime,
    private readonly withAudio: boolean,
    private readonly hooks: FeedHooks,
  ) {
    super();
  }

  start(): Promise<void> {
    return this.openItem(this.playlist.current());
  }

  ready(): boolean {
    if (this.pending) return true;
    const tag = this.reader;
    while (tag.next()) {
      const type = tag.type;
      if (type === TAG_SCRIPT || (type === TAG_AUDIO && !this.withAudio)) continue;
      if ((type !== TAG_AUDIO && type !== TAG_VIDEO) || isEndOfSequence(tag)) continue;
      if (isSequenceHeader(tag)) {
        // The codec's parameters: sent once, and again only when an item's differ (ffmpeg then writes the new
        // ones to the destination).
        const dataStart = tag.start + TAG_HEADER_BYTES;
        const dataEnd = tag.end - 4;
        const last = this.lastHeader.get(type);
        if (last && last.compare(tag.buffer, dataStart, dataEnd) === 0) continue;
        this.lastHeader.set(type, Buffer.from(tag.buffer.subarray(dataStart, dataEnd)));
        return this.hold(Math.max(Math.round(this.videoClockMs), this.lastAt.get(type) ?? 0));
      }
      let at = Math.round(this.shift + tag.timestamp);
      const previous = this.lastAt.get(type);
      if (previous !== undefined && at <= previous) {
        // Not with stream-ready items, whose sound ends inside their picture; a frame out of order would be refused
        // by the muxer.
        if (type === TAG_AUDIO) {
          this.hooks.onDroppedAudio?.(this.item.id);
          continue;
        }
        at = previous + 1;
      }
      if (!this.reported) {
        this.reported = true;
        this.playlist.began(Date.now());
        this.hooks.onJoin?.({
          itemId: this.item.id,
          ...(this.endedAt === undefined ? {} : { switchMs: performance.now() - this.endedAt }),
          atMs: Math.round(this.videoClockMs),
        });
      }
      this.lastAt.set(type, at);
      if (type === TAG_VIDEO) this.frames += 1;
      return this.hold(at);
    }
    return false;
  }

  /** Reads on in the item; at its end, the next item (the playlist's choice) starts where its frames end. */
  async load(): Promise<void> {
    if (await this.reader.fill()) return;
    if (!this.frames) throw new Error(`item ${this.item.id} has no video frames`);
    this.videoClockMs += this.frames * this.frameMs;
    this.endedAt = performance.now();
    await this.openItem(this.playlist.advance());
  }

  private async openItem(item: PlaylistItem): Promise<void> {
    this.item = item;
    this.shift = this.videoClockMs - item.firstVideoMs;
    this.frameMs = frameDurationMs(item.profile.frameRate);
    this.frames = 0;
    this.reported = false;
    await this.reader.open(item.path);
  }
}

/** The soundtrack's audio tags, retimed, pass after pass: each pass starts where the last one's frames end. */
class SoundtrackLane extends Lane {
  private readonly frameMs: number;
  private clockMs = TIMELINE_START_MS;
  private headerSent = false;
  private lastAt = -1;
  private frames = 0;
  /** The pass's first frame's timestamp in the file. */
  private first: number | undefined;

  constructor(private readonly soundtrack: Soundtrack) {
    super();
    this.frameMs = (AAC_FRAME_SAMPLES * 1000) / soundtrack.sampleRate;
  }

  start(): Promise<void> {
    return this.reader.open(this.soundtrack.path);
  }

  ready(): boolean {
    if (this.pending) return true;
    const tag = this.reader;
    while (tag.next()) {
      if (tag.type !== TAG_AUDIO) continue;
      if (isSequenceHeader(tag)) {
        if (this.headerSent) continue;
        this.headerSent = true;
        return this.hold(Math.round(this.clockMs));
      }
      this.first ??= tag.timestamp;
      const at = Math.max(Math.round(this.clockMs + tag.timestamp - this.first), this.lastAt + 1);
      this.lastAt = at;
      this.frames += 1;
      return this.hold(at);
    }
    return false;
  }

  async load(): Promise<void> {
    if (await this.reader.fill()) return;
    if (!this.frames) throw new Error('the soundtrack has no audio frames');
    this.clockMs += this.frames * this.frameMs;
    this.frames = 0;
    this.first = undefined;
    this.reader.rewind();
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
 * item cannot be read. The tags are copied, retimed, into one batch buffer that is written whole and reused once
 * written: nothing is allocated per tag, per read or per write, and the pipe's backpressure (ffmpeg reads at the
 * media's pace) paces the feed.
 */
export async function feedFlv(options: FeedOptions): Promise<void> {
  const { out, signal } = options;
  const stop = new AbortController();
  /** Ends the wait for a batch's write. */
  let wake: (() => void) | undefined;
  const abort = () => {
    stop.abort();
    wake?.();
  };
  signal.addEventListener('abort', abort, { once: true });
  out.once('close', abort);
  // A write to an ffmpeg that is gone fails with EPIPE: the run is over, the supervisor hears of it from its exit.
  out.on('error', abort);
  const video = new PlaylistLane(options.playlist, !options.soundtrack, options);
  const sound = options.soundtrack ? new SoundtrackLane(options.soundtrack) : undefined;
  let batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  let length = 0;
  let batchStartAt = 0;
  /** Writes the batch and waits until it is in the pipe (its buffer is free again) or the feed stopped. */
  const flush = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      out.write(batch.subarray(0, length), () => resolve());
      length = 0;
    });
  try {
    await Promise.all([video.start(), sound?.start()]);
    out.write(flvHeader({ audio: true, video: true }));
    while (!stop.signal.aborted) {
      while (!video.ready()) await video.load();
      if (sound) while (!sound.ready()) await sound.load();
      // In time order (ties: the picture's first).
      const lane: Lane = !sound || video.at <= sound.at ? video : sound;
      const { reader } = lane;
      const size = reader.end - reader.start;
      if (length > 0 && (length + size > batch.length || lane.at - batchStartAt >= BATCH_MEDIA_MS)) {
        await flush();
        if (stop.signal.aborted) break;
      }
      // A tag larger than a batch (a 4K keyframe) gets a buffer of its size.
      if (size > batch.length) batch = Buffer.allocUnsafeSlow(size);
      if (length === 0) batchStartAt = lane.at;
      reader.buffer.copy(batch, length, reader.start, reader.end);
      writeTimestamp(batch, length, lane.at);
      length += size;
      lane.take();
    }
    // What was read before the signal came is still written, while ffmpeg takes it.
    if (length > 0 && out.writable) out.write(batch.subarray(0, length));
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    signal.removeEventListener('abort', abort);
    out.off('close', abort);
    await Promise.all([video.close(), sound?.close()]);
  }
}
