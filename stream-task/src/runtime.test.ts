// The task's contact with the network and with ffmpeg (security audit L3, L4): a destination is dialled only
// when its address is public at the moment of connecting (outside the local stack), and an argument spawn cannot
// pass ends the run like a process that did not start, without the stream key in any message.
import { createServer, type Server } from 'node:net';
import { childProcessRunner, publicAddressesOnly, rtmpHandshakeProbe } from './runtime';

/** A server that answers the RTMP handshake's first step (S0 + S1), like nginx-rtmp. */
async function fakeRtmpServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.once('data', () => socket.write(Buffer.alloc(1 + 1536, 3)));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('the handshake probe', () => {
  let rtmp: { server: Server; port: number };
  beforeAll(async () => { rtmp = await fakeRtmpServer(); });
  afterAll(() => rtmp.server.close());

  test('in the local stack a loopback destination answers', async () => {
    expect((await rtmpHandshakeProbe(2000).probe(`rtmp://127.0.0.1:${rtmp.port}/live/key`)).answers).toBe(true);
  });

  test.each([
    ['a loopback address', (port: number) => `rtmp://127.0.0.1:${port}/live/key`],
    ['a name that resolves to loopback (checked when connecting)', (port: number) => `rtmp://localhost:${port}/live/key`],
    ['a numeric spelling of loopback', (port: number) => `rtmp://2130706433:${port}/live/key`],
    ['IPv4-mapped loopback', (port: number) => `rtmp://[::ffff:127.0.0.1]:${port}/live/key`],
    ['the metadata endpoint', () => 'rtmp://169.254.169.254/live/key'],
  ])('outside the local stack %s is never dialled', async (_, url) => {
    let connections = 0;
    rtmp.server.on('connection', () => { connections++; });
    expect((await rtmpHandshakeProbe(2000, { publicOnly: true }).probe(url(rtmp.port))).answers).toBe(false);
    expect(connections).toBe(0);
    rtmp.server.removeAllListeners('connection');
    rtmp.server.on('connection', (socket) => {
      socket.once('data', () => socket.write(Buffer.alloc(1 + 1536, 3)));
      socket.on('error', () => undefined);
    });
  });

  test('only a deployed stage requires public addresses', () => {
    expect([publicAddressesOnly({ STAGE: 'prod' }), publicAddressesOnly({ STAGE: 'dev' }), publicAddressesOnly({ STAGE: 'local' }), publicAddressesOnly({})]).toEqual([true, true, false, false]);
  });
});

test('an argument spawn refuses (a NUL in the key) ends like a process that could not start, without the key', async () => {
  const lines: string[] = [];
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    const handle = childProcessRunner.spawn('ffmpeg', ['-f', 'flv', 'rtmp://127.0.0.1:1935/live/secret\u0000key'], {
      onStdoutLine: (line) => lines.push(line),
      onStderrLine: (line) => lines.push(line),
      onExit: resolve,
    });
    expect(handle.pid).toBeUndefined();
  });
  expect(exit).toMatchObject({ code: null, signal: null, error: expect.any(Error) });
  expect(exit.error!.message).toBe('ffmpeg could not be started (ERR_INVALID_ARG_VALUE)');
  expect(`${exit.error!.message}${exit.error!.stack}${lines.join('')}`).not.toContain('secret');
});
