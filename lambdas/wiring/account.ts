// Composition: the account page's contexts (closure, export) from Deps, made once per Deps (per-deps.ts).
import type { Deps } from './deps';
import { DynamoAuditLog } from '../adapters/dynamo/audit-store';
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoNotificationSettings } from '../adapters/dynamo/notification-settings-store';
import { DynamoUserRecords } from '../adapters/dynamo/support-records';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import { S3UserObjects } from '../adapters/s3/support-objects';
import type { ClosureContext } from '../core/accounts/closure';
import type { ErasureContext } from '../core/support/erasure';
import type { ExportContext } from '../core/accounts/export';
import { accountsContext, accountsStore } from './accounts';
import { perDeps } from './per-deps';
import { streamsContext } from './streams';

/** What erasing an account removes, and where (also the support tool's). */
export const erasureContext = perDeps((deps): ErasureContext => ({
  accounts: accountsStore(deps),
  connections: deps.connections,
  streams: streamsContext(deps),
  billing: { billing: new DynamoBillingStore(deps.db, deps.config.tables.app) },
  videos: new DynamoVideoStore(deps.db, deps.config.tables.app),
  records: new DynamoUserRecords(deps.db, deps.config.tables.app),
  objects: new S3UserObjects(deps.s3, deps.config.buckets.media),
}));

/** The payment provider is resolved on each call (it may not be configured). */
export async function closureContext(deps: Deps): Promise<ClosureContext> {
  const provider = await deps.paymentProvider();
  return {
    accounts: accountsContext(deps),
    erasure: erasureContext(deps),
    ...(provider ? { subscriptions: { cancel: (id: string) => provider.cancelSubscription(id) } } : {}),
  };
}

export const exportContext = perDeps((deps): ExportContext => {
  const { streams, channels, history } = streamsContext(deps);
  return {
    accounts: accountsContext(deps),
    videos: erasureContext(deps).videos,
    channels,
    streams,
    billing: new DynamoBillingStore(deps.db, deps.config.tables.app),
    audit: new DynamoAuditLog(deps.db, deps.config.tables.app),
    notifications: new DynamoNotificationSettings(deps.db, deps.config.tables.app),
    history,
  };
});
