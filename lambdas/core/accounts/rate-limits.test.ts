import { AppError } from '../errors';
import type { RateLimiter } from './ports';
import { enforce, rateLimits } from './rate-limits';

/** A counting limiter in memory, to test the policy alone (the DynamoDB one is covered by the API tests). */
function memoryLimiter(): RateLimiter & { keys: string[] } {
  const counts = new Map<string, number>();
  return {
    keys: [],
    async hit(key, limit, windowSeconds, now) {
      this.keys.push(key);
      const window = Math.floor(now.getTime() / 1000 / windowSeconds);
      const count = (counts.get(`${key}@${window}`) ?? 0) + 1;
      counts.set(`${key}@${window}`, count);
      return { allowed: count <= limit, retryAfterSeconds: windowSeconds };
    },
  };
}

describe('rate limits', () => {
  test('the limit-th attempt passes, the next is 429 with Retry-After', async () => {
    const limiter = memoryLimiter();
    const now = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < rateLimits.loginPerEmail.limit; i++) await enforce(limiter, [['loginPerEmail', 'a@b.co']], now);
    const refused = await enforce(limiter, [['loginPerEmail', 'a@b.co']], now).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).key).toBe('too many requests');
    expect((refused as AppError).headers).toEqual({ 'retry-after': String(rateLimits.loginPerEmail.windowSeconds) });
    await expect(enforce(limiter, [['loginPerEmail', 'other@b.co']], now)).resolves.toBeUndefined();
  });

  test('keys hold a hash, not the e-mail', async () => {
    const limiter = memoryLimiter();
    await enforce(limiter, [['resetRequestPerEmail', 'secret.person@example.com']], new Date());
    expect(limiter.keys[0]).toMatch(/^resetRequestPerEmail#[0-9a-f]{32}$/);
  });
});
