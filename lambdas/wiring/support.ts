// Composition: the support use cases' context from Deps (the support tool, bin/support.ts, and its tests); the
// stores are the ones made once per Deps (per-deps.ts), the operator and the subscription control are per call.
import type { SupportContext } from '../core/support/support';
import type { Operator, SubscriptionControl } from '../core/support/ports';
import { DynamoAuditLog } from '../adapters/dynamo/audit-store';
import { erasureContext } from './account';
import { billingContext } from './billing';
import type { Deps } from './deps';
import { clockOf, perDeps } from './per-deps';

const auditLog = perDeps((deps) => new DynamoAuditLog(deps.db, deps.config.tables.app));

export async function supportContext(deps: Deps, options: { operator: Operator; subscriptions?: SubscriptionControl }): Promise<SupportContext> {
  return {
    ...erasureContext(deps),
    billing: await billingContext(deps),
    audit: auditLog(deps),
    ...(options.subscriptions ? { subscriptions: options.subscriptions } : {}),
    operator: options.operator,
    now: clockOf(deps),
  };
}
