// Composition: the media library's context from Deps, made once per Deps (per-deps.ts), with the transcoder that
// reports back into it.
import type { Deps } from './deps';
import { DynamoStreamLinks } from '../adapters/dynamo/stream-links';
import { DynamoStagingStore } from '../adapters/dynamo/staging-store';
import { DynamoUsageStore } from '../adapters/dynamo/usage-store';
import { DynamoVideoStore } from '../adapters/dynamo/video-store';
import { S3MediaObjects } from '../adapters/s3/media-objects';
import { MediaConvertTranscoder } from '../adapters/transcoder/mediaconvert-transcoder';
import type { Transcoder } from '../core/media/transcoder';
import { countMetric, secondsMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import { applyTranscodeUpdate, type LibraryContext } from '../core/media/library';
import { entitlementOfUser } from '../core/billing/billing';
import { billingContextStores } from './billing';
import { clockOf, perDeps } from './per-deps';
import { streamsContext } from './streams';

/** One transcoder per Deps (a local ffmpeg queue, or the MediaConvert client), whose updates land in the library. */
export function transcoderOf(deps: Deps): Transcoder {
  return transcodersOf(deps).counted;
}

/** Per Deps: the adapter itself, and the port the library uses (the adapter, its starts counted). */
const transcodersOf = perDeps((deps): { adapter: Transcoder; counted: Transcoder } => {
  const adapter = deps.makeTranscoder(async (update) => {
    const context = libraryContext(deps);
    const registered = update.type === 'progress' ? undefined : await context.videos.get(update.job.userId, update.job.videoId);
    await applyTranscodeUpdate(context, update);
    if (update.type === 'completed') {
      countMetric(metricNames.transcodesCompleted);
      // From the last byte uploaded to stream-ready: what the creator waits.
      if (registered) secondsMetric(metricNames.transcodeSeconds, (deps.now().getTime() - new Date(registered.createdAt).getTime()) / 1000);
    } else if (update.type === 'failed') {
      countMetric(metricNames.transcodesFailed);
    }
  });
  const counted: Transcoder = {
    async start(job) {
      const jobId = await adapter.start(job);
      countMetric(metricNames.transcodesStarted);
      return jobId;
    },
  };
  return { adapter, counted };
});

/** The transcoder of an AWS stack, which applies its MediaConvert queue's job state events. */
export function mediaConvertTranscoderOf(deps: Deps): MediaConvertTranscoder {
  const transcoder = transcodersOf(deps).adapter;
  if (!(transcoder instanceof MediaConvertTranscoder)) throw new Error('MediaConvert events reached a stack that transcodes with ffmpeg');
  return transcoder;
}

export const libraryContext = perDeps((deps): LibraryContext => {
  const table = deps.config.tables.app;
  const usage = new DynamoUsageStore(deps.db, table);
  return {
    videos: new DynamoVideoStore(deps.db, table),
    staging: new DynamoStagingStore(deps.db, table),
    storageUsed: async (userId) => (await usage.usage(userId, '')).storageBytes,
    objects: new S3MediaObjects(deps.s3, deps.config.buckets.media),
    transcoder: transcoderOf(deps),
    streams: new DynamoStreamLinks(deps.db, table),
    streaming: streamsContext(deps),
    realtime: deps.realtime,
    entitlement: (userId) => entitlementOfUser(billingContextStores(deps), userId),
    now: clockOf(deps),
  };
});
