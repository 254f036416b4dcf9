// The task's contact with the network and with ffmpeg (security audit L3, L4): a destination is dialled only
// when its address is public at the moment of connecting (outside the local stack), and an argument spawn cannot
// pass ends the run like a process that did not start, without the stream key in any message.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import { createTestCa } from '../../local/test-ca';
import { chunkMessage, DEFAULT_CHUNK_SIZE, MESSAGE_TYPE, S0_S1_BYTES, S0_S1_S2_BYTES } from './rtmp-chunks';
import { childProcessRunner, destinationCaFile, publicAddressesOnly, rtmpHandshakeProbe } from './runtime';

/** A server that answers the RTMP handshake's first step (S0 + S1), like nginx-rtmp. */
async function fakeRtmpServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.once('data', () => socket.write(Buffer.alloc(S0_S1_BYTES, 3)));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('the handshake probe', () => {
  let rtmp: { server: Server; port: number };
  beforeAll(async () => {
    rtmp = await fakeRtmpServer();
  });
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
    rtmp.server.on('connection', () => {
      connections++;
    });
    expect((await rtmpHandshakeProbe(2000, { publicOnly: true }).probe(url(rtmp.port))).answers).toBe(false);
    expect(connections).toBe(0);
    rtmp.server.removeAllListeners('connection');
    rtmp.server.on('connection', (socket) => {
      socket.once('data', () => socket.write(Buffer.alloc(S0_S1_BYTES, 3)));
      socket.on('error', () => undefined);
    });
  });

  test('only a deployed stage requires public addresses', () => {
    expect([
      publicAddressesOnly({ STAGE: 'prod' }),
      publicAddressesOnly({ STAGE: 'dev' }),
      publicAddressesOnly({ STAGE: 'local' }),
      publicAddressesOnly({}),
    ]).toEqual([true, true, false, false]);
  });
});

describe('the handshake probe over RTMPS', () => {
  // An RTMPS server as a platform runs one: TLS with a certificate from a CA, then the RTMP handshake inside.
  let server: Server;
  let port: number;
  let caFile: string;
  let otherCaFile: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcast-probe-tls-'));
    const ca = await createTestCa(join(dir, 'ca'), 'Probe test CA');
    const other = await createTestCa(join(dir, 'other'), 'Another CA');
    const certificate = await ca.issue('server', { ip: ['127.0.0.1'] });
    caFile = ca.certFile;
    otherCaFile = other.certFile;
    server = createTlsServer({ cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile) }, (socket) => {
      socket.once('data', () => socket.write(Buffer.alloc(S0_S1_BYTES, 3)));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  test('a server whose certificate chains to the trusted CA and names the host answers', async () => {
    expect(await rtmpHandshakeProbe(2000, { caFile }).probe(`rtmps://127.0.0.1:${port}/live/key`)).toEqual({ answers: true });
  });

  test('a certificate from another CA is refused, and the probe says why', async () => {
    const result = await rtmpHandshakeProbe(2000, { caFile: otherCaFile }).probe(`rtmps://127.0.0.1:${port}/live/key`);
    expect(result).toEqual({ answers: false, certificateRefused: expect.stringMatching(/^the certificate could not be verified \(\w+/) });
  });

  test('a certificate for another name is refused', async () => {
    const result = await rtmpHandshakeProbe(2000, { caFile }).probe(`rtmps://localhost:${port}/live/key`);
    expect(result).toEqual({ answers: false, certificateRefused: expect.stringContaining('not for this server name') });
  });

  test("without a CA file only the system's trust store counts: a test CA is not in it", async () => {
    expect((await rtmpHandshakeProbe(2000).probe(`rtmps://127.0.0.1:${port}/live/key`)).certificateRefused).toMatch(/could not be verified/);
  });

  test('the CA file comes from the environment the local stack gives tasks, and only from there', () => {
    expect([
      destinationCaFile({ LOOPCAST_DESTINATION_CA_FILE: '/d/ca.crt' }),
      destinationCaFile({ LOOPCAST_DESTINATION_CA_FILE: '' }),
      destinationCaFile({}),
    ]).toEqual(['/d/ca.crt', undefined, undefined]);
  });
});

describe('the chunk size a destination declares, asked of a real nginx-rtmp', () => {
  // ffmpeg sends in chunks of the size the server declares, RTMP's 128 bytes when it declares none: 7x the CPU,
  // and over RTMPS 1.35x the bytes (bench:wire). nginx-rtmp declares its chunk_size; 128 is what none gives.
  const servers: NginxRtmp[] = [];
  const nginxDeclaring = async (chunkSize: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcast-chunk-size-'));
    const nginx = await startNginxRtmp({ dir, rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log'), hls: false, chunkSize });
    servers.push(nginx);
    return nginx;
  };
  afterAll(() => Promise.all(servers.map((server) => server.stop())));

  test.each([4096, 60_000])('a server that declares %i says so, over RTMP and over RTMPS', async (chunkSize) => {
    const nginx = await nginxDeclaring(chunkSize);
    const probe = rtmpHandshakeProbe(3000, { caFile: nginx.caFile });
    expect(await probe.declaredChunkSize!(`${nginx.rtmpUrl}/key`)).toBe(chunkSize);
    expect(await probe.declaredChunkSize!(`${nginx.rtmpsUrl}/key`)).toBe(chunkSize);
  });

  test('a server that declares 128, the default, says 128; one that declares nothing before its result: null', async () => {
    const nginx = await nginxDeclaring(128);
    expect(await rtmpHandshakeProbe(3000).declaredChunkSize!(`${nginx.rtmpUrl}/key`)).toBe(128);
    // Handshake, then straight to the connect command's _result (chunked at 128: it is longer than a chunk).
    const silent = createServer((socket) => {
      let received = 0;
      socket.on('data', (data) => {
        received += data.length;
        if (received === data.length) socket.write(Buffer.alloc(S0_S1_S2_BYTES, 3));
        else if (received > S0_S1_S2_BYTES) {
          const result = { chunkStream: 3, timestamp: 0, type: MESSAGE_TYPE.amf0Command, messageStream: 0, payload: Buffer.alloc(200, 5) };
          socket.write(chunkMessage(result, DEFAULT_CHUNK_SIZE));
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    expect(await rtmpHandshakeProbe(3000).declaredChunkSize!(`rtmp://127.0.0.1:${(silent.address() as { port: number }).port}/live/key`)).toBeNull();
    silent.close();
  });

  test('a server that says nothing after the handshake cannot tell, in the time given', async () => {
    const { server, port } = await fakeRtmpServer(); // answers S0 + S1 only
    const started = performance.now();
    expect(await rtmpHandshakeProbe(500).declaredChunkSize!(`rtmp://127.0.0.1:${port}/live/key`)).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    server.close();
  });

  test('a server that is not there, or whose certificate does not verify, cannot tell', async () => {
    const nginx = await nginxDeclaring(4096);
    expect(await rtmpHandshakeProbe(3000).declaredChunkSize!(`rtmp://127.0.0.1:${await freePort()}/live/key`)).toBeUndefined();
    expect(await rtmpHandshakeProbe(3000).declaredChunkSize!(`${nginx.rtmpsUrl}/key`)).toBeUndefined(); // the test CA is not trusted
  });

  test('outside the local stack a private address is not dialled', async () => {
    const nginx = await nginxDeclaring(4096);
    expect(await rtmpHandshakeProbe(3000, { publicOnly: true }).declaredChunkSize!(`${nginx.rtmpUrl}/key`)).toBeUndefined();
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
