// Composition: the streams' and channels' contexts from Deps.
import type { Deps } from '../adapters/deps';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoChannelStore } from '../adapters/dynamo/channel-store';
import { DynamoStreamStore } from '../adapters/dynamo/stream-store';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import { entitlementOfUser } from '../core/billing/billing';
import type { ChannelsContext } from '../core/channels/channels';
import type { StreamsContext } from '../core/streams/streams';
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
    now: deps.now,
    mediaBucket: deps.config.buckets.media,
  };
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
