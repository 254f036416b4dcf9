// How often each sensitive action may be attempted, per e-mail and per client IP. Exceeding a limit on the caller's
// own IP or device answers 429 'too many requests' with Retry-After; the limits that anyone could spend for an
// address (e-mails sent to it) are met silently, so no stranger can make its owner see a refusal. Values and
// reasons: docs/accounts.md.
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import type { RateLimiter } from './ports';

export interface Limit {
  limit: number;
  windowSeconds: number;
}

export const rateLimits = {
  loginPerIp: { limit: 50, windowSeconds: 15 * 60 },
  // Sign-ins from a browser the account has not signed in on: per address and IP, and per address from anywhere
  // (guessing stays slow however many IPs are used). They never block a trusted device (devices.ts).
  loginPerEmailAndIp: { limit: 10, windowSeconds: 15 * 60 },
  loginPerEmail: { limit: 30, windowSeconds: 15 * 60 },
  // A browser that signed in to this account before: its own budget, which only it can spend.
  loginPerDevice: { limit: 10, windowSeconds: 15 * 60 },
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

/** Counts one attempt; false when over the limit (for limits met silently). */
export async function withinLimit(limiter: RateLimiter, name: RateLimitName, subject: string, now: Date): Promise<boolean> {
  const { limit, windowSeconds } = rateLimits[name];
  return (await limiter.hit(`${name}#${subjectKey(subject)}`, limit, windowSeconds, now)).allowed;
}

export async function enforce(limiter: RateLimiter, checks: [RateLimitName, string][], now: Date): Promise<void> {
  for (const [name, subject] of checks) {
    const { limit, windowSeconds } = rateLimits[name];
    const verdict = await limiter.hit(`${name}#${subjectKey(subject)}`, limit, windowSeconds, now);
    if (!verdict.allowed) throw new AppError('too many requests', undefined, { 'retry-after': String(verdict.retryAfterSeconds) });
  }
}
