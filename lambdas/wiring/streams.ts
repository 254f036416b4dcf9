// Composition: the streams', the lifecycle's, the task API's and the channels' contexts from Deps, made once per
// Deps (per-deps.ts).
import { DynamoChannelStore } from '../adapters/dynamo/channel-store';
import { DynamoStreamHistory } from '../adapters/dynamo/stream-history-store';
import { DynamoStreamScheduleStore } from '../adapters/dynamo/stream-schedule-store';
import { DynamoStreamStore } from '../adapters/dynamo/stream-store';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import { entitlementOfUser } from '../core/billing/billing';
import type { ChannelsContext } from '../core/channels/channels';
import { S3MediaObjects } from '../adapters/s3/media-objects';
import { S3TaskMedia } from '../adapters/s3/task-media';
import { API_BASE } from '../contract/routes';
import type { LifecycleContext } from '../core/streams/lifecycle';
import type { SchedulingContext } from '../core/streams/scheduled-runs';
import type { StreamsContext } from '../core/streams/streams';
import type { TaskSessionContext } from '../core/streams/task-session';
import { billingContextStores } from './billing';
import { streamAlerts } from './notifications';
import { clockOf, perDeps } from './per-deps';
import { broadcastKeeper } from './youtube';

export const streamsContext = perDeps((deps): StreamsContext => {
  const table = deps.config.tables.app;
  return {
    streams: new DynamoStreamStore(deps.db, table),
    channels: new DynamoChannelStore(deps.db, table),
    videos: new DynamoVideoStore(deps.db, table),
    runner: deps.streamRunner,
    broadcasts: broadcastKeeper(deps),
    entitlement: (userId) => entitlementOfUser(billingContextStores(deps), userId),
    secrets: deps.secrets,
    realtime: deps.realtime,
    history: new DynamoStreamHistory(deps.db, table),
    alerts: streamAlerts(deps),
    now: clockOf(deps),
  };
});

/** Streams with schedules: their wake-ups are set by the streams routes and the schedule function. */
export const schedulingContext = perDeps((deps): SchedulingContext => {
  if (!deps.streamWakeups) throw new Error('stream schedules are not configured here (no StreamWakeups in Deps)');
  return { ...streamsContext(deps), schedules: new DynamoStreamScheduleStore(deps.db, deps.config.tables.app), wakeups: deps.streamWakeups };
});

/** The streams' context with the media bucket, where a stream's own thumbnail is kept. */
export const thumbnailContext = perDeps((deps) => ({ ...streamsContext(deps), objects: new S3MediaObjects(deps.s3, deps.config.buckets.media) }));

/** Stream tasks report to the public API: through CloudFront in AWS (its WAF and origin secret apply to them too). */
export const lifecycleContext = perDeps((deps): LifecycleContext => ({
  ...streamsContext(deps),
  get taskApiUrl() {
    return `${deps.config.publicUrl}${API_BASE}`;
  },
}));

export const taskSessionContext = perDeps((deps): TaskSessionContext => ({
  ...streamsContext(deps),
  videos: new DynamoVideoStore(deps.db, deps.config.tables.app),
  media: new S3TaskMedia(deps.s3, deps.config.buckets.media),
}));

export const channelsContext = perDeps((deps): ChannelsContext => ({
  channels: streamsContext(deps).channels,
  streams: streamsContext(deps).streams,
  destinations: deps.destinations,
  secrets: deps.secrets,
  now: clockOf(deps),
}));
