// A prototype of the relay docs/decisions.md describes ("Found, not fixed: the destination's RTMP chunk size"), here
// for bench:wire to measure before the stream task has it: ffmpeg publishes to it over loopback, and it passes
// everything on to the destination except that it tells ffmpeg, right after the handshake, that the server's chunk
// size is 4096. ffmpeg answers by sending the destination the same Set Chunk Size and chunks at 4096 from then on.
// ffmpeg also reads with that size, so the server's own messages are re-chunked to it on their way back (and the
// server's own Set Chunk Size only changes how the relay reads them). Plain RTMP only.
// It runs in its caller's process, on its event loop: anything that blocks that loop (a synchronous child process)
// stops the stream for as long. bench:wire has a player read each relayed stream back from nginx.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { ChunkStreamReader, chunkMessage, declaredChunkSize, S0_S1_S2_BYTES, setChunkSizeMessage } from '../stream-task/src/rtmp-chunks';

const RELAYED_CHUNK_SIZE = 4096;

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
    upstream.on(
      'data',
      serverToFfmpeg((bytes) => ffmpeg.write(bytes)),
    );
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
