// Exponential backoff with jitter: attempt 0 waits about firstMs, every further attempt twice as long, never
// more than maxMs. The jitter (a random factor around 1) keeps many streams that failed together (one ingest
// server restarting) from reconnecting in lockstep.

export interface BackoffPolicy {
  firstMs: number;
  maxMs: number;
  /** 0.2 spreads each delay over 80 %..120 % of its nominal value. */
  jitter: number;
}

export const restartBackoff: BackoffPolicy = { firstMs: 1_000, maxMs: 30_000, jitter: 0.2 };

/** `random` is a number in [0, 1), e.g. Math.random(). */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: number): number {
  const nominal = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.max(0, attempt));
  return Math.round(nominal * (1 - policy.jitter + 2 * policy.jitter * random));
}
