// Starts a session in this browser (spec section 4): the token in the `auth_token` cookie, path /, 30 days (the
// server's session lifetime), SameSite=Lax, Secure on https. lib/session.ts reads and ends it.
import { AUTH_COOKIE } from '../../lib/session';

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function startSession(token: string): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${AUTH_COOKIE}=${encodeURIComponent(token)}; Max-Age=${SESSION_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
}
