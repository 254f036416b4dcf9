// Composition: the YouTube integration's contexts from Deps.
import type { Deps } from '../adapters/deps';
import { DynamoChannelStore } from '../adapters/dynamo/channel-store';
import { DynamoBroadcastStore, DynamoOAuthStateStore, DynamoYouTubeQuota } from '../adapters/dynamo/youtube-stores';
import { GoogleYouTube } from '../adapters/google/youtube';
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

/** What the YouTube adapters need; the Lambdas take it from Deps, the stream task builds it itself. */
export type YouTubeParts = Pick<Deps, 'db' | 's3' | 'secrets' | 'google' | 'now'> & { table: string; bucket: string };

const partsOf = (deps: Deps): YouTubeParts => ({ ...deps, table: deps.config.tables.app, bucket: deps.config.buckets.media });

/** Google's client, or undefined when this server has no OAuth client configured. */
export async function googleOAuth(parts: YouTubeParts): Promise<GoogleOAuth | undefined> {
  const settings = await parts.google();
  if (!settings) return undefined;
  const quota = new DynamoYouTubeQuota(parts.db, parts.table, parts.now);
  return new GoogleYouTube(settings, async (units) => {
    const today = await quota.spend(units);
    countMetric(metricNames.youtubeQuotaUnits, units);
    gaugeMetric(metricNames.youtubeQuotaUsedToday, today);
  });
}

export const youtubeCallbackUrl = (deps: Deps) => `${deps.config.publicUrl}${API_BASE}/channels/youtube/callback`;

export function broadcastKeeper(source: Deps | YouTubeParts): YouTubeBroadcasts {
  const parts = 'config' in source ? partsOf(source) : source;
  const objects = new S3MediaObjects(parts.s3, parts.bucket);
  const videos = new DynamoVideoStore(parts.db, parts.table);
  return new YouTubeBroadcasts({
    oauth: () => googleOAuth(parts),
    channels: new DynamoChannelStore(parts.db, parts.table),
    records: new DynamoBroadcastStore(parts.db, parts.table),
    secrets: parts.secrets,
    async thumbnail(stream: Stream) {
      const key = stream.thumbnailKey ?? (stream.videoId ? (await videos.get(stream.userId, stream.videoId))?.thumbnailKey : undefined);
      const image = key ? await objects.read(key) : undefined;
      return image ? { bytes: image.body, contentType: image.contentType } : undefined;
    },
    now: parts.now,
    log: (message, details) => logger.warn(message, details),
  });
}

export function connectContext(deps: Deps, channelLimit: (userId: string) => Promise<number>): ConnectContext {
  const table = deps.config.tables.app;
  return {
    oauth: () => googleOAuth(partsOf(deps)),
    channels: new DynamoChannelStore(deps.db, table),
    states: new DynamoOAuthStateStore(deps.db, table),
    secrets: deps.secrets,
    channelLimit,
    now: deps.now,
    callbackUrl: youtubeCallbackUrl(deps),
  };
}
