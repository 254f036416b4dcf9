// Real items made with ffmpeg as the stream-ready profile makes them (H.264 with B-frames, AAC ending inside the
// picture), prepared as the task prepares them (playlist-media.ts), fed as one FLV into a real ffmpeg copying it
// (as the task's ffmpeg does, without -re), and every decode timestamp of the result checked with ffprobe.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { feedFlv, frameDurationMs, type JoinReport } from './feeder';
import { LocalFileFetcher } from './inputs';
import { PlaylistRuntime } from './playlist';
import { preparePlaylist, prepareSoundtrack } from './playlist-media';
import { seededRandom } from './playlist-order';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loopcast-feeder-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A clip of `seconds` at 30 fps, its AAC sound padded past the picture (MediaConvert's way) unless told otherwise. */
async function clip(name: string, seconds: number, size = '320x180'): Promise<string> {
  const path = join(dir, name);
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=30:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=44100:duration=${seconds + 0.1}`,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-bf',
    '2',
    '-g',
    '30',
    '-c:a',
    'aac',
    '-ar',
    '44100',
    '-shortest',
    '-y',
    path,
  ]);
  return path;
}

const fetchers = [new LocalFileFetcher()];

/** Feeds the playlist through `ffmpeg -f flv -i pipe:0 -c copy` until `joins` items began; the packets of the result. */
async function feedThroughFfmpeg(runtime: PlaylistRuntime, joins: number, soundtrack?: { path: string; sampleRate: number }) {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}.flv`);
  const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-f', 'flv', '-i', 'pipe:0', '-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-f', 'flv', '-y', out], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => ffmpeg.once('close', resolve));
  const controller = new AbortController();
  const reports: JoinReport[] = [];
  await feedFlv({
    playlist: runtime,
    ...(soundtrack ? { soundtrack } : {}),
    out: ffmpeg.stdin,
    signal: controller.signal,
    // The item after the last wanted one began: everything before it was written.
    onJoin: (report) => {
      reports.push(report);
      if (reports.length > joins) controller.abort();
    },
  });
  ffmpeg.stdin.end();
  await exited;
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'packet=codec_type,dts_time', '-of', 'csv=p=0', out], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => line.split(','));
  const of = (type: string) => lines.filter(([t]) => t === type).map(([, dts]) => Number(dts));
  const video = of('video');
  // Tags after the abort may have been written too: the frames of the items wanted are those before the next began.
  const wantedEnd = video[0]! + (reports[joins]!.atMs - reports[0]!.atMs) / 1000;
  return { video, audio: of('audio'), reports: reports.slice(0, joins), framesWanted: video.filter((dts) => dts < wantedEnd - 0.001).length };
}

const regressions = (dts: number[]) => dts.filter((value, i) => i > 0 && value <= dts[i - 1]!).length;
const largestStep = (dts: number[]) => Math.max(...dts.slice(1).map((value, i) => value - dts[i]!));

test('three items of different lengths, two passes in order: decode timestamps increase across every join and pass, no gap', async () => {
  const sources = await Promise.all([clip('a.mp4', 1), clip('b.mp4', 2), clip('c.mp4', 1.5)]);
  const content = await preparePlaylist({ revision: 0, shuffle: false, items: sources.map((url, i) => ({ id: 'abc'[i]!, url })) }, fetchers, dir, {
    withAudio: true,
  });
  expect(content.items.map((item) => Math.round(item.durationUs / 1e5) / 10)).toEqual([1, 2, 1.5]);
  const { video, audio, reports, framesWanted } = await feedThroughFfmpeg(new PlaylistRuntime(content, seededRandom(1)), 6);
  expect(reports.map((r) => r.itemId)).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  // Each item starts where the frames before it end: 30, 60 and 45 frames of 33.3 ms.
  const starts = reports.map((r) => r.atMs - reports[0]!.atMs);
  for (const [i, expected] of [0, 1000, 3000, 4500, 5500, 7500].entries()) expect(Math.abs(starts[i]! - expected)).toBeLessThanOrEqual(1);
  expect(framesWanted).toBe(2 * (30 + 60 + 45));
  expect(regressions(video)).toBe(0);
  expect(regressions(audio)).toBe(0);
  expect(largestStep(video)).toBeLessThanOrEqual(0.035);
  // Audio continuous: no hole longer than a couple of AAC frames (23 ms each) at any join.
  expect(largestStep(audio)).toBeLessThan(0.07);
  expect(audio.at(-1)! - audio[0]!).toBeGreaterThan(9 - 0.1);
});

test('shuffled: each pass plays every item once, passes in different orders, timestamps still increasing', async () => {
  const sources = await Promise.all([clip('s1.mp4', 1), clip('s2.mp4', 1), clip('s3.mp4', 1), clip('s4.mp4', 1)]);
  const content = await preparePlaylist({ revision: 0, shuffle: true, items: sources.map((url, i) => ({ id: `s${i + 1}`, url })) }, fetchers, dir, {
    withAudio: true,
  });
  const passes: string[][] = [];
  const runtime = new PlaylistRuntime(content, seededRandom(9), { onPass: (ids) => passes.push([...ids]) });
  const { video, audio, reports } = await feedThroughFfmpeg(runtime, 12);
  const played = reports.map((r) => r.itemId);
  for (let pass = 0; pass < 3; pass += 1) expect(played.slice(pass * 4, pass * 4 + 4).sort()).toEqual(['s1', 's2', 's3', 's4']);
  expect(new Set(passes.slice(0, 3).map((p) => p.join())).size).toBeGreaterThan(1);
  expect(regressions(video)).toBe(0);
  expect(regressions(audio)).toBe(0);
});

test("a soundtrack loops on its own clock across the items: one continuous audio track in place of the items' sound", async () => {
  const sources = await Promise.all([clip('t1.mp4', 1), clip('t2.mp4', 2)]);
  const soundtrackSource = join(dir, 'soundtrack.m4a');
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000:duration=1.3', '-c:a', 'aac', '-y', soundtrackSource]);
  const soundtrack = await prepareSoundtrack(soundtrackSource, fetchers, dir);
  expect(soundtrack.sampleRate).toBe(48000);
  const content = await preparePlaylist({ revision: 0, shuffle: false, items: sources.map((url, i) => ({ id: `t${i + 1}`, url })) }, fetchers, dir, {
    withAudio: false,
  });
  expect(content.items[0]!.profile.audio).toBeUndefined();
  const { video, audio, framesWanted } = await feedThroughFfmpeg(new PlaylistRuntime(content, seededRandom(1)), 4, soundtrack);
  expect(framesWanted).toBe(2 * 90);
  expect(regressions(video)).toBe(0);
  expect(regressions(audio)).toBe(0);
  // The soundtrack's 1.3 s passes (with its encoder's priming frame) run through the items' joins without a hole.
  const frame = 1024 / 48000;
  expect(largestStep(audio)).toBeLessThan(2 * frame);
  expect(audio.at(-1)! - audio[0]!).toBeGreaterThan(6 - 0.1);
});

test('an item of another profile cannot be joined by stream copy: refused with both profiles named, its files removed', async () => {
  const [same, other] = await Promise.all([clip('p1.mp4', 1), clip('p2.mp4', 1, '640x360')]);
  const work = join(dir, 'mismatch');
  await expect(
    preparePlaylist(
      {
        revision: 0,
        shuffle: false,
        items: [
          { id: 'p1', url: same },
          { id: 'p2', url: other },
        ],
      },
      fetchers,
      work,
      { withAudio: true },
    ),
  ).rejects.toThrow(
    'playlist item p2 is 640x360 30/1 fps yuv420p, aac 44100 Hz 1 ch, not 320x180 30/1 fps yuv420p, aac 44100 Hz 1 ch as the playlist: stream copy needs one profile',
  );
  expect(await readdir(join(work, 'playlist'))).toEqual([]);
});

test('an edit prepares only its new items; the ones it keeps are reused', async () => {
  const [first, second] = await Promise.all([clip('e1.mp4', 1), clip('e2.mp4', 1)]);
  const work = join(dir, 'edit');
  const before = await preparePlaylist({ revision: 1, shuffle: false, items: [{ id: 'e1', url: first }] }, fetchers, work, { withAudio: true });
  const after = await preparePlaylist(
    {
      revision: 2,
      shuffle: true,
      items: [
        { id: 'e2', url: second },
        { id: 'e1', url: '/nowhere/e1.mp4' },
      ],
    },
    fetchers,
    work,
    { withAudio: true, known: before.items, profile: before.items[0]!.profile },
  );
  expect(after.items[1]).toBe(before.items[0]);
  expect(after).toMatchObject({ revision: 2, shuffle: true });
});

test("frame durations from ffprobe's rates", () => {
  expect(frameDurationMs('30/1')).toBeCloseTo(33.333, 3);
  expect(frameDurationMs('30000/1001')).toBeCloseTo(33.367, 3);
  expect(() => frameDurationMs('0/0')).toThrow('no frame rate');
});
