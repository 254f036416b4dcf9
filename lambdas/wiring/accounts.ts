// Composition: the account use cases' context from Deps, made once per Deps (per-deps.ts).
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { DynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import type { AccountsContext } from '../core/accounts/accounts';
import { clockOf, mailerOf, perDeps } from './per-deps';

/** Users and their sessions (also what the API's and the realtime API's authorizers read). */
export const accountsStore = perDeps((deps) => new DynamoAccountsStore(deps.db, deps.config.tables.app));

export const accountsContext = perDeps((deps): AccountsContext => ({
  store: accountsStore(deps),
  rateLimiter: new DynamoRateLimiter(deps.db, deps.config.tables.app),
  mailer: mailerOf(deps),
  connections: deps.connections,
  signingKey: deps.signingKey,
  now: clockOf(deps),
  passwordCost: deps.passwordCost,
  get publicUrl() {
    return deps.config.publicUrl;
  },
}));
