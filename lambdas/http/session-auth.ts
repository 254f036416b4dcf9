import type { Deps } from '../adapters/deps';
import { lastUseDue } from '../core/accounts/settings';
import { hashToken } from '../core/accounts/tokens';
import { accountsStore } from '../wiring/accounts';
import type { AuthContext } from './api';

/** Resolves a Bearer session token: only its hash is stored; expired sessions count as absent even before
 * DynamoDB's TTL removes them (TTL deletion can lag by hours). The session's last use is recorded at most once
 * an hour (the account page's list of devices), so a busy page costs no extra writes. */
export async function authenticateSession(token: string, deps: Deps): Promise<AuthContext | undefined> {
  if (token.length > 128) return undefined;
  const tokenHash = hashToken(token);
  const store = accountsStore(deps);
  const session = await store.session(tokenHash);
  const now = deps.now();
  if (!session || session.expiresAt <= Math.floor(now.getTime() / 1000)) return undefined;
  if (lastUseDue(session, now)) await store.touchSession(tokenHash, now.toISOString());
  return { userId: session.userId, sessionId: tokenHash };
}
