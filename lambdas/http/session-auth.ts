import type { Deps } from '../adapters/deps';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { hashToken } from '../core/accounts/tokens';
import type { AuthContext } from './api';

/** Resolves a Bearer session token: only its hash is stored; expired sessions count as absent even before
 * DynamoDB's TTL removes them (TTL deletion can lag by hours). */
export async function authenticateSession(token: string, deps: Deps): Promise<AuthContext | undefined> {
  if (token.length > 128) return undefined;
  const tokenHash = hashToken(token);
  const session = await new DynamoAccountsStore(deps.db, deps.config.tables.app).session(tokenHash);
  if (!session || session.expiresAt <= Math.floor(deps.now().getTime() / 1000)) return undefined;
  return { userId: session.userId, sessionId: tokenHash };
}
