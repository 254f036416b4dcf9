import { defaultHealthPolicy, mediaFlowing, newRunHealth, recordProgress, runMetrics, stallReason, type RunHealth } from './health';

const policy = defaultHealthPolicy;

/** A run sampled every 500 ms from t=0 for `ms`, at `speed`, 30 fps, 2 Mbit/s (when total_size is known). */
function run(ms: number, options: { speed?: number; withSize?: boolean } = {}): RunHealth {
  const speed = options.speed ?? 1;
  let health = newRunHealth(0);
  for (let at = 500; at <= ms; at += 500) {
    const media = (at / 1000) * speed;
    health = recordProgress(
      health,
      {
        frame: Math.round(media * 30),
        outTimeUs: Math.round(media * 1e6),
        ...(options.withSize ? { totalSizeBytes: Math.round(media * 250_000) } : {}),
        progress: 'continue',
      },
      at,
      policy,
    );
  }
  return health;
}

describe('run health', () => {
  test('media flows once the output time is past zero', () => {
    const health = newRunHealth(0);
    expect(mediaFlowing(health)).toBe(false);
    expect(mediaFlowing(recordProgress(health, { frame: 1, outTimeUs: 0, progress: 'continue' }, 500, policy))).toBe(false);
    expect(mediaFlowing(run(1_000))).toBe(true);
  });

  test("metrics come from the last 10 s, not from ffmpeg's averages since the start", () => {
    expect(runMetrics(run(60_000, { withSize: true }), 60_000, policy, 9_999)).toEqual({ fps: 30, speed: 1, bitrateKbps: 2_000 });
    // Without total_size (tee), the bitrate is the input's scaled by the speed.
    expect(runMetrics(run(60_000, { speed: 0.5 }), 60_000, policy, 6_000)).toEqual({ fps: 15, speed: 0.5, bitrateKbps: 3_000 });
    expect(runMetrics(newRunHealth(0), 0, policy, 6_000)).toEqual({ fps: 0, speed: 0, bitrateKbps: 0 });
  });

  test('only the samples the windows need are kept', () => {
    const samples = run(3_600_000).samples;
    expect(samples.length).toBeLessThanOrEqual(32);
    expect(samples[0]!.at).toBeLessThanOrEqual(3_600_000 - policy.slowWindowMs);
  });

  test('stall reasons', () => {
    expect(stallReason(newRunHealth(0), 14_999, policy)).toBeUndefined();
    expect(stallReason(newRunHealth(0), 15_000, policy)).toBe('no media within 15 s of starting ffmpeg');
    const healthy = run(20_000);
    expect(stallReason(healthy, 20_000, policy)).toBeUndefined();
    expect(stallReason(healthy, 24_999, policy)).toBeUndefined();
    expect(stallReason(healthy, 25_000, policy)).toBe('stalled: no progress from ffmpeg for 5 s');
    const frozen = recordProgress(healthy, { frame: 600, outTimeUs: 20_000_000, progress: 'continue' }, 24_000, policy);
    expect(stallReason(frozen, 25_000, policy)).toBe('stalled: output time did not advance for 5 s');
  });

  test('slowness counts only over a full window', () => {
    // The first sample arrives at 500 ms: 15 s of samples exist from 15.5 s on.
    expect(stallReason(run(15_000, { speed: 0.5 }), 15_000, policy)).toBeUndefined();
    expect(stallReason(run(15_500, { speed: 0.5 }), 15_500, policy)).toBe('too slow: speed 0.50x below 0.8x for 15 s');
    expect(stallReason(run(120_000, { speed: 0.95 }), 120_000, policy)).toBeUndefined();
  });
});
