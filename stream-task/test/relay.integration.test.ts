// A destination that declares RTMP's default chunk size (128 bytes, what a server that declares none leaves) gets
// the stream through the task's chunk-size relay, with the real supervisor, ffmpeg and nginx-rtmp: the task asks
// the destination at the start and publishes through the relay from the first ffmpeg on; a player gets picture and
// sound. The faults a direct destination survives are survived through the relay too: the server killed and back,
// the server frozen (its back-pressure reaches ffmpeg through the relay, so the stall is detected).
import { join } from 'node:path';
import { dtsProfile, makeTestVideo, processAlive, readPackets, removeDir, RtmpDestination, startStream, stopEverything, tempDir, until } from './integration';

let dir: string;
let destination: RtmpDestination;
let video: string;

beforeAll(async () => {
  dir = tempDir('relay-it');
  // 8 Mbit/s: a frozen server's socket buffers fill in a few seconds, so ffmpeg really blocks.
  [destination, video] = await Promise.all([
    RtmpDestination.start(join(dir, 'nginx'), { chunkSize: 128 }),
    makeTestVideo(join(dir, 'video.mp4'), { seconds: 6, megabits: 8 }),
  ]);
}, 60_000);

afterEach(async () => {
  destination.server.process.child.kill('SIGCONT');
  await stopEverything();
}, 30_000);

afterAll(async () => {
  await destination?.stop();
  removeDir(dir);
});

const log = (message: string) => process.stderr.write(`[relay] ${message}\n`);

async function expectMediaArrives(key: string) {
  // A player that joins mid-stream gets the picture from the next key frame (2 s apart).
  const packets = await readPackets(destination.url(key), 5);
  expect(dtsProfile(packets, 'video').count).toBeGreaterThan(60);
  expect(dtsProfile(packets, 'audio').count).toBeGreaterThan(100);
}

test('a destination that declares 128 is published through the relay from the first ffmpeg, and a player gets it', async () => {
  const stream = startStream({ video, destinations: [{ id: 'small', url: destination.url('relayed') }], dir: join(dir, 'work-relayed') });
  await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started');
  expect(stream.logs.join('\n')).toContain(
    'destination small declares RTMP chunk size 128: published through a relay that has ffmpeg send it 4096-byte chunks',
  );
  expect(stream.logs.find((line) => line.includes('ffmpeg run 1 spawned'))).toBeDefined();
  await expectMediaArrives('relayed');
  expect(await destination.publishers('relayed')).toBe(1);
  expect(stream.sink.latest()).toMatchObject({ actual: 'started', restarts: 0 });
}, 60_000);

test('through the relay, the server killed and back: publishing resumes, and the failure says how the destination ended the connection', async () => {
  const stream = startStream({ video, destinations: [{ id: 'small', url: destination.url('relayed-kill') }], dir: join(dir, 'work-kill') });
  await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started');
  destination.server.process.child.kill('SIGKILL');
  await stream.sink.waitFor((h) => h.actual === 'restarting', 10_000, 'actual restarting');
  await new Promise((r) => setTimeout(r, 4_000));
  await destination.restart();
  const backAt = Date.now();
  const heartbeat = await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started again');
  log(`publishing again ${((Date.now() - backAt) / 1000).toFixed(1)} s after the server came back`);
  expect(heartbeat.restarts).toBeGreaterThanOrEqual(1);
  const errors = new Set(stream.sink.heartbeats.flatMap((h) => (h.lastError ? [h.lastError] : [])));
  // ffmpeg exits when the server dies, with the relay's reason (ffmpeg only saw its loopback connection end): the
  // killed server's kernel closes or resets the connection, as it still had unread bytes or not. While the server
  // is down no ffmpeg is started, the destination is only probed.
  expect([...errors]).toEqual([
    expect.stringMatching(/^ffmpeg exited with code 1: (the destination closed the connection|read ECONNRESET)$/),
    'no destination answered the RTMP handshake',
  ]);
  await expectMediaArrives('relayed-kill');
}, 60_000);

test('through the relay, the server frozen (SIGSTOP): the stall is detected and the stream recovers after SIGCONT', async () => {
  const stream = startStream({ video, destinations: [{ id: 'small', url: destination.url('relayed-freeze') }], dir: join(dir, 'work-freeze') });
  await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started');
  const [blocked] = stream.supervisor.ffmpegPids;
  destination.server.process.child.kill('SIGSTOP');
  const frozenAt = Date.now();
  const stalled = await stream.sink.waitFor((h) => h.actual === 'restarting', 60_000, 'actual restarting');
  log(`stall detected ${((Date.now() - frozenAt) / 1000).toFixed(1)} s after the freeze: ${stalled.lastError}`);
  expect(stalled.lastError).toMatch(/^(stalled: no progress|stalled: output time did not advance|too slow: speed)/);
  await until(() => !processAlive(blocked!), 5_000, 'the stalled ffmpeg to be gone');
  destination.server.process.child.kill('SIGCONT');
  const heartbeat = await stream.sink.waitFor((h) => h.actual === 'started', 30_000, 'actual started again');
  expect(heartbeat.restarts).toBeGreaterThanOrEqual(1);
  await expectMediaArrives('relayed-freeze');
}, 120_000);
