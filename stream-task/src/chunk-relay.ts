// Publishing through a relay to a destination that declares a small RTMP chunk size (docs/decisions.md, "The
// destination's RTMP chunk size"). ffmpeg sends in chunks of the size the server declares, RTMP's default of 128
// bytes when it declares none, and has no option of its own: at 128 it costs about seven times the CPU of 4096
// (bench:wire). The relay listens on loopback; ffmpeg publishes to it, and right after the handshake it tells ffmpeg
// that the server's chunk size is 4096. ffmpeg answers by sending the destination the same Set Chunk Size (as OBS
// does on its own) and chunks at 4096 from then on. ffmpeg also reads with that size, so the server's messages are
// re-chunked to it on their way back (the server's own Set Chunk Size only changes how the relay reads them);
// ffmpeg's bytes pass unchanged, with their back-pressure, so a destination that stops reading still stalls ffmpeg
// and the supervisor's stall detection. Plain RTMP only: for rtmps:// the relay would have to hold the TLS session.
// It runs on the task's event loop: nothing in the task may block that loop while a stream is relayed.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { ChunkStreamReader, chunkMessage, declaredChunkSize, DEFAULT_CHUNK_SIZE, S0_S1_S2_BYTES, setChunkSizeMessage } from './rtmp-chunks';

/** The chunk size ffmpeg is told the server declares. */
export const RELAYED_CHUNK_SIZE = 4096;

/** Whether a destination is published through a relay: plain RTMP whose server declares a chunk size below
 * RELAYED_CHUNK_SIZE, or none (null). Not when it could not be asked (undefined). */
export const needsRelay = (url: string, declared: number | null | undefined): boolean =>
  /^rtmp:/i.test(url) && declared !== undefined && (declared ?? DEFAULT_CHUNK_SIZE) < RELAYED_CHUNK_SIZE;

/** The server's bytes on their way to ffmpeg: the handshake as it is, our Set Chunk Size, then whole messages. */
function serverToFfmpeg(send: (bytes: Buffer) => void): (data: Buffer) => void {
  const reader = new ChunkStreamReader();
  let handshakeLeft = S0_S1_S2_BYTES;
  return (data) => {
    if (handshakeLeft) {
      const handshake = data.subarray(0, handshakeLeft);
      send(handshake);
      handshakeLeft -= handshake.length;
      data = data.subarray(handshake.length);
      if (!handshakeLeft) send(chunkMessage(setChunkSizeMessage(RELAYED_CHUNK_SIZE), RELAYED_CHUNK_SIZE));
    }
    for (const message of reader.push(data)) if (declaredChunkSize(message) === undefined) send(chunkMessage(message, RELAYED_CHUNK_SIZE));
  };
}

export interface ChunkRelay {
  /** What ffmpeg publishes to instead of the destination: the same path (application and key) on the relay. */
  readonly url: string;
  /** Why the relay's last connection to the destination failed; undefined once one connects. */
  readonly lastError: string | undefined;
  /** Connections open now, ffmpeg's and the destination's (tests: none is left behind). */
  readonly openConnections: number;
  close(): void;
}

/**
 * A relay to `destinationUrl` for as long as the task runs: each connection ffmpeg makes gets its own connection to
 * the destination, made by `dial` (the probes' dialling, with their public-addresses-only rule; undefined: refused),
 * and either end closing closes both.
 */
export async function startChunkRelay(destinationUrl: string, dial: () => Socket | undefined): Promise<ChunkRelay> {
  const connections = new Set<Socket>();
  let lastError: string | undefined;
  const server = createServer((ffmpeg) => {
    const upstream = dial();
    if (!upstream) {
      lastError = 'the destination resolves to an address that is not public';
      ffmpeg.destroy();
      return;
    }
    for (const socket of [ffmpeg, upstream]) connections.add(socket);
    const end = () => {
      for (const socket of [ffmpeg, upstream]) {
        socket.destroy();
        connections.delete(socket);
      }
    };
    upstream.once('connect', () => (lastError = undefined));
    // The first failure of this connection is its reason; what follows from it (a write after the end) is not.
    let failedAlready = false;
    const failed = (reason: string) => {
      if (!failedAlready) lastError = reason;
      failedAlready = true;
      end();
    };
    // `on`, not `once`: a socket may emit more than one error, and an unhandled one would end the task.
    upstream.on('error', (error) => failed(error.message));
    upstream.once('end', () => failed('the destination closed the connection'));
    ffmpeg.on('error', end);
    for (const socket of [ffmpeg, upstream]) socket.once('close', end);
    ffmpeg.pipe(upstream);
    const toFfmpeg = serverToFfmpeg((bytes) => ffmpeg.write(bytes));
    upstream.on('data', (data: Buffer) => {
      try {
        toFfmpeg(data);
      } catch {
        failed('the destination sent something that is not RTMP');
      }
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  // Once listening, an error (a connection that could not be accepted) is that connection's, never the task's end.
  server.on('error', (error) => (lastError = error.message));
  const target = new URL(destinationUrl);
  return {
    url: `rtmp://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}${target.search}`,
    get lastError() {
      return lastError;
    },
    get openConnections() {
      return connections.size;
    },
    close() {
      server.close();
      for (const socket of connections) socket.destroy();
      connections.clear();
    },
  };
}
