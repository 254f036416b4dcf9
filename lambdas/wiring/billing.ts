// Composition: the billing use cases' context from Deps; its stores made once per Deps (per-deps.ts).
import type { Deps } from './deps';
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoUsageStore } from '../adapters/dynamo/usage-store';
import type { BillingContext } from '../core/billing/billing';
import { accountsStore } from './accounts';
import { clockOf, mailerOf, perDeps } from './per-deps';

/** The stores the entitlement reads (no payment provider needed). */
export const billingContextStores = perDeps((deps): Pick<BillingContext, 'accounts' | 'billing' | 'now'> => ({
  accounts: accountsStore(deps),
  billing: new DynamoBillingStore(deps.db, deps.config.tables.app),
  now: clockOf(deps),
}));

/** Everything but the payment provider, which Deps resolves on each call (it may not be configured). */
const billingWithoutProvider = perDeps((deps): Omit<BillingContext, 'provider'> => ({
  ...billingContextStores(deps),
  usage: new DynamoUsageStore(deps.db, deps.config.tables.app),
  mailer: mailerOf(deps),
  realtime: deps.realtime,
  get publicUrl() {
    return deps.config.publicUrl;
  },
}));

export async function billingContext(deps: Deps): Promise<BillingContext> {
  const provider = await deps.paymentProvider();
  return provider ? { ...billingWithoutProvider(deps), provider } : billingWithoutProvider(deps);
}
