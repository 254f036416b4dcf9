// FLV, as far as a playlist needs it: the file header, and tags split out of a byte stream with their timestamps
// rewritten in place. A playlist's items are remuxed once into FLV (playlist-media.ts); the feeder (feeder.ts) then
// reads their tags and writes them, retimed, as one endless FLV into ffmpeg, which relays it by stream copy.
// Format: Adobe's "Video File Format Specification" v10, annex E (FLV header, tags) and E.4.3.1 (AVC video tags).

export const TAG_AUDIO = 8;
export const TAG_VIDEO = 9;
export const TAG_SCRIPT = 18;

/** A tag's header: type, data size (24 bits), timestamp (24 bits and 8 more above them), stream id (always 0). */
const TAG_HEADER_BYTES = 11;
/** Each tag is followed by its own size (PreviousTagSize). */
const TAG_TRAILER_BYTES = 4;
const FILE_HEADER_BYTES = 9;

/** FLV timestamps are milliseconds in 32 bits: they wrap after 49.7 days, as every FLV muxer's do; ffmpeg's FLV
 * demuxer reads them as 32-bit timestamps and unwraps them. */
export const TIMESTAMP_MODULO = 2 ** 32;

/** The FLV file header with the audio and video flags, and the first PreviousTagSize (0). */
export function flvHeader(tracks: { audio: boolean; video: boolean }): Buffer {
  const header = Buffer.from([0x46, 0x4c, 0x56, 1, (tracks.audio ? 4 : 0) | (tracks.video ? 1 : 0), 0, 0, 0, FILE_HEADER_BYTES, 0, 0, 0, 0]);
  return header;
}

/** One tag as it is in the stream: header, data and trailer, in a buffer of its own (safe to change in place). */
export interface FlvTag {
  type: number;
  /** Milliseconds, as read (32 bits). */
  timestamp: number;
  /** The whole tag, header to trailer. */
  bytes: Buffer;
}

export const tagData = (tag: FlvTag): Buffer => tag.bytes.subarray(TAG_HEADER_BYTES, tag.bytes.length - TAG_TRAILER_BYTES);

/** A sequence header (AVC decoder configuration or AAC AudioSpecificConfig), not media: the codec's parameters. */
export function isSequenceHeader(tag: FlvTag): boolean {
  const data = tagData(tag);
  if (tag.type === TAG_VIDEO) return data.length >= 2 && (data[0]! & 0x0f) === 7 && data[1] === 0;
  if (tag.type === TAG_AUDIO) return data.length >= 2 && data[0]! >> 4 === 10 && data[1] === 0;
  return false;
}

/** The AVC end-of-sequence tag ffmpeg's FLV muxer writes at the end of a file: not a frame, and in the middle of a
 * stream it would tell the destination's decoder the stream ended. */
export const isEndOfSequence = (tag: FlvTag): boolean => {
  const data = tagData(tag);
  return tag.type === TAG_VIDEO && data.length >= 2 && (data[0]! & 0x0f) === 7 && data[1] === 2;
};

/** A video tag that holds a keyframe (FLV frame type 1). */
export const isKeyframe = (tag: FlvTag): boolean => tag.type === TAG_VIDEO && tagData(tag)[0]! >> 4 === 1;

/** Writes a timestamp into the tag (modulo 2^32, the lower 24 bits first, then the upper 8). */
export function setTimestamp(tag: FlvTag, milliseconds: number): void {
  const value = ((milliseconds % TIMESTAMP_MODULO) + TIMESTAMP_MODULO) % TIMESTAMP_MODULO;
  tag.bytes.writeUIntBE(value & 0xffffff, 4, 3);
  tag.bytes[7] = Math.floor(value / 0x1000000);
  tag.timestamp = value;
}

/**
 * Splits an FLV byte stream (fed in chunks of any size) into tags. The file header is checked and skipped; a tag
 * that spans chunks is joined into one buffer, others are views of their chunk (each chunk must be a buffer of its
 * own, as a file stream's are).
 */
export class FlvTagSplitter {
  private pending: Buffer = Buffer.alloc(0);
  private headerSeen = false;

  push(chunk: Buffer): FlvTag[] {
    let buffer = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (!this.headerSeen) {
      if (buffer.length < FILE_HEADER_BYTES + TAG_TRAILER_BYTES) {
        this.pending = buffer;
        return [];
      }
      if (buffer.toString('latin1', 0, 3) !== 'FLV') throw new Error('not an FLV file');
      const headerSize = buffer.readUInt32BE(5);
      buffer = buffer.subarray(headerSize + TAG_TRAILER_BYTES);
      this.headerSeen = true;
    }
    const tags: FlvTag[] = [];
    let offset = 0;
    while (buffer.length - offset >= TAG_HEADER_BYTES) {
      const size = buffer.readUIntBE(offset + 1, 3);
      const end = offset + TAG_HEADER_BYTES + size + TAG_TRAILER_BYTES;
      if (end > buffer.length) break;
      const bytes = buffer.subarray(offset, end);
      tags.push({ type: bytes[0]! & 0x1f, timestamp: bytes.readUIntBE(4, 3) + bytes[7]! * 0x1000000, bytes });
      offset = end;
    }
    // The rest is copied: a view would keep the whole chunk alive while we wait for the next one.
    this.pending = Buffer.from(buffer.subarray(offset));
    return tags;
  }

  /** Bytes of an incomplete tag at the end of what was pushed (0 when the stream ended cleanly). */
  get leftover(): number {
    return this.pending.length;
  }
}
