import { createHash, randomBytes } from 'node:crypto';

/** An opaque secret for a session or an e-mail link: 256 random bits, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What is stored instead of a token: a leaked table does not give anyone a usable session or link. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Token lifetimes. Sessions are long-lived; links in e-mails short. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
export const CONFIRMATION_TTL_SECONDS = 48 * 3600;
export const PASSWORD_RESET_TTL_SECONDS = 3600;
