import { backoffDelayMs, restartBackoff } from './backoff';

describe('backoff', () => {
  test('1 s first, doubling, capped at 30 s (random 0.5 is the nominal delay)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((attempt) => backoffDelayMs(attempt, restartBackoff, 0.5))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  test('jitter spreads each delay over 80-120 % of nominal', () => {
    expect(backoffDelayMs(0, restartBackoff, 0)).toBe(800);
    expect(backoffDelayMs(0, restartBackoff, 0.999_999)).toBe(1_200);
    expect(backoffDelayMs(10, restartBackoff, 0)).toBe(24_000);
    expect(backoffDelayMs(10, restartBackoff, 0.999_999)).toBe(36_000);
  });

  test('no jitter policy gives exact delays', () => {
    expect(backoffDelayMs(2, { firstMs: 30_000, maxMs: 600_000, jitter: 0 }, 0.9)).toBe(120_000);
    expect(backoffDelayMs(-1, { firstMs: 500, maxMs: 600_000, jitter: 0 }, 0.9)).toBe(500);
  });
});
