// Real ffmpeg looping real files into a real nginx-rtmp, checked with ffprobe from the player's side.
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { rtmpHandshakeProbe } from '../src/runtime';
import { totalLoops } from '../src/state-machine';
import {
  dtsProfile,
  keyframeIntervals,
  makeTestAudio,
  makeTestVideo,
  readPackets,
  removeDir,
  RtmpDestination,
  startStream,
  stopEverything,
  tempDir,
} from './integration';

let dir: string;
let destination: RtmpDestination;
let video: string;
let shortAudio: string;

beforeAll(async () => {
  dir = tempDir('stream-it');
  [destination, video, shortAudio] = await Promise.all([
    RtmpDestination.start(join(dir, 'nginx')),
    makeTestVideo(join(dir, 'video.mp4'), { seconds: 6 }),
    makeTestAudio(join(dir, 'audio-4.5s.m4a'), 4.5),
  ]);
}, 60_000);

afterEach(stopEverything, 30_000);

afterAll(async () => {
  await destination?.stop();
  removeDir(dir);
});

/** 14 s of stream time always holds at least two seams of a 6 s loop, whatever the phase. */
const READ_SECONDS = 14;

function expectSeamlessLoop(packets: Awaited<ReturnType<typeof readPackets>>) {
  const videoDts = dtsProfile(packets, 'video');
  const audioDts = dtsProfile(packets, 'audio');
  expect(videoDts.span).toBeGreaterThan(READ_SECONDS - 1.5);
  expect(videoDts.count).toBeGreaterThan(30 * (READ_SECONDS - 2));
  expect(videoDts.increasing).toBe(true);
  // A freeze at a seam would show as a gap; one frame is 33 ms, the measured seam up to ~49 ms.
  expect(videoDts.maxGap).toBeLessThan(0.1);
  expect(audioDts.count).toBeGreaterThan(40 * (READ_SECONDS - 2)); // AAC at 44.1 kHz: 43 packets per second
  expect(audioDts.increasing).toBe(true);
  expect(audioDts.maxGap).toBeLessThan(0.1);
  const intervals = keyframeIntervals(packets);
  expect(intervals.length).toBeGreaterThanOrEqual(5);
  for (const interval of intervals) expect(Math.abs(interval - 2)).toBeLessThan(0.1);
}

test('a looping stream is live at the destination: keyframes every 2 s, DTS increasing across two loop seams, audio present', async () => {
  const stream = startStream({ video, destinations: [{ id: 'local', url: destination.url('plain') }], dir: join(dir, 'work-plain') });
  await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started');
  const loopsBefore = totalLoops(stream.supervisor.state);
  const packets = await readPackets(destination.url('plain'), READ_SECONDS);
  expectSeamlessLoop(packets);
  expect(totalLoops(stream.supervisor.state) - loopsBefore).toBeGreaterThanOrEqual(2);
  expect(stream.supervisor.state).toMatchObject({ actual: 'started', restarts: 0 });
}, 60_000);

test('a separate audio track of a different length (4.5 s against 6 s of video) loops on its own, seamlessly', async () => {
  const stream = startStream({ video, audio: shortAudio, destinations: [{ id: 'local', url: destination.url('split') }], dir: join(dir, 'work-split') });
  await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started');
  const packets = await readPackets(destination.url('split'), READ_SECONDS);
  expectSeamlessLoop(packets);
  expect(stream.supervisor.state.restarts).toBe(0);
}, 60_000);

test('several destinations through the tee: one that refuses the publish is dropped (onfail=ignore), the other keeps receiving', async () => {
  // nginx-rtmp refuses a second publisher on a stream key that is already live.
  const occupant = startStream({ video, destinations: [{ id: 'occupant', url: destination.url('tee-busy') }], dir: join(dir, 'work-occupant') });
  await occupant.sink.waitFor((h) => h.actual === 'started', 20_000, 'the occupant started');
  const stream = startStream({
    video,
    destinations: [
      { id: 'busy', url: destination.url('tee-busy') },
      { id: 'live', url: destination.url('tee-live') },
    ],
    dir: join(dir, 'work-tee'),
  });
  const heartbeat = await stream.sink.waitFor(
    (h) => h.actual === 'started' && h.destinations.some((d) => d.state === 'failed'),
    20_000,
    'one destination failed',
  );
  expect(heartbeat.destinations).toEqual([
    { id: 'busy', state: 'failed' },
    { id: 'live', state: 'ok' },
  ]);
  expect(heartbeat.lastError).toMatch(/^destination busy failed: /);
  const packets = await readPackets(destination.url('tee-live'), 4);
  expect(dtsProfile(packets, 'video').count).toBeGreaterThan(60);
  expect(dtsProfile(packets, 'audio').count).toBeGreaterThan(80);
  expect(stream.supervisor.state).toMatchObject({ actual: 'started', restarts: 0 });
}, 60_000);

/** A server that accepts TCP connections and never says a word, like a frozen ingest server's kernel. */
async function silentServer(): Promise<{ url: (key: string) => string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (key) => `rtmp://127.0.0.1:${port}/live/${key}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

test('the RTMP handshake probe: a live server answers; a silent one and a closed port do not', async () => {
  const silent = await silentServer();
  try {
    const probe = rtmpHandshakeProbe(500);
    expect((await probe.probe(destination.url('probe'))).answers).toBe(true);
    expect((await probe.probe(silent.url('probe'))).answers).toBe(false);
    expect((await probe.probe('rtmp://127.0.0.1:9/live/probe')).answers).toBe(false);
  } finally {
    await silent.close();
  }
});

test('a destination that accepts TCP but never answers does not hold up the others in the tee', async () => {
  const silent = await silentServer();
  try {
    const stream = startStream({
      video,
      destinations: [
        { id: 'silent', url: silent.url('tee-silent') },
        { id: 'live', url: destination.url('tee-silent') },
      ],
      dir: join(dir, 'work-tee-silent'),
    });
    const heartbeat = await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started');
    expect(heartbeat.destinations).toEqual([
      { id: 'silent', state: 'failed' },
      { id: 'live', state: 'ok' },
    ]);
    expect(heartbeat.lastError).toBe('destination silent did not answer the RTMP handshake');
    // 5 s of stream time at 30 fps: 150 video packets when the reader keeps up. nginx drops frames for a reader that
    // falls behind (its sync), which a loaded runner's ffprobe does: 39 once in a 3 s window, so the margin is wide.
    const packets = await readPackets(destination.url('tee-silent'), 5);
    expect(dtsProfile(packets, 'video').count).toBeGreaterThan(45);
  } finally {
    await stopEverything();
    await silent.close();
  }
}, 60_000);
