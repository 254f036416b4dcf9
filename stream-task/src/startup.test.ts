import { StartupTimeline } from './startup';

test('each step counts from the process start, the first time it is reached only', () => {
  let now = 1_000_400;
  const timeline = new StartupTimeline(1_000_000, () => now);
  expect(timeline.mark('leased')).toBe(true);
  now += 500;
  timeline.mark('inputsReady');
  now += 100;
  timeline.mark('ffmpegSpawned');
  now += 2_000;
  expect(timeline.mark('ffmpegSpawned')).toBe(false);
  expect(timeline.summary()).toEqual({ processStartedAt: new Date(1_000_000).toISOString(), leased: 400, inputsReady: 900, ffmpegSpawned: 1_000 });
});
