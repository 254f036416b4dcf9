// FLV, as far as a playlist needs it: the file header, and a file's tags read one after another through one buffer
// that is reused from read to read. A playlist's items are remuxed once into FLV (playlist-media.ts); the feeder
// (feeder.ts) then reads their tags and copies them, retimed, into the one endless FLV it writes into ffmpeg, which
// relays it by stream copy. Nothing is allocated per tag or per read: a 6 Mbit/s feed that allocated its chunks made
// the garbage collector most of the feeder's CPU (docs/stream-task.md, "Playlists").
// Format: Adobe's "Video File Format Specification" v10, annex E (FLV header, tags) and E.4.3.1 (AVC video tags).
import { open, type FileHandle } from 'node:fs/promises';

export const TAG_AUDIO = 8;
export const TAG_VIDEO = 9;
export const TAG_SCRIPT = 18;

/** A tag's header: type, data size (24 bits), timestamp (24 bits and 8 more above them), stream id (always 0). */
export const TAG_HEADER_BYTES = 11;
/** Each tag is followed by its own size (PreviousTagSize). */
const TAG_TRAILER_BYTES = 4;
const FILE_HEADER_BYTES = 9;

/** FLV timestamps are milliseconds in 32 bits: they wrap after 49.7 days, as every FLV muxer's do; ffmpeg's FLV
 * demuxer reads them as 32-bit timestamps and unwraps them. */
export const TIMESTAMP_MODULO = 2 ** 32;

/** The FLV file header with the audio and video flags, and the first PreviousTagSize (0). */
export function flvHeader(tracks: { audio: boolean; video: boolean }): Buffer {
  return Buffer.from([0x46, 0x4c, 0x56, 1, (tracks.audio ? 4 : 0) | (tracks.video ? 1 : 0), 0, 0, 0, FILE_HEADER_BYTES, 0, 0, 0, 0]);
}

/** One tag where it lies: `buffer[start, end)`, header to trailer. */
export interface TagView {
  buffer: Buffer;
  start: number;
  end: number;
  type: number;
  /** Milliseconds, as read (32 bits). */
  timestamp: number;
}

/** The first two bytes of the tag's data (codec and packet type), -1 where the data is shorter. */
const dataByte = (tag: TagView, index: number) =>
  tag.end - tag.start - TAG_HEADER_BYTES - TAG_TRAILER_BYTES > index ? tag.buffer[tag.start + TAG_HEADER_BYTES + index]! : -1;

/** A sequence header (AVC decoder configuration or AAC AudioSpecificConfig), not media: the codec's parameters. */
export function isSequenceHeader(tag: TagView): boolean {
  if (tag.type === TAG_VIDEO) return (dataByte(tag, 0) & 0x0f) === 7 && dataByte(tag, 1) === 0;
  if (tag.type === TAG_AUDIO) return dataByte(tag, 0) >> 4 === 10 && dataByte(tag, 1) === 0;
  return false;
}

/** The AVC end-of-sequence tag ffmpeg's FLV muxer writes at the end of a file: not a frame, and in the middle of a
 * stream it would tell the destination's decoder the stream ended. */
export const isEndOfSequence = (tag: TagView): boolean => tag.type === TAG_VIDEO && (dataByte(tag, 0) & 0x0f) === 7 && dataByte(tag, 1) === 2;

/** The tag's data (a view into its buffer). */
export const tagData = (tag: TagView): Buffer => tag.buffer.subarray(tag.start + TAG_HEADER_BYTES, tag.end - TAG_TRAILER_BYTES);

/** Writes a timestamp into the tag starting at `buffer[start]` (modulo 2^32, the lower 24 bits, then the upper 8). */
export function writeTimestamp(buffer: Buffer, start: number, milliseconds: number): void {
  const value = ((milliseconds % TIMESTAMP_MODULO) + TIMESTAMP_MODULO) % TIMESTAMP_MODULO;
  buffer.writeUIntBE(value & 0xffffff, start + 4, 3);
  buffer[start + 7] = Math.floor(value / 0x1000000);
}

/**
 * An FLV file's tags, one at a time: after `next()` returns true the reader is the tag's view (valid until the next
 * `next()` or `fill()`); when it returns false, `fill()` reads on (false at the end of the file). The buffer grows
 * only for a tag larger than it; `rewind()` and `open()` start over without allocating.
 */
export class FlvFileReader implements TagView {
  buffer: Buffer;
  start = 0;
  end = 0;
  type = 0;
  timestamp = 0;
  private path = '';
  private handle?: FileHandle;
  /** Bytes of the buffer read from the file, and the file offset that follows them. */
  private filled = 0;
  private position = 0;
  private headerSeen = false;

  constructor(bufferBytes: number) {
    this.buffer = Buffer.allocUnsafeSlow(bufferBytes);
  }

  /** Reads `path` from its beginning. The file before is closed meanwhile: a join does not wait for it. */
  async open(path: string): Promise<void> {
    const closing = this.close();
    this.handle = await open(path, 'r');
    await closing;
    this.path = path;
    this.rewind();
  }

  /** Back to the first tag of the same file. */
  rewind(): void {
    this.start = this.end = this.filled = this.position = 0;
    this.headerSeen = false;
  }

  next(): boolean {
    if (!this.headerSeen) {
      if (this.filled < FILE_HEADER_BYTES + TAG_TRAILER_BYTES) return false;
      if (this.buffer.toString('latin1', 0, 3) !== 'FLV') throw new Error(`${this.path} is not an FLV file`);
      this.end = this.buffer.readUInt32BE(5) + TAG_TRAILER_BYTES;
      this.headerSeen = true;
    }
    const start = this.end;
    if (this.filled - start < TAG_HEADER_BYTES) return false;
    const end = start + TAG_HEADER_BYTES + this.buffer.readUIntBE(start + 1, 3) + TAG_TRAILER_BYTES;
    if (end > this.filled) return false;
    this.start = start;
    this.end = end;
    this.type = this.buffer[start]! & 0x1f;
    this.timestamp = this.buffer.readUIntBE(start + 4, 3) + this.buffer[start + 7]! * 0x1000000;
    return true;
  }

  /** Keeps the bytes not yet read as tags and reads more after them; false at the end of the file. */
  async fill(): Promise<boolean> {
    if (!this.handle) throw new Error('no FLV file is open');
    const kept = this.headerSeen ? this.end : 0;
    const pending = this.filled - kept;
    if (kept > 0) this.buffer.copy(this.buffer, 0, kept, this.filled);
    this.filled = pending;
    this.start = this.end = 0;
    // A tag larger than the buffer: room for all of it.
    const needed = this.headerSeen && pending >= TAG_HEADER_BYTES ? TAG_HEADER_BYTES + this.buffer.readUIntBE(1, 3) + TAG_TRAILER_BYTES : 0;
    if (needed > this.buffer.length) {
      const larger = Buffer.allocUnsafeSlow(needed);
      this.buffer.copy(larger, 0, 0, pending);
      this.buffer = larger;
    }
    const { bytesRead } = await this.handle.read(this.buffer, this.filled, this.buffer.length - this.filled, this.position);
    this.filled += bytesRead;
    this.position += bytesRead;
    if (bytesRead > 0) return true;
    if (pending > 0) throw new Error(`${this.path} ends inside a tag`);
    return false;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
