// The realtime token (GET /api/ws): a short-lived, single-purpose signed token that lets a browser open its
// WebSocket. It is never the session token: a WebSocket URL (query string) ends up in logs, so what travels
// there must expire within minutes and open nothing else. It names the session it was issued to (`sid`, the
// session's key: a hash, not the token), and the $connect authorizer opens a socket only while that session lives
// and the account is active: a ticket does not outlive sign-out, a password reset or a suspension.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const REALTIME_TOKEN_TTL_SECONDS = 300;
const PURPOSE = 'realtime';

interface Claims {
  sub: string;
  sid: string;
  exp: number;
  pur: typeof PURPOSE;
}

export interface RealtimeTicket {
  userId: string;
  sessionId: string;
}

const sign = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('base64url');

export function issueRealtimeToken(ticket: RealtimeTicket, secret: string, now: Date): string {
  const claims: Claims = { sub: ticket.userId, sid: ticket.sessionId, exp: Math.floor(now.getTime() / 1000) + REALTIME_TOKEN_TTL_SECONDS, pur: PURPOSE };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(payload, secret)}`;
}

/** The user and session the token was issued to, or undefined when it is forged, tampered with or expired. */
export function verifyRealtimeToken(token: string, secret: string, now: Date): RealtimeTicket | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length) return undefined;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
    if (claims.pur !== PURPOSE || typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.exp !== 'number') return undefined;
    return claims.exp > Math.floor(now.getTime() / 1000) ? { userId: claims.sub, sessionId: claims.sid } : undefined;
  } catch {
    return undefined;
  }
}
