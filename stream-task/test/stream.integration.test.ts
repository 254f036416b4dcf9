// Real ffmpeg looping real files into a real nginx-rtmp, checked with ffprobe from the player's side.
import { join } from 'node:path';
import { totalLoops } from '../src/state-machine';
import { dtsProfile, keyframeIntervals, makeTestAudio, makeTestVideo, readPackets, removeDir, RtmpDestination, startStream, stopEverything, tempDir } from './integration';

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

test('several destinations through the tee: a dead one is reported failed and the live one keeps receiving', async () => {
  const stream = startStream({
    video,
    destinations: [
      { id: 'dead', url: 'rtmp://127.0.0.1:9/live/nobody-listens' },
      { id: 'live', url: destination.url('tee') },
    ],
    dir: join(dir, 'work-tee'),
  });
  const heartbeat = await stream.sink.waitFor((h) => h.actual === 'started' && h.destinations.some((d) => d.state === 'failed'), 20_000, 'one destination failed');
  expect(heartbeat.destinations).toEqual([
    { id: 'dead', state: 'failed' },
    { id: 'live', state: 'ok' },
  ]);
  expect(heartbeat.lastError).toBe('destination dead failed: Connection refused');
  const packets = await readPackets(destination.url('tee'), 4);
  expect(dtsProfile(packets, 'video').count).toBeGreaterThan(60);
  expect(dtsProfile(packets, 'audio').count).toBeGreaterThan(80);
  expect(stream.supervisor.state).toMatchObject({ actual: 'started', restarts: 0 });
}, 60_000);
