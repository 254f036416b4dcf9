// Composition: the YouTube integration's contexts from Deps, made once per Deps (per-deps.ts).
import type { Deps } from './deps';
import { DynamoChannelStore } from '../adapters/dynamo/channel-store';
import { DynamoBroadcastStore, DynamoOAuthStateStore, DynamoYouTubeQuota } from '../adapters/dynamo/youtube-stores';
import { logger } from '../adapters/logger';
import { countMetric, gaugeMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import { S3MediaObjects } from '../adapters/s3/media-objects';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import type { Stream } from '../core/streams/stream';
import { YouTubeBroadcasts } from '../core/youtube/broadcasts';
import type { ConnectContext } from '../core/youtube/connect';
import type { GoogleOAuth } from '../core/youtube/ports';
import { API_BASE } from '../contract/routes';
import { clockOf, perDeps } from './per-deps';

const youtubeQuota = perDeps((deps) => new DynamoYouTubeQuota(deps.db, deps.config.tables.app, clockOf(deps)));

/** Google's client, or undefined when this server has no OAuth client configured (its settings read on each call). */
export async function googleOAuth(deps: Deps): Promise<GoogleOAuth | undefined> {
  const settings = await deps.google();
  if (!settings) return undefined;
  // Loaded on first use: googleapis costs the cold start of every function that never talks to Google.
  const { GoogleYouTube } = await import('../adapters/google/youtube');
  const quota = youtubeQuota(deps);
  return new GoogleYouTube(settings, async (units) => {
    const today = await quota.spend(units);
    countMetric(metricNames.youtubeQuotaUnits, units);
    gaugeMetric(metricNames.youtubeQuotaUsedToday, today);
  });
}

export const youtubeCallbackUrl = (deps: Deps) => `${deps.config.publicUrl}${API_BASE}/channels/youtube/callback`;

export const broadcastKeeper = perDeps((deps): YouTubeBroadcasts => {
  const table = deps.config.tables.app;
  const objects = new S3MediaObjects(deps.s3, deps.config.buckets.media);
  const videos = new DynamoVideoStore(deps.db, table);
  return new YouTubeBroadcasts({
    oauth: () => googleOAuth(deps),
    channels: new DynamoChannelStore(deps.db, table),
    records: new DynamoBroadcastStore(deps.db, table),
    secrets: deps.secrets,
    async thumbnail(stream: Stream) {
      const key = stream.thumbnailKey ?? (stream.videoId ? (await videos.get(stream.userId, stream.videoId))?.thumbnailKey : undefined);
      const image = key ? await objects.read(key) : undefined;
      return image ? { bytes: image.body, contentType: image.contentType } : undefined;
    },
    now: clockOf(deps),
    log: (message, details) => logger.warn(message, details),
  });
});

const connectStores = perDeps((deps): Omit<ConnectContext, 'channelLimit' | 'callbackUrl'> => ({
  oauth: () => googleOAuth(deps),
  channels: new DynamoChannelStore(deps.db, deps.config.tables.app),
  states: new DynamoOAuthStateStore(deps.db, deps.config.tables.app),
  secrets: deps.secrets,
  now: clockOf(deps),
}));

export function connectContext(deps: Deps, channelLimit: (userId: string) => Promise<number>): ConnectContext {
  return { ...connectStores(deps), channelLimit, callbackUrl: youtubeCallbackUrl(deps) };
}
