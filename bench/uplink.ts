// A creator's uplink between a client and a server on this machine: a TCP proxy that serialises every byte the
// client sends through ONE shared link of a given rate (all connections of the client share it, as they share a
// home uplink), delays it by half the round trip, and delays the server's answers by the other half (answers are
// small; the downlink's rate is not limited). A new connection waits one round trip before its first byte, as
// TCP's handshake does.
//
// What it does not model: TCP's congestion window (slow start after a connection opens or idles), loss, and a
// router's queue beyond QUEUE_SECONDS (the sender's own socket buffers hold the rest, as on a real machine). A
// network namespace with a netem-shaped veth pair would model those, but this machine's kernel has no netem
// (`tc qdisc ... netem` answers "unknown qdisc"), and the proxy needs no root.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface LinkSpec {
  /** Uplink rate in bits per second. */
  bitsPerSecond: number;
  roundTripMs: number;
}

export interface Uplink {
  port: number;
  close(): Promise<void>;
}

/** The link's own queue: how far ahead of the wire the proxy reads from the client before it stops reading. */
const QUEUE_SECONDS = 0.02;

/** `50:40` -> 50 Mbit/s, 40 ms round trip. */
export function parseLink(text: string): LinkSpec {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!match) throw new Error(`not a link: ${text} (Mbit/s:round trip ms, e.g. 50:40)`);
  return { bitsPerSecond: Number(match[1]) * 1e6, roundTripMs: Number(match[2]) };
}

export const describeLink = (link: LinkSpec) => `${link.bitsPerSecond / 1e6} Mbit/s, ${link.roundTripMs} ms round trip`;

/** Hands bytes to `deliver` at given times, always in the order they were given: timers of different lengths may
 * fire out of order within a millisecond, which would reorder a TCP stream. */
function inOrder(deliver: (chunk: Buffer | null) => void) {
  const queue: { at: number; chunk: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    timer = undefined;
    while (queue.length && queue[0]!.at <= performance.now()) deliver(queue.shift()!.chunk);
    if (queue.length) timer = setTimeout(pump, Math.max(0, queue[0]!.at - performance.now()));
  };
  /** `chunk` null: the end of the stream. */
  return (chunk: Buffer | null, at: number) => {
    queue.push({ at, chunk });
    if (!timer) timer = setTimeout(pump, Math.max(0, at - performance.now()));
  };
}

export async function startUplink(target: { host: string; port: number }, link: LinkSpec): Promise<Uplink> {
  const oneWayMs = link.roundTripMs / 2;
  const bytesPerMs = link.bitsPerSecond / 8 / 1000;
  let wireFreeAt = 0; // when the link has sent everything queued so far (performance.now() ms)
  const sockets = new Set<Socket>();

  /** Puts `bytes` on the shared link; returns when its last byte reaches the far end. */
  function transmit(bytes: number, notBefore: number): number {
    const start = Math.max(performance.now(), wireFreeAt, notBefore);
    wireFreeAt = start + bytes / bytesPerMs;
    return wireFreeAt + oneWayMs;
  }

  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const handshakeDone = performance.now() + link.roundTripMs;
    let lastArrival = 0; // when the last byte sent so far reaches the server
    const afterLastArrival = () => Math.max(0, lastArrival - performance.now());
    // Whatever happens to one side reaches the other after what is still on its way, as on a wire.
    const forget = (socket: Socket) => () => sockets.delete(socket);
    client.on('close', forget(client)).on('error', () => client.destroy());
    upstream.on('close', forget(upstream)).on('error', () => upstream.destroy());
    client.on('close', () => setTimeout(() => upstream.destroy(), afterLastArrival() + 2));
    upstream.on('close', () => setTimeout(() => client.destroy(), oneWayMs + 2));

    const toServer = inOrder((chunk) => (chunk ? upstream.write(chunk) : upstream.end()));
    const toClient = inOrder((chunk) => (chunk ? client.write(chunk) : client.end()));
    client.on('data', (chunk: Buffer) => {
      lastArrival = transmit(chunk.length, handshakeDone);
      toServer(chunk, lastArrival);
      const queuedMs = wireFreeAt - performance.now();
      if (queuedMs > QUEUE_SECONDS * 1000) {
        client.pause();
        setTimeout(() => client.resume(), queuedMs - QUEUE_SECONDS * 1000);
      }
    });
    client.on('end', () => toServer(null, Math.max(lastArrival, performance.now())));
    upstream.on('data', (chunk: Buffer) => toClient(chunk, performance.now() + oneWayMs));
    upstream.on('end', () => toClient(null, performance.now() + oneWayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
