// The chunk-size relay against a real nginx-rtmp declaring RTMP's default 128 bytes, with Debian's ffmpeg publishing
// through it with the task's own arguments: ffmpeg is made to send 4096-byte chunks, the destination gets them, and a
// player reads the stream back. A destination that refuses, or that may not be dialled, ends ffmpeg's connection and
// says why; nothing is left open.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import { dtsProfile, makeTestVideo, readPackets, until } from '../test/integration';
import { needsRelay, RELAYED_CHUNK_SIZE, startChunkRelay, type ChunkRelay } from './chunk-relay';
import { destinationTcUrl, ffmpegArgs } from './ffmpeg';
import { ChunkStreamReader, declaredChunkSize, S0_S1_S2_BYTES } from './rtmp-chunks';

test('a relay is for plain RTMP destinations that declare less than 4096, or nothing; never when they could not be asked', () => {
  expect(needsRelay('rtmp://a.rtmp.youtube.com/live2/k', null)).toBe(true);
  expect(needsRelay('rtmp://a.rtmp.youtube.com/live2/k', 128)).toBe(true);
  expect(needsRelay('RTMP://a.rtmp.youtube.com/live2/k', 1024)).toBe(true);
  expect(needsRelay('rtmp://a.rtmp.youtube.com/live2/k', RELAYED_CHUNK_SIZE)).toBe(false);
  expect(needsRelay('rtmp://a.rtmp.youtube.com/live2/k', 60_000)).toBe(false);
  expect(needsRelay('rtmp://a.rtmp.youtube.com/live2/k', undefined)).toBe(false);
  expect(needsRelay('rtmps://live-api-s.facebook.com:443/rtmp/k', null)).toBe(false);
});

test("ffmpeg connected to a relay sends the destination's tcUrl, as it would have made it itself", () => {
  expect(destinationTcUrl('rtmp://a.rtmp.youtube.com/live2/SECRET')).toBe('rtmp://a.rtmp.youtube.com:1935/live2');
  expect(destinationTcUrl('rtmp://10.0.0.1:1936/app/SECRET')).toBe('rtmp://10.0.0.1:1936/app');
  const args = ffmpegArgs(
    { videoPath: '/v.mp4' },
    [{ id: 'yt', url: 'rtmp://a.rtmp.youtube.com/live2/SECRET' }],
    {},
    new Map([['yt', 'rtmp://127.0.0.1:4000/live2/SECRET']]),
  );
  expect(args.slice(-9)).toEqual([
    '-rtmp_tcurl',
    'rtmp://a.rtmp.youtube.com:1935/live2',
    '-tcp_nodelay',
    '1',
    '-flvflags',
    'no_duration_filesize',
    '-f',
    'flv',
    'rtmp://127.0.0.1:4000/live2/SECRET',
  ]);
});

describe('through a real nginx-rtmp declaring 128', () => {
  let nginx: NginxRtmp;
  let video: string;
  const relays: ChunkRelay[] = [];
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcast-chunk-relay-'));
    [nginx, video] = await Promise.all([
      startNginxRtmp({ dir, rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log'), hls: false, chunkSize: 128 }),
      makeTestVideo(join(dir, 'video.mp4'), { seconds: 4 }),
    ]);
  }, 60_000);
  afterEach(() => {
    for (const relay of relays.splice(0)) relay.close();
  });
  afterAll(() => nginx.stop());

  /** ffmpeg publishing through `relay` with the task's arguments until the returned function is called. */
  function publish(destination: string, relay: ChunkRelay): { stop(): Promise<number | null>; stderr(): string; exited: Promise<number | null> } {
    const child = spawn('ffmpeg', ffmpegArgs({ videoPath: video }, [{ id: 'd', url: destination }], {}, new Map([['d', relay.url]])), {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return {
      stop: () => {
        child.kill('SIGKILL');
        return exited;
      },
      stderr: () => stderr,
      exited,
    };
  }

  /** Fails unless ffmpeg exits within `ms`. */
  async function exitsWithin(ffmpeg: { exited: Promise<number | null>; stop(): Promise<number | null> }, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const outcome = await Promise.race([ffmpeg.exited, late]);
    clearTimeout(timer);
    if (outcome === 'late') await ffmpeg.stop();
    expect(outcome).not.toBe('late');
  }

  test('ffmpeg sends the destination 4096-byte chunks, and a player gets picture and sound', async () => {
    const destination = `${nginx.rtmpUrl}/relayed`;
    const target = new URL(destination);
    // What ffmpeg sends the destination, read as the destination reads it.
    const sent = new ChunkStreamReader();
    let handshakeLeft = S0_S1_S2_BYTES;
    const declared: number[] = [];
    const messageTypes = new Map<number, number>();
    const relay = await startChunkRelay(destination, () => {
      const socket: Socket = connect(Number(target.port), target.hostname);
      const write = socket.write.bind(socket) as (chunk: Buffer, ...rest: unknown[]) => boolean;
      socket.write = ((chunk: Buffer, ...rest: unknown[]) => {
        const skip = Math.min(handshakeLeft, chunk.length);
        handshakeLeft -= skip;
        for (const message of sent.push(chunk.subarray(skip))) {
          const size = declaredChunkSize(message);
          if (size !== undefined) declared.push(size);
          messageTypes.set(message.type, (messageTypes.get(message.type) ?? 0) + 1);
        }
        return write(chunk, ...rest);
      }) as typeof socket.write;
      return socket;
    });
    relays.push(relay);
    const ffmpeg = publish(destination, relay);
    try {
      // 5 s of stream time: a player that joins mid-stream gets the picture from the next key frame (2 s apart).
      const packets = await readPackets(destination, 5);
      expect(dtsProfile(packets, 'video').count).toBeGreaterThan(60);
      expect(dtsProfile(packets, 'audio').count).toBeGreaterThan(100);
      // ffmpeg declared 4096 to the destination, and its stream parses with that size: its video messages (type 9),
      // each far larger than 128 bytes, arrive whole.
      expect(declared).toEqual([RELAYED_CHUNK_SIZE]);
      expect(messageTypes.get(9)).toBeGreaterThan(45);
      expect(relay.lastError).toBeUndefined();
    } finally {
      await ffmpeg.stop();
    }
    await until(() => relay.openConnections === 0, 5_000, 'the relay to close both connections');
  }, 60_000);

  test('a destination that refuses: ffmpeg fails, the relay says why, and nothing is left open', async () => {
    const closed = `rtmp://127.0.0.1:${await freePort()}/live/refused`;
    const relay = await startChunkRelay(closed, () => connect(Number(new URL(closed).port), '127.0.0.1'));
    relays.push(relay);
    const ffmpeg = publish(closed, relay);
    await exitsWithin(ffmpeg, 20_000);
    expect(relay.lastError).toMatch(/ECONNREFUSED/);
    expect(relay.openConnections).toBe(0);
  }, 30_000);

  test('a destination the task may not dial: the relay never connects, and says so', async () => {
    const relay = await startChunkRelay(`${nginx.rtmpUrl}/private`, () => undefined);
    relays.push(relay);
    const ffmpeg = publish(`${nginx.rtmpUrl}/private`, relay);
    await exitsWithin(ffmpeg, 20_000);
    expect(relay.lastError).toBe('the destination resolves to an address that is not public');
    expect(relay.openConnections).toBe(0);
  }, 30_000);
});
