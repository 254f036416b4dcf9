// Composition: the support use cases' context from Deps (the support tool, bin/support.ts, and its tests).
import type { SupportContext } from '../core/support/support';
import type { Operator, SubscriptionControl } from '../core/support/ports';
import { billingContext } from './billing';
import { streamsContext } from './streams';
import type { Deps } from './deps';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { DynamoAuditLog } from '../adapters/dynamo/audit-store';
import { DynamoUserRecords } from '../adapters/dynamo/support-records';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import { S3UserObjects } from '../adapters/s3/support-objects';

export async function supportContext(deps: Deps, options: { operator: Operator; subscriptions?: SubscriptionControl }): Promise<SupportContext> {
  const table = deps.config.tables.app;
  return {
    accounts: new DynamoAccountsStore(deps.db, table),
    connections: deps.connections,
    streams: streamsContext(deps),
    billing: await billingContext(deps),
    videos: new DynamoVideoStore(deps.db, table),
    records: new DynamoUserRecords(deps.db, table),
    objects: new S3UserObjects(deps.s3, deps.config.buckets.media),
    audit: new DynamoAuditLog(deps.db, table),
    ...(options.subscriptions ? { subscriptions: options.subscriptions } : {}),
    operator: options.operator,
    now: deps.now,
  };
}
