// How often each sensitive action may be attempted, per e-mail and per client IP. Exceeding one answers 429
// 'too many requests' with Retry-After. Values: docs/accounts.md.
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import type { RateLimiter } from './ports';

export interface Limit {
  limit: number;
  windowSeconds: number;
}

export const rateLimits = {
  loginPerEmail: { limit: 10, windowSeconds: 15 * 60 },
  loginPerIp: { limit: 50, windowSeconds: 15 * 60 },
  // Generous: a school or office behind one NAT signs up together; confirmation e-mails stop real abuse.
  registerPerIp: { limit: 100, windowSeconds: 3600 },
  resetRequestPerEmail: { limit: 3, windowSeconds: 3600 },
  resetRequestPerIp: { limit: 20, windowSeconds: 3600 },
  resetPerIp: { limit: 20, windowSeconds: 3600 },
  confirmationPerEmail: { limit: 3, windowSeconds: 3600 },
  // The account page (settings.ts, closure.ts, export.ts): a stolen session cannot guess the current password,
  // send links to strangers' mailboxes, flood the owner with closure e-mails or hammer the export.
  passwordCheckPerUser: { limit: 10, windowSeconds: 15 * 60 },
  emailChangePerUser: { limit: 5, windowSeconds: 3600 },
  emailChangePerIp: { limit: 20, windowSeconds: 3600 },
  closurePerUser: { limit: 3, windowSeconds: 3600 },
  exportPerUser: { limit: 10, windowSeconds: 3600 },
} as const satisfies Record<string, Limit>;

export type RateLimitName = keyof typeof rateLimits;

/** Keys carry a hash, not the e-mail itself: rate-limit items need no personal data. */
const subjectKey = (subject: string) => createHash('sha256').update(subject).digest('hex').slice(0, 32);

export async function enforce(limiter: RateLimiter, checks: [RateLimitName, string][], now: Date): Promise<void> {
  for (const [name, subject] of checks) {
    const { limit, windowSeconds } = rateLimits[name];
    const verdict = await limiter.hit(`${name}#${subjectKey(subject)}`, limit, windowSeconds, now);
    if (!verdict.allowed) throw new AppError('too many requests', undefined, { 'retry-after': String(verdict.retryAfterSeconds) });
  }
}
