// RTMP's chunk stream, as much of it as the task reads itself: a server's messages put back together from their
// chunks, and the `connect` command that makes a server say which chunk size it sends and expects. ffmpeg does the
// publishing; this is for asking a destination what ffmpeg will meet there (runtime.ts, declaredChunkSize).

/** What a server sends before its first chunk: S0 (the version byte) and S1 (1536 bytes), then S2 (1536). */
export const S0_S1_BYTES = 1 + 1536;
export const S0_S1_S2_BYTES = S0_S1_BYTES + 1536;
/** RTMP's chunk size until a Set Chunk Size says otherwise. */
export const DEFAULT_CHUNK_SIZE = 128;
export const MESSAGE_TYPE = { setChunkSize: 1, amf0Command: 20 } as const;
const EXTENDED_TIMESTAMP = 0xffffff;
/** The message header's length by chunk format 0-3. */
const MESSAGE_HEADER_BYTES = [11, 7, 3, 0] as const;

export interface RtmpMessage {
  chunkStream: number;
  timestamp: number;
  type: number;
  messageStream: number;
  payload: Buffer;
}

interface ChunkStreamState {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  messageStream: number;
  extended: boolean;
  parts: Buffer[];
  received: number;
}

/** Reads a peer's chunk stream (after the handshake) and gives back whole messages. A Set Chunk Size from the peer
 * changes how the chunks after it are read, and is given back like any other message. */
export class ChunkStreamReader {
  private pending: Buffer = Buffer.alloc(0);
  private chunkSize = DEFAULT_CHUNK_SIZE;
  private readonly streams = new Map<number, ChunkStreamState>();

  push(data: Buffer): RtmpMessage[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    const messages: RtmpMessage[] = [];
    for (let read = this.readChunk(messages); read; read = this.readChunk(messages)) this.pending = this.pending.subarray(read);
    return messages;
  }

  /** Reads one chunk from the pending bytes into `messages` when it ends one; the bytes it used, 0 when they do
   * not yet hold a whole chunk. */
  private readChunk(messages: RtmpMessage[]): number {
    const bytes = this.pending;
    if (!bytes.length) return 0;
    const format = bytes[0]! >> 6;
    let chunkStream = bytes[0]! & 0x3f;
    let at = 1;
    if (chunkStream === 0) {
      if (bytes.length < 2) return 0;
      chunkStream = 64 + bytes[1]!;
      at = 2;
    } else if (chunkStream === 1) {
      if (bytes.length < 3) return 0;
      chunkStream = 64 + bytes[1]! + bytes[2]! * 256;
      at = 3;
    }
    const headerBytes = MESSAGE_HEADER_BYTES[format as 0 | 1 | 2 | 3];
    if (bytes.length < at + headerBytes) return 0;
    const previous = this.streams.get(chunkStream);
    const stream: ChunkStreamState = previous
      ? { ...previous }
      : { timestamp: 0, delta: 0, length: 0, type: 0, messageStream: 0, extended: false, parts: [], received: 0 };
    let timeField = 0;
    if (format <= 2) {
      timeField = bytes.readUIntBE(at, 3);
      stream.extended = timeField === EXTENDED_TIMESTAMP;
    }
    if (format <= 1) {
      stream.length = bytes.readUIntBE(at + 3, 3);
      stream.type = bytes[at + 6]!;
    }
    if (format === 0) stream.messageStream = bytes.readUInt32LE(at + 7);
    at += headerBytes;
    if (stream.extended) {
      if (bytes.length < at + 4) return 0;
      timeField = bytes.readUInt32BE(at);
      at += 4;
    }
    if (!stream.received) {
      // A new message: format 0 carries its timestamp, 1 and 2 a delta, 3 repeats the last delta.
      if (format === 0) [stream.timestamp, stream.delta] = [timeField, 0];
      else if (format <= 2) [stream.timestamp, stream.delta] = [stream.timestamp + timeField, timeField];
      else stream.timestamp += stream.delta;
      stream.parts = [];
    }
    const take = Math.min(this.chunkSize, stream.length - stream.received);
    if (bytes.length < at + take) return 0;
    stream.parts = [...stream.parts, bytes.subarray(at, at + take)];
    stream.received += take;
    if (stream.received === stream.length) {
      const payload = Buffer.concat(stream.parts);
      const message = { chunkStream, timestamp: stream.timestamp, type: stream.type, messageStream: stream.messageStream, payload };
      this.chunkSize = declaredChunkSize(message) ?? this.chunkSize;
      messages.push(message);
      stream.received = 0;
    }
    this.streams.set(chunkStream, stream);
    return at + take;
  }
}

/** The size a Set Chunk Size message declares; undefined for any other message, and for one that declares no
 * valid size (RTMP's sizes are 1 to 2^31 - 1). */
export function declaredChunkSize(message: RtmpMessage): number | undefined {
  if (message.type !== MESSAGE_TYPE.setChunkSize || message.payload.length < 4) return undefined;
  const size = message.payload.readUInt32BE(0) & 0x7fffffff;
  return size >= 1 ? size : undefined;
}

/** The protocol control message that declares the sender's chunk size. */
export function setChunkSizeMessage(size: number): RtmpMessage {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(size);
  return { chunkStream: 2, timestamp: 0, type: MESSAGE_TYPE.setChunkSize, messageStream: 0, payload };
}

/** One message as chunks of `chunkSize` (chunk streams 2-63): a format-0 chunk, then format-3 continuations. */
export function chunkMessage(message: RtmpMessage, chunkSize: number): Buffer {
  const extended = message.timestamp >= EXTENDED_TIMESTAMP;
  const head = Buffer.alloc(12 + (extended ? 4 : 0));
  head[0] = message.chunkStream;
  head.writeUIntBE(extended ? EXTENDED_TIMESTAMP : message.timestamp, 1, 3);
  head.writeUIntBE(message.payload.length, 4, 3);
  head[7] = message.type;
  head.writeUInt32LE(message.messageStream, 8);
  if (extended) head.writeUInt32BE(message.timestamp, 12);
  const parts: Buffer[] = [head];
  for (let offset = 0; offset < message.payload.length; offset += chunkSize) {
    if (offset) parts.push(Buffer.from([0xc0 | message.chunkStream]), ...(extended ? [head.subarray(12)] : []));
    parts.push(message.payload.subarray(offset, offset + chunkSize));
  }
  return Buffer.concat(parts);
}

const amf0String = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  const head = Buffer.alloc(3);
  head[0] = 0x02;
  head.writeUInt16BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
};
const amf0Number = (value: number) => {
  const bytes = Buffer.alloc(9);
  bytes[0] = 0x00;
  bytes.writeDoubleBE(value, 1);
  return bytes;
};
const amf0Object = (properties: Record<string, string>) =>
  Buffer.concat([
    Buffer.from([0x03]),
    ...Object.entries(properties).flatMap(([key, value]) => {
      const name = Buffer.from(key, 'utf8');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(name.length);
      return [length, name, amf0String(value)];
    }),
    Buffer.from([0x00, 0x00, 0x09]),
  ]);

/** The `connect` command a publisher sends first (transaction 1), for the application the URL names. */
export function connectCommand(url: URL): RtmpMessage {
  const app = url.pathname.split('/')[1] ?? '';
  const tcUrl = `${url.protocol}//${url.host}/${app}`;
  const payload = Buffer.concat([
    amf0String('connect'),
    amf0Number(1),
    amf0Object({ app, type: 'nonprivate', flashVer: 'FMLE/3.0 (compatible; Loopcast)', tcUrl }),
  ]);
  return { chunkStream: 3, timestamp: 0, type: MESSAGE_TYPE.amf0Command, messageStream: 0, payload };
}
