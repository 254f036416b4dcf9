// Composition: the account page's contexts (closure, export) from Deps.
import type { Deps } from './deps';
import { DynamoAuditLog } from '../adapters/dynamo/audit-store';
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoChannelStore } from '../adapters/dynamo/channel-store';
import { DynamoNotificationSettings } from '../adapters/dynamo/notification-settings-store';
import { DynamoStreamHistory } from '../adapters/dynamo/stream-history-store';
import { DynamoStreamStore } from '../adapters/dynamo/stream-store';
import { DynamoUserRecords } from '../adapters/dynamo/support-records';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { S3UserObjects } from '../adapters/s3/support-objects';
import type { ClosureContext } from '../core/accounts/closure';
import type { ExportContext } from '../core/accounts/export';
import { accountsContext } from './accounts';
import { streamsContext } from './streams';

export async function closureContext(deps: Deps): Promise<ClosureContext> {
  const table = deps.config.tables.app;
  const provider = await deps.paymentProvider();
  return {
    accounts: accountsContext(deps),
    erasure: {
      accounts: new DynamoAccountsStore(deps.db, table),
      connections: deps.connections,
      streams: streamsContext(deps),
      billing: { billing: new DynamoBillingStore(deps.db, table) },
      videos: new DynamoVideoStore(deps.db, table),
      records: new DynamoUserRecords(deps.db, table),
      objects: new S3UserObjects(deps.s3, deps.config.buckets.media),
    },
    ...(provider ? { subscriptions: { cancel: (id: string) => provider.cancelSubscription(id) } } : {}),
  };
}

export function exportContext(deps: Deps): ExportContext {
  const table = deps.config.tables.app;
  return {
    accounts: accountsContext(deps),
    videos: new DynamoVideoStore(deps.db, table),
    channels: new DynamoChannelStore(deps.db, table),
    streams: new DynamoStreamStore(deps.db, table),
    billing: new DynamoBillingStore(deps.db, table),
    audit: new DynamoAuditLog(deps.db, table),
    notifications: new DynamoNotificationSettings(deps.db, table),
    history: new DynamoStreamHistory(deps.db, table),
  };
}
