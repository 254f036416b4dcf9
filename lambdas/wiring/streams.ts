// Composition: the streams', the lifecycle's, the task API's and the channels' contexts from Deps.
import type { Deps } from '../adapters/deps';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoChannelStore } from '../adapters/dynamo/channel-store';
import { DynamoStreamHistory } from '../adapters/dynamo/stream-history-store';
import { DynamoStreamStore } from '../adapters/dynamo/stream-store';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import { entitlementOfUser } from '../core/billing/billing';
import type { ChannelsContext } from '../core/channels/channels';
import { S3MediaObjects } from '../adapters/s3/media-objects';
import { S3TaskMedia } from '../adapters/s3/task-media';
import { API_BASE } from '../contract/routes';
import type { LifecycleContext } from '../core/streams/lifecycle';
import type { StreamsContext } from '../core/streams/streams';
import type { TaskSessionContext } from '../core/streams/task-session';
import { streamAlerts } from './notifications';
import { broadcastKeeper } from './youtube';

export function streamsContext(deps: Deps): StreamsContext {
  const table = deps.config.tables.app;
  const accounts = new DynamoAccountsStore(deps.db, table);
  const billing = new DynamoBillingStore(deps.db, table);
  return {
    streams: new DynamoStreamStore(deps.db, table),
    channels: new DynamoChannelStore(deps.db, table),
    videos: new DynamoVideoStore(deps.db, table),
    runner: deps.streamRunner,
    broadcasts: broadcastKeeper(deps),
    entitlement: (userId) => entitlementOfUser({ accounts, billing, now: deps.now }, userId),
    secrets: deps.secrets,
    realtime: deps.realtime,
    history: new DynamoStreamHistory(deps.db, table),
    alerts: streamAlerts(deps),
    now: deps.now,
  };
}

/** Stream tasks report to the public API: through CloudFront in AWS (its WAF and origin secret apply to them too). */
/** The streams' context with the media bucket, where a stream's own thumbnail is kept. */
export const thumbnailContext = (deps: Deps) => ({ ...streamsContext(deps), objects: new S3MediaObjects(deps.s3, deps.config.buckets.media) });

export function lifecycleContext(deps: Deps): LifecycleContext {
  return { ...streamsContext(deps), taskApiUrl: `${deps.config.publicUrl}${API_BASE}` };
}

export function taskSessionContext(deps: Deps): TaskSessionContext {
  return { ...streamsContext(deps), media: new S3TaskMedia(deps.s3, deps.config.buckets.media) };
}

export function channelsContext(deps: Deps): ChannelsContext {
  const table = deps.config.tables.app;
  return {
    channels: new DynamoChannelStore(deps.db, table),
    streams: new DynamoStreamStore(deps.db, table),
    destinations: deps.destinations,
    secrets: deps.secrets,
    now: deps.now,
  };
}
