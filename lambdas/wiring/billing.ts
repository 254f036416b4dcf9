// Composition: the billing use cases' context from Deps.
import type { Deps } from './deps';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoUsageStore } from '../adapters/dynamo/usage-store';
import type { BillingContext } from '../core/billing/billing';

export async function billingContext(deps: Deps): Promise<BillingContext> {
  const provider = await deps.paymentProvider();
  return {
    accounts: new DynamoAccountsStore(deps.db, deps.config.tables.app),
    billing: new DynamoBillingStore(deps.db, deps.config.tables.app),
    usage: new DynamoUsageStore(deps.db, deps.config.tables.app),
    ...(provider ? { provider } : {}),
    mailer: deps.mailer,
    realtime: deps.realtime,
    now: deps.now,
    publicUrl: deps.config.publicUrl,
  };
}

/** The stores the entitlement reads (no payment provider needed). */
export function billingContextStores(deps: Deps): Pick<BillingContext, 'accounts' | 'billing' | 'now'> {
  return {
    accounts: new DynamoAccountsStore(deps.db, deps.config.tables.app),
    billing: new DynamoBillingStore(deps.db, deps.config.tables.app),
    now: deps.now,
  };
}
