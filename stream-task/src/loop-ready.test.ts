// Real files made with ffmpeg the two ways a stream-ready video can end: audio frames inside the picture (the
// stream-ready profile) and audio as long as the picture or longer (MediaConvert's padding, items made before).
// Each is looped by stream copy into FLV, as the stream task does, and every decode timestamp is checked.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { audioCutoff, endsInterval, loopReadyVideo, loopTimeline, PAST_ANY_END, timelineOf, timelineReachesEnd } from './loop-ready';
import type { MediaProbe } from '../../lambdas/contract/stream-task';
import type { InputFetcher } from './inputs';
import { ffprobeArgs, prepareMedia, probeMedia } from './media';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loopcast-loop-ready-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A 30 fps clip (2 s GOPs) whose AAC audio has `audioSamples` samples (the encoder adds its priming frame), or no
 * audio at all. */
async function clip(name: string, audioSamples: number | 'silent', seconds = 2): Promise<string> {
  const path = join(dir, name);
  const sound =
    audioSamples === 'silent'
      ? ['-map', '0:v']
      : [
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=440:sample_rate=44100:duration=${seconds + 1}`,
          '-filter_complex',
          `[1:a]atrim=end_sample=${audioSamples}[a]`,
          '-map',
          '0:v',
          '-map',
          '[a]',
          '-c:a',
          'aac',
          '-ar',
          '44100',
        ];
  const picture = ['-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-g', '60'];
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=30:duration=${seconds}`, ...sound, ...picture, '-y', path]);
  return path;
}

/** Decode timestamps of each track after `passes` passes looped by copy into FLV. */
async function loopedTimestamps(path: string, passes: number): Promise<{ video: number[]; audio: number[] }> {
  const flv = `${path}.flv`;
  await run('ffmpeg', ['-v', 'error', '-stream_loop', String(passes - 1), '-i', path, '-map', '0', '-c', 'copy', '-f', 'flv', '-y', flv]);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'packet=codec_type,dts_time', '-of', 'csv=p=0', flv]);
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => line.split(','));
  return {
    video: lines.filter(([type]) => type === 'video').map(([, dts]) => Number(dts)),
    audio: lines.filter(([type]) => type === 'audio').map(([, dts]) => Number(dts)),
  };
}

const regressions = (dts: number[]) => dts.filter((value, i) => i > 0 && value <= dts[i - 1]!).length;

test('audio as long as the picture repeats a timestamp at every seam; the remuxed file loops with none, the picture untouched', async () => {
  const padded = await clip('padded.mp4', 88_200);
  expect(regressions((await loopedTimestamps(padded, 4)).audio)).toBe(3);
  const timeline = (await probeMedia(padded, undefined, { timeline: true })).timeline!;
  expect(audioCutoff(timeline)).toBeCloseTo(2 - 0.02322 - 0.02322 - 0.001, 3);
  const ready = await loopReadyVideo(padded, timeline, dir);
  expect(ready).toBe(join(dir, 'loop-ready.mp4'));
  const looped = await loopedTimestamps(ready, 4);
  expect(regressions(looped.audio)).toBe(0);
  expect(regressions(looped.video)).toBe(0);
  expect(looped.video).toHaveLength(4 * 60);
  const videoSteps = looped.video.slice(1).map((dts, i) => dts - looped.video[i]!);
  expect(Math.max(...videoSteps)).toBeLessThanOrEqual(0.035);
});

test('a file whose audio frames end inside the picture is used as it is', async () => {
  const inside = await clip('inside.mp4', 86_016);
  expect(await loopReadyVideo(inside, (await probeMedia(inside, undefined, { timeline: true })).timeline, dir)).toBe(inside);
  expect(regressions((await loopedTimestamps(inside, 4)).audio)).toBe(0);
});

/** The timeline one ffprobe reads without knowing the file's length: its tail from past any end. */
async function timelineFromPastTheEnd(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-read_intervals',
    endsInterval(PAST_ANY_END),
    '-show_entries',
    'packet=codec_type,pts_time,duration_time',
    '-of',
    'json',
    path,
  ]);
  return timelineOf((JSON.parse(stdout) as { packets: [] }).packets, 0);
}

test("one ffprobe reads an MP4's two ends; an FLV, which cannot seek past its end, gets the same timeline from a second", async () => {
  const mp4 = await clip('eight-seconds.mp4', 8 * 44_100, 8);
  const known = (await loopTimeline(mp4, 8))!;
  expect(timelineReachesEnd(known, 8)).toBe(true);
  expect(await timelineFromPastTheEnd(mp4)).toEqual(known);
  expect((await probeMedia(mp4, undefined, { timeline: true })).timeline).toEqual(known);

  const flv = join(dir, 'eight-seconds.flv');
  await run('ffmpeg', ['-v', 'error', '-i', mp4, '-c', 'copy', '-y', flv]);
  const headOnly = (await timelineFromPastTheEnd(flv))!;
  expect(timelineReachesEnd(headOnly, 8)).toBe(false);
  const probed = await probeMedia(flv, undefined, { timeline: true });
  expect(probed.timeline).toEqual(await loopTimeline(flv, probed.durationUs / 1e6));
  expect(timelineReachesEnd(probed.timeline!, probed.durationUs / 1e6)).toBe(true);
});

test('a file without sound has no timeline to fix', async () => {
  const silent = await clip('silent.mp4', 'silent');
  const probed = await probeMedia(silent, undefined, { timeline: true });
  expect(probed.timeline).toBeUndefined();
  expect(await loopReadyVideo(silent, probed.timeline, dir)).toBe(silent);
});

test('what an earlier probe found in the same bytes stands in for the ffprobe, remux decision included; other bytes are probed', async () => {
  const padded = await clip('kept.mp4', 88_200);
  /** The file as S3 would hand it over, under the ETag given. */
  const fromS3 = (etag: string): InputFetcher[] => [{ canFetch: () => true, fetch: async () => ({ path: padded, etag }) }];
  const prepare = async (etag: string, videoProbe?: MediaProbe) => {
    const reported: [string, MediaProbe][] = [];
    const work = await mkdtemp(join(dir, 'work-'));
    const media = await prepareMedia({ video: 's3://media/kept.mp4', videoProbe }, fromS3(etag), work, undefined, {
      onProbed: (input, probe) => reported.push([input, probe]),
    });
    return { media, reported, work };
  };

  const first = await prepare('"e1"');
  expect(first.reported.map(([input, probe]) => [input, probe.etag])).toEqual([['video', '"e1"']]);
  const kept = first.reported[0]![1];
  expect(kept).toEqual({ etag: '"e1"', ...(await probeMedia(padded, undefined, { timeline: true })) });
  expect(first.media.files).toEqual({ videoPath: join(first.work, 'loop-ready.mp4') });

  // The same bytes: nothing probed or reported, and the kept probe decides (a length changed here to tell them apart).
  const again = await prepare('"e1"', { ...kept, durationUs: kept.durationUs + 1_000_000 });
  expect(again.reported).toEqual([]);
  expect(again.media.loopDurationUs).toBe(kept.durationUs + 1_000_000);
  expect(again.media.files).toEqual({ videoPath: join(again.work, 'loop-ready.mp4') });

  // Other bytes under the item (a new file): probed again.
  const replaced = await prepare('"e2"', { ...kept, durationUs: kept.durationUs + 1_000_000 });
  expect(replaced.reported.map(([, probe]) => probe)).toEqual([{ ...kept, etag: '"e2"' }]);
  expect(replaced.media.loopDurationUs).toBe(kept.durationUs);
});

test('a local file, with no ETag to name its bytes, is probed and never reported', async () => {
  const inside = await clip('local.mp4', 86_016);
  const reported: unknown[] = [];
  const media = await prepareMedia({ video: inside }, [{ canFetch: () => true, fetch: async () => ({ path: inside }) }], dir, undefined, {
    onProbed: (...report) => reported.push(report),
  });
  expect(reported).toEqual([]);
  expect(media.files).toEqual({ videoPath: inside });
});

test("an MP4's probe stops ffprobe's analysis at the first packet and answers as the full analysis does; other files keep it", async () => {
  const mp4s = [await clip('analysed-padded.mp4', 88_200), await clip('analysed-inside.mp4', 86_016, 3), await clip('analysed-silent.mp4', 'silent')];
  // 29.97 fps with B-frames and 48 kHz sound, its index in front (as the stream-ready profile writes it); sound alone.
  const ntsc = join(dir, 'analysed-ntsc.mp4');
  const lavfi = ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30000/1001:duration=3', '-f', 'lavfi', '-i', 'sine=sample_rate=48000:duration=3'];
  await run('ffmpeg', ['-v', 'error', ...lavfi, '-c:v', 'libx264', '-preset', 'medium', '-c:a', 'aac', '-movflags', '+faststart', '-y', ntsc]);
  const m4a = join(dir, 'analysed.m4a');
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=sample_rate=44100:duration=3', '-c:a', 'aac', '-y', m4a]);
  const answer = async (args: string[]) => (await run('ffprobe', args)).stdout;
  const fullAnalysis = (args: string[]) => args.filter((arg, i) => arg !== '-probesize' && args[i - 1] !== '-probesize');
  for (const path of [...mp4s, ntsc, m4a]) {
    const args = await ffprobeArgs(path, { timeline: true });
    expect(args).toContain('-probesize');
    const quick = await answer(args);
    expect(quick).toBe(await answer(fullAnalysis(args)));
    expect(JSON.parse(quick).packets.length).toBeGreaterThan(8);
  }
  // An FLV and a fragmented MP4 learn their packets' durations while ffprobe analyses: cut short, some packets would
  // have none. Both are analysed in full.
  const flv = join(dir, 'analysed.flv');
  await run('ffmpeg', ['-v', 'error', '-i', mp4s[0]!, '-c', 'copy', '-y', flv]);
  const fragmented = join(dir, 'analysed-fragmented.mp4');
  await run('ffmpeg', ['-v', 'error', '-i', ntsc, '-c', 'copy', '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-y', fragmented]);
  for (const path of [flv, fragmented]) {
    const args = await ffprobeArgs(path, { timeline: true });
    expect(args).not.toContain('-probesize');
    expect(await answer(['-probesize', '32', ...args])).not.toBe(await answer(args));
  }
});
