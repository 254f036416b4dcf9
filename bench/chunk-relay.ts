// A prototype of the relay docs/decisions.md describes ("Found, not fixed: the destination's RTMP chunk size"), here
// for bench:wire to measure before the stream task has it: ffmpeg publishes to it over loopback, and it passes
// everything on to the destination except that it tells ffmpeg, right after the handshake, that the server's chunk
// size is 4096. ffmpeg answers by sending the destination the same Set Chunk Size and chunks at 4096 from then on.
// ffmpeg also reads with that size, so the server's own messages are re-chunked to it on their way back (and the
// server's own Set Chunk Size only changes how the relay reads them). Plain RTMP only; chunk stream ids below 64.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

const RELAYED_CHUNK_SIZE = 4096;
/** C0/S0 (1 byte), C1/S1 and C2/S2 (1536 each): what the server sends before its first chunk. */
const SERVER_HANDSHAKE_BYTES = 1 + 1536 + 1536;
const EXTENDED_TIMESTAMP = 0xffffff;
const SET_CHUNK_SIZE = 1;
/** The message header's length by chunk format 0-3. */
const MESSAGE_HEADER_BYTES = [11, 7, 3, 0] as const;

/** One message as chunks of RELAYED_CHUNK_SIZE: a type-0 header, then type-3 continuations. */
function chunked(chunkStream: number, timestamp: number, type: number, messageStream: number, payload: Buffer): Buffer {
  const extended = timestamp >= EXTENDED_TIMESTAMP;
  const head = Buffer.alloc(12 + (extended ? 4 : 0));
  head[0] = chunkStream;
  head.writeUIntBE(extended ? EXTENDED_TIMESTAMP : timestamp, 1, 3);
  head.writeUIntBE(payload.length, 4, 3);
  head[7] = type;
  head.writeUInt32LE(messageStream, 8);
  if (extended) head.writeUInt32BE(timestamp, 12);
  const parts: Buffer[] = [head];
  for (let offset = 0; offset < payload.length; offset += RELAYED_CHUNK_SIZE) {
    if (offset) parts.push(Buffer.from([0xc0 | chunkStream]), ...(extended ? [head.subarray(12)] : []));
    parts.push(payload.subarray(offset, offset + RELAYED_CHUNK_SIZE));
  }
  return Buffer.concat(parts);
}

interface ChunkStream {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  messageStream: number;
  extended: boolean;
  parts: Buffer[];
  received: number;
}

/** The server's bytes on their way to ffmpeg: the handshake as it is, the Set Chunk Size, then whole messages. */
class ServerToFfmpeg {
  private pending: Buffer = Buffer.alloc(0);
  private handshakeLeft = SERVER_HANDSHAKE_BYTES;
  private serverChunkSize = 128;
  private readonly streams = new Map<number, ChunkStream>();

  constructor(private readonly send: (bytes: Buffer) => void) {}

  push(data: Buffer): void {
    if (this.handshakeLeft) {
      const handshake = data.subarray(0, this.handshakeLeft);
      this.send(handshake);
      this.handshakeLeft -= handshake.length;
      data = data.subarray(handshake.length);
      if (!this.handshakeLeft) {
        const size = Buffer.alloc(4);
        size.writeUInt32BE(RELAYED_CHUNK_SIZE);
        this.send(chunked(2, 0, SET_CHUNK_SIZE, 0, size));
      }
    }
    this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    for (let used = this.readChunk(); used; used = this.readChunk()) this.pending = this.pending.subarray(used);
  }

  /** Reads one chunk from the pending bytes; the bytes it used, 0 when they do not yet hold a whole chunk. */
  private readChunk(): number {
    const bytes = this.pending;
    if (!bytes.length) return 0;
    const format = bytes[0]! >> 6;
    const chunkStream = bytes[0]! & 0x3f;
    if (chunkStream < 2) throw new Error('chunk stream ids above 63 are not relayed');
    let at = 1;
    const headerBytes = MESSAGE_HEADER_BYTES[format as 0 | 1 | 2 | 3];
    if (bytes.length < at + headerBytes) return 0;
    const previous = this.streams.get(chunkStream);
    const stream: ChunkStream = previous
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
      // A new message: type 0 carries its timestamp, 1 and 2 a delta, 3 repeats the last delta.
      if (format === 0) [stream.timestamp, stream.delta] = [timeField, 0];
      else if (format <= 2) [stream.timestamp, stream.delta] = [stream.timestamp + timeField, timeField];
      else stream.timestamp += stream.delta;
      stream.parts = [];
    }
    const take = Math.min(this.serverChunkSize, stream.length - stream.received);
    if (bytes.length < at + take) return 0;
    stream.parts = [...stream.parts, bytes.subarray(at, at + take)];
    stream.received += take;
    if (stream.received === stream.length) {
      const payload = Buffer.concat(stream.parts);
      if (stream.type === SET_CHUNK_SIZE) this.serverChunkSize = payload.readUInt32BE(0) & 0x7fffffff;
      else this.send(chunked(chunkStream, stream.timestamp, stream.type, stream.messageStream, payload));
      stream.received = 0;
    }
    this.streams.set(chunkStream, stream);
    return at + take;
  }
}

export interface ChunkRelay {
  /** Where ffmpeg publishes instead: rtmp://127.0.0.1:<port>/<app>/<key>, with -rtmp_tcurl the destination's. */
  port: number;
  /** The relay's connections to the destination, to read their counters. */
  upstreams: Socket[];
  close(): void;
}

export async function startChunkRelay(destination: { host: string; port: number }): Promise<ChunkRelay> {
  const upstreams: Socket[] = [];
  const server: Server = createServer((ffmpeg) => {
    const upstream = connect(destination.port, destination.host);
    upstreams.push(upstream);
    ffmpeg.pipe(upstream);
    const toFfmpeg = new ServerToFfmpeg((bytes) => ffmpeg.write(bytes));
    upstream.on('data', (data: Buffer) => toFfmpeg.push(data));
    const end = () => {
      ffmpeg.destroy();
      upstream.destroy();
    };
    for (const socket of [ffmpeg, upstream]) socket.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    upstreams,
    close: () => {
      server.close();
      for (const socket of upstreams) socket.destroy();
    },
  };
}
