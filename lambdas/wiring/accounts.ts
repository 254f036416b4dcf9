// Composition: the account use cases' context from Deps.
import type { Deps } from '../adapters/deps';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { DynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import type { AccountsContext } from '../core/accounts/accounts';

/** Users and their sessions (also what the API's and the realtime API's authorizers read). */
export const accountsStore = (deps: Deps) => new DynamoAccountsStore(deps.db, deps.config.tables.app);

export function accountsContext(deps: Deps): AccountsContext {
  return {
    store: accountsStore(deps),
    rateLimiter: new DynamoRateLimiter(deps.db, deps.config.tables.app),
    mailer: deps.mailer,
    connections: deps.connections,
    signingKey: deps.signingKey,
    now: deps.now,
    publicUrl: deps.config.publicUrl,
  };
}
