// The realtime client against a real WebSocket server (`ws`), with Node's own browser-standard WebSocket.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { RealtimeEvent } from '@loopcast/contract/realtime-events';
import { createRealtimeClient, defaultRetryDelayMs, parseRealtimeEvent, type RealtimeClient, type RealtimeStatus } from './realtime-client';

interface TestServer {
  url: string;
  /** Query tokens of every connection attempt that reached the server, in order. */
  attempts: string[];
  sockets: ServerSocket[];
  /** Refuse (HTTP 403) the next n connection attempts. */
  refuseNext(n: number): void;
  close(): Promise<void>;
}

async function startServer(): Promise<TestServer> {
  const http: Server = createServer();
  const attempts: string[] = [];
  const sockets: ServerSocket[] = [];
  let refusals = 0;
  const wss = new WebSocketServer({
    server: http,
    verifyClient: (info: { req: { url?: string } }, done: (ok: boolean, code?: number) => void) => {
      attempts.push(new URL(info.req.url ?? '/', 'http://x').searchParams.get('token') ?? '');
      if (refusals > 0) {
        refusals -= 1;
        done(false, 403);
      } else done(true);
    },
  });
  wss.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
    attempts,
    sockets,
    refuseNext: (n) => void (refusals = n),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => http.close(() => resolve()));
      }),
  };
}

const until = async (check: () => boolean, what: string, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

let server: TestServer;
let client: RealtimeClient | undefined;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  client?.stop();
  client = undefined;
  await server.close();
});

function connect(options: { fetchTicket?: () => Promise<{ url: string; token: string }>; onEvent?: (event: RealtimeEvent) => void } = {}) {
  const statuses: RealtimeStatus[] = [];
  const events: RealtimeEvent[] = [];
  const warnings: string[] = [];
  let tickets = 0;
  client = createRealtimeClient({
    fetchTicket: options.fetchTicket ?? (async () => ({ url: server.url, token: `ticket-${++tickets}` })),
    onEvent: options.onEvent ?? ((event) => events.push(event)),
    onStatus: (status) => statuses.push(status),
    retryDelayMs: () => 20,
    warn: (message) => warnings.push(message),
  });
  client.start();
  return { client, statuses, events, warnings, tickets: () => tickets };
}

describe('realtime client', () => {
  test('connects with a ticket in the query string and delivers the known events it receives', async () => {
    const { client, events } = connect();
    await until(() => client.status === 'open' && server.sockets.length === 1, 'the connection');
    expect(server.attempts).toEqual(['ticket-1']);
    const progress: RealtimeEvent = { type: 'video.progress', videoId: 'v1', percent: 40 };
    const socket = server.sockets[0]!;
    socket.send(JSON.stringify(progress));
    socket.send('not json');
    socket.send(JSON.stringify({ type: 'something.new', id: 1 }));
    socket.send(JSON.stringify({ type: 'subscription.changed' }));
    await until(() => events.length === 2, 'two events');
    expect(events).toEqual([progress, { type: 'subscription.changed' }]);
  });

  test('asks for a fresh ticket for each attempt and retries refused connections', async () => {
    server.refuseNext(2);
    const { client, statuses, warnings } = connect();
    await until(() => client.status === 'open', 'the third attempt');
    expect(server.attempts).toEqual(['ticket-1', 'ticket-2', 'ticket-3']);
    expect(statuses).toEqual(['connecting', 'open']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/retry 1 of 3/);
  });

  test('gives up after 3 retries with warnings, never throwing, and can be started again', async () => {
    server.refuseNext(4);
    const { client, statuses, warnings } = connect();
    await until(() => client.status === 'down', 'giving up');
    expect(server.attempts).toHaveLength(4);
    expect(statuses).toEqual(['connecting', 'down']);
    expect(warnings.at(-1)).toMatch(/giving up after 3 retries/);

    client.start();
    await until(() => client.status === 'open', 'the new start');
    expect(server.attempts).toHaveLength(5);
  });

  test('a ticket that cannot be had counts as a failed attempt', async () => {
    let calls = 0;
    const { client } = connect({
      fetchTicket: async () => {
        calls += 1;
        if (calls <= 3) throw new Error('offline');
        return { url: server.url, token: 'late' };
      },
    });
    await until(() => client.status === 'open', 'the fourth attempt');
    expect(calls).toBe(4);
    expect(server.attempts).toEqual(['late']);
  });

  test('a dropped connection is reopened with a new ticket, and each outage gets its own 3 retries', async () => {
    const { client, statuses } = connect();
    await until(() => server.sockets.length === 1 && client.status === 'open', 'the first connection');
    for (let outage = 1; outage <= 4; outage++) {
      server.refuseNext(2);
      server.sockets.at(-1)!.close(1012, 'restart');
      await until(() => server.sockets.length === outage + 1 && client.status === 'open', `reconnection ${outage}`);
    }
    expect(server.attempts).toHaveLength(1 + 4 * 3);
    expect(new Set(server.attempts).size).toBe(server.attempts.length);
    expect(statuses.filter((status) => status === 'open')).toHaveLength(5);
  });

  test('stop closes the connection for good', async () => {
    const { client } = connect();
    await until(() => server.sockets.length === 1 && client.status === 'open', 'the connection');
    const closed = new Promise<void>((resolve) => server.sockets[0]!.once('close', () => resolve()));
    client.stop();
    await closed;
    expect(client.status).toBe('stopped');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.attempts).toHaveLength(1);
  });

  test('an event handler that throws does not end the connection', async () => {
    const received: RealtimeEvent[] = [];
    const { client, warnings } = connect({
      onEvent: (event) => {
        received.push(event);
        if (received.length === 1) throw new Error('handler bug');
      },
    });
    await until(() => server.sockets.length === 1 && client.status === 'open', 'the connection');
    server.sockets[0]!.send(JSON.stringify({ type: 'subscription.changed' }));
    server.sockets[0]!.send(JSON.stringify({ type: 'upload.finished', videoId: 'v2' }));
    await until(() => received.length === 2, 'both events');
    expect(client.status).toBe('open');
    expect(warnings).toEqual(['handling subscription.changed failed']);
  });
});

describe('parseRealtimeEvent', () => {
  test.each([[42], ['[]'], ['null'], ['{"type":5}'], ['{"kind":"video.state"}']])('ignores %p', (data) => {
    expect(parseRealtimeEvent(data)).toBeUndefined();
  });
});

test('retry delays grow: about 1 s, 2 s, 4 s', () => {
  for (const [attempt, base] of [
    [1, 1000],
    [2, 2000],
    [3, 4000],
  ] as const) {
    const delay = defaultRetryDelayMs(attempt);
    expect(delay).toBeGreaterThanOrEqual(base * 0.8);
    expect(delay).toBeLessThanOrEqual(base * 1.2);
  }
});
