// The media library use cases: register a finished upload and transcode it, follow the transcoder, change an
// item's output quality, rename, delete. Every state change is pushed to the owner's browsers.
import type { TranscodeErrorKey, TranscodeUpdate } from './transcoder';
import type { RealtimePublisher } from '../../contract/realtime-events';
import type { Entitlement } from '../billing/entitlement';
import { AppError } from '../errors';
import { defaultQuality, outputKeys, type MediaKind, type QualityChoice } from '../media-spec';
import type { MediaObjects, StagingReservations, StreamLinks, TranscodeStarter, VideoStore } from './ports';
import {
  assertModifiable,
  legacyOutput,
  qualityChangeFrom,
  titleFromFileName,
  TITLE_MAX_LENGTH,
  videoOutputOf,
  type ReplacedOutput,
  type Video,
} from './videos';
import { outputPrefixOf } from '../../contract/buckets';
import { mediaLockedStatuses } from '../streams/stream';
import { resumeWaiting, type StreamsContext } from '../streams/streams';

export interface LibraryContext {
  videos: VideoStore;
  /** What unfinished uploads hold of the plan's storage. */
  staging: StagingReservations;
  /** Bytes the user stores now (the usage counter). */
  storageUsed: (userId: string) => Promise<number>;
  objects: MediaObjects;
  transcoder: TranscodeStarter;
  streams: StreamLinks;
  /** The streaming engine, which starts or stops the streams that waited for an item once it settles. */
  streaming: StreamsContext;
  realtime: RealtimePublisher;
  entitlement: (userId: string) => Promise<Entitlement>;
  now: () => Date;
}

/** Refuses a profile the plan does not include (60 fps, 1440p and 4K are Pro and Custom). */
function assertProfileIncluded(entitlement: Entitlement, quality: QualityChoice | undefined): void {
  if (quality && !entitlement.limits.outputProfiles.includes(quality.profile)) {
    throw new AppError('plan feature unavailable', { fields: { profile: quality.profile } });
  }
}

export interface UploadRequest {
  userId: string;
  uploadId: string;
  uploadLength: number;
  /** When the upload expires unfinished (the upload server's expiry). */
  expiresAt: Date;
  /** A final upload: the partial uploads it joins, which already hold its bytes. */
  joining?: readonly string[];
  quality?: QualityChoice;
}

/**
 * Before an upload is created. An upload holds its declared length against the plan's storage from now until it
 * ends (`staging.release`) or expires, beside what is stored and the user's other unfinished uploads, so uploads
 * left unfinished or partial uploads never joined cannot keep more than the plan. Registration, when the last byte
 * arrives, counts the item itself, and the outputs count when the transcode completes (applyTranscodeUpdate).
 */
export async function authorizeUpload(
  context: Pick<LibraryContext, 'entitlement' | 'staging' | 'now'>,
  request: UploadRequest,
  usage: { storageBytes: number; uploadsThisCycle: number },
): Promise<void> {
  const { userId, uploadLength } = request;
  const entitlement = await context.entitlement(userId);
  if (!entitlement.active) throw new AppError(entitlement.blockedBy ?? 'no active subscription');
  assertProfileIncluded(entitlement, request.quality);
  if (usage.uploadsThisCycle >= entitlement.limits.uploadsPerCycle) throw new AppError('video upload limit');
  const now = context.now();
  const staged = await context.staging.stagedBytes(userId, now, request.joining);
  if (usage.storageBytes + staged + uploadLength > entitlement.limits.storageBytes) throw new AppError('storage limit');
  // A final upload is registered as it is created; its partials hold its room until then.
  if (request.joining) return;
  const options = { storageLimit: entitlement.limits.storageBytes, expiresAt: request.expiresAt, now };
  if (!(await context.staging.reserve(userId, request.uploadId, uploadLength, options))) throw new AppError('storage limit');
}

export interface FinishedUpload {
  userId: string;
  uploadId: string;
  key: string;
  /** Every object of the upload (the source included), removed once it is not needed. */
  stagingKeys: string[];
  size: number;
  fileName: string;
  kind: MediaKind;
  /** Videos: the profile and tier chosen in the uploader (defaultQuality when none was sent). */
  quality?: QualityChoice;
}

/** The item for a finished upload (its id is the upload's), then transcoding. Safe to call twice. */
export async function registerUpload(context: LibraryContext, upload: FinishedUpload): Promise<void> {
  const entitlement = await context.entitlement(upload.userId);
  if (!entitlement.active) throw new AppError(entitlement.blockedBy ?? 'no active subscription');
  const now = context.now().toISOString();
  const video: Video = {
    id: upload.uploadId,
    userId: upload.userId,
    kind: upload.kind,
    title: titleFromFileName(upload.fileName),
    fileName: upload.fileName.slice(0, 255),
    status: 'encoding',
    progress: 0,
    sourceKey: upload.key,
    stagingKeys: upload.stagingKeys,
    sourceBytes: upload.size,
    storedBytes: upload.size,
    uploadCycle: entitlement.cycleStart,
    ...(upload.kind === 'video' ? { quality: upload.quality ?? defaultQuality } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await context.videos.register(video, { ...entitlement.limits, cycleStart: entitlement.cycleStart });
  if (outcome === 'already registered') return;
  if (outcome !== 'registered') {
    // Another upload used the room meanwhile: this one cannot be kept.
    await context.objects.remove(upload.stagingKeys);
    throw new AppError(outcome);
  }
  await context.realtime.publish(upload.userId, { type: 'upload.finished', videoId: video.id });
  await startTranscode(context, video, entitlement);
}

/** Starts the item's transcode with what the owner's plan leaves it: its longest item, the storage the others
 * leave (the file it replaces not counted) and the profiles it includes. The transcoder checks them once the source
 * is probed, before anything is encoded; what is stored afterwards is counted exactly (applyTranscodeUpdate). */
export async function startTranscode(context: LibraryContext, video: Video, entitlement?: Entitlement): Promise<void> {
  const { limits } = entitlement ?? (await context.entitlement(video.userId));
  const others = (await context.storageUsed(video.userId)) - video.storedBytes;
  await context.transcoder.start({
    userId: video.userId,
    videoId: video.id,
    kind: video.kind,
    sourceKey: video.sourceKey,
    outputPrefix: outputPrefixOf(video),
    revision: video.revision ?? 0,
    quality: video.quality ?? defaultQuality,
    limits: { maxDurationSeconds: limits.maxMediaSeconds, storageBytesLeft: limits.storageBytes - others, outputProfiles: limits.outputProfiles },
  });
}

/** Follows the transcoder: progress only grows, completion and failure are final and idempotent. */
export async function applyTranscodeUpdate(context: LibraryContext, update: TranscodeUpdate): Promise<void> {
  const { userId, videoId } = update.job;
  const now = context.now().toISOString();
  if (update.type === 'progress') {
    const percent = Math.max(0, Math.min(99, Math.floor(update.percent)));
    const video = await context.videos.get(userId, videoId);
    if (!video || video.status !== 'encoding' || percent <= video.progress || !ofCurrentRevision(video, update)) return;
    if (await context.videos.updateWhileEncoding(userId, videoId, { progress: percent, updatedAt: now })) {
      await context.realtime.publish(userId, { type: 'video.progress', videoId, percent });
    }
    return;
  }
  const video = await context.videos.get(userId, videoId);
  if (!video) {
    // The item went while it was transcoded (its account was closed): what the transcode wrote has no owner left.
    if (update.type === 'completed')
      await context.objects.remove([update.result.outputKey, ...(update.result.kind === 'video' ? [update.result.thumbnailKey] : [])]);
    return;
  }
  if (video.status !== 'encoding' || !ofCurrentRevision(video, update)) return;
  if (update.type === 'completed') {
    const { result } = update;
    // What is stored from now on: the stream-ready file and its thumbnail (what it was made from is removed below).
    const outputs = result.sizeBytes + (result.kind === 'video' ? result.thumbnailBytes : 0);
    const storedBytesDelta = outputs - video.storedBytes;
    // The check before encoding saw the storage as it was then: items transcoded at the same time each fit alone.
    // Binding is this write, which counts the outputs only while they fit.
    const storageLimit = storedBytesDelta > 0 ? (await context.entitlement(userId)).limits.storageBytes : undefined;
    const changed = await context.videos.updateWhileEncoding(
      userId,
      videoId,
      {
        status: 'ready',
        progress: 100,
        outputKey: result.outputKey,
        ...(result.kind === 'video'
          ? { thumbnailKey: result.thumbnailKey, width: result.width, height: result.height, output: videoOutputOf(result.output) }
          : {}),
        durationSeconds: result.durationSeconds,
        sizeBytes: result.sizeBytes,
        storedBytes: outputs,
        updatedAt: now,
      },
      { storedBytesDelta, ...(storageLimit === undefined ? {} : { storageLimit }) },
      ['replacing', 'streamProbe'],
    );
    if (changed === 'storage limit') {
      if (video.replacing) return restoreAfterFailedChange(context, video, video.replacing, 'storage limit');
      await context.objects.remove([result.outputKey, ...(result.kind === 'video' ? [result.thumbnailKey] : [])]);
      return failTranscode(context, video, 'storage limit');
    }
    if (!changed) return;
    // The new file replaces what it was made from: the original upload, or the file a quality change lowered.
    await context.objects.remove(video.replacing ? replacedKeys(video.replacing) : video.stagingKeys);
    await context.realtime.publish(userId, { type: 'video.state', videoId, status: 'ready' });
  } else if (video.replacing) {
    await restoreAfterFailedChange(context, video, video.replacing, update.error);
    return;
  } else {
    return failTranscode(context, video, update.error);
  }
  await streamsGoOn(context, userId, videoId);
}

/** The file could not be made stream-ready: it does not use up one of the cycle's uploads. Its bytes stay counted
 * until it is deleted, as they stay stored. */
async function failTranscode(context: LibraryContext, video: Video, error: TranscodeErrorKey): Promise<void> {
  const changed = await context.videos.updateWhileEncoding(
    video.userId,
    video.id,
    { status: 'failed', error, updatedAt: context.now().toISOString() },
    video.uploadCycle ? { refundUploadOf: video.uploadCycle } : undefined,
  );
  if (!changed) return;
  await context.realtime.publish(video.userId, { type: 'video.state', videoId: video.id, status: 'failed', error });
  await streamsGoOn(context, video.userId, video.id);
}

/** Updates of an earlier revision's job (a late MediaConvert event after a quality change began) change nothing. */
const ofCurrentRevision = (video: Video, update: TranscodeUpdate) => update.job.revision === (video.revision ?? 0);

const replacedKeys = (replaced: ReplacedOutput) => [replaced.outputKey, ...(replaced.thumbnailKey ? [replaced.thumbnailKey] : [])];

/** A quality change failed: the item is ready again with the file it had and says why; nothing of the attempt stays
 * stored. Its storage count never changed. */
async function restoreAfterFailedChange(context: LibraryContext, video: Video, replaced: ReplacedOutput, error: TranscodeErrorKey): Promise<void> {
  const changed = await context.videos.updateWhileEncoding(
    video.userId,
    video.id,
    { ...replaced, status: 'ready', progress: 100, qualityChangeError: error, updatedAt: context.now().toISOString() },
    {},
    ['replacing', ...(replaced.quality ? [] : (['quality'] as const)), ...(replaced.output ? [] : (['output'] as const))],
  );
  if (!changed) return;
  const attempt = outputKeys(outputPrefixOf(video), 'video');
  await context.objects.remove([attempt.media, attempt.thumbnail!]);
  await context.realtime.publish(video.userId, { type: 'video.state', videoId: video.id, status: 'ready' });
  await streamsGoOn(context, video.userId, video.id);
}

/**
 * Makes a ready video's stream-ready file again at a lower profile or tier (less storage, less egress, or what a
 * destination accepts). It is made from that file, as the original is not kept after the upload's transcode: a
 * higher quality needs the original uploaded again ('quality above current'). The item is `encoding` meanwhile
 * (streams wait for it as for an upload) and keeps its file until the new one is ready; if the change fails, it is
 * ready again with its file, and `qualityChangeError` says why.
 */
export async function changeQuality(context: LibraryContext, userId: string, videoId: string, choice: QualityChoice): Promise<Video> {
  const video = await ownedVideo(context, userId, videoId);
  if (video.kind !== 'video' || video.status === 'failed' || !video.outputKey) {
    throw new AppError('invalid request', { fields: { id: 'only a ready video has a quality to change' } });
  }
  assertModifiable(video, await usedByRunningStream(context, userId, videoId));
  const entitlement = await context.entitlement(userId);
  if (!entitlement.active) throw new AppError(entitlement.blockedBy ?? 'no active subscription');
  assertProfileIncluded(entitlement, choice);
  const current = video.output ?? legacyOutput;
  const direction = qualityChangeFrom(current, choice);
  if (direction === 'higher') throw new AppError('quality above current', { fields: { profile: current.profile, tier: current.tier } });
  if (direction === 'same') return video;

  const replacing: ReplacedOutput = {
    outputKey: video.outputKey,
    ...(video.quality ? { quality: video.quality } : {}),
    ...(video.output ? { output: video.output } : {}),
    ...(video.thumbnailKey ? { thumbnailKey: video.thumbnailKey } : {}),
    ...(video.width !== undefined && video.height !== undefined ? { width: video.width, height: video.height } : {}),
    ...(video.durationSeconds !== undefined ? { durationSeconds: video.durationSeconds } : {}),
    ...(video.sizeBytes !== undefined ? { sizeBytes: video.sizeBytes } : {}),
  };
  const changes = {
    status: 'encoding' as const,
    progress: 0,
    quality: choice,
    revision: (video.revision ?? 0) + 1,
    sourceKey: video.outputKey,
    replacing,
    updatedAt: context.now().toISOString(),
  };
  if (!(await context.videos.updateWhileReady(userId, videoId, video.revision ?? 0, changes, ['qualityChangeError']))) {
    // Changed meanwhile (another change began, or the item was deleted).
    throw new AppError((await context.videos.get(userId, videoId)) ? 'video encoding' : 'not found');
  }
  const { qualityChangeError: _cleared, ...unchanged } = video;
  const encoding: Video = { ...unchanged, ...changes };
  await context.realtime.publish(userId, { type: 'video.state', videoId, status: 'encoding' });
  try {
    await startTranscode(context, encoding, entitlement);
  } catch (error) {
    await restoreAfterFailedChange(context, encoding, replacing, 'internal error');
    throw error;
  }
  return encoding;
}

export async function ownedVideo(context: Pick<LibraryContext, 'videos'>, userId: string, videoId: string): Promise<Video> {
  const video = await context.videos.get(userId, videoId);
  if (!video) throw new AppError('not found');
  return video;
}

export async function renameVideo(context: LibraryContext, userId: string, videoId: string, title: string): Promise<Video> {
  const video = await ownedVideo(context, userId, videoId);
  assertModifiable(video, await usedByRunningStream(context, userId, videoId));
  const clean = title.trim().slice(0, TITLE_MAX_LENGTH);
  if (!clean) throw new AppError('invalid request', { fields: { title: 'required' } });
  await context.videos.rename(userId, videoId, clean, context.now());
  return { ...video, title: clean };
}

/** Spec: a user can delete uploaded content at any time, except while it encodes or a running stream uses it. */
export async function deleteVideo(context: LibraryContext, userId: string, videoId: string): Promise<void> {
  const video = await ownedVideo(context, userId, videoId);
  assertModifiable(video, await usedByRunningStream(context, userId, videoId));
  await context.objects.remove([...video.stagingKeys, video.outputKey, video.thumbnailKey].filter((key): key is string => key !== undefined));
  await context.videos.remove(video);
  await forgetInStoppedStreams(context, userId, videoId);
  await context.realtime.publish(userId, { type: 'video.state', videoId, status: 'deleted' });
}

/** A stream whose media may not change (mediaLockedStatuses) uses the item. */
async function usedByRunningStream(context: Pick<LibraryContext, 'streams'>, userId: string, videoId: string): Promise<boolean> {
  return (await context.streams.streamsUsing(userId, videoId)).some((stream) => mediaLockedStatuses.includes(stream.status));
}

/** Stopped streams that named the deleted item forget it (they need another before starting); a deleted video leaves
 * a playlist (which goes with its last video). A stream that started meanwhile keeps its media. */
async function forgetInStoppedStreams(context: Pick<LibraryContext, 'streams'>, userId: string, videoId: string): Promise<void> {
  for (const stream of await context.streams.streamsUsing(userId, videoId)) {
    const { playlist } = stream;
    if (playlist?.videoIds.includes(videoId)) {
      const videoIds = playlist.videoIds.filter((id) => id !== videoId);
      const next = videoIds.length ? { playlist: { ...playlist, videoIds, revision: playlist.revision + 1 }, videoId: videoIds[0]! } : undefined;
      await context.streams.replacePlaylist(userId, stream.id, playlist.revision, next, mediaLockedStatuses);
    } else {
      await context.streams.removeMedia(userId, stream.id, stream.videoId === videoId ? 'videoId' : 'audioId', videoId, mediaLockedStatuses);
    }
  }
}

/** The item is ready, or failed: the streams waiting for it (`encoding`) go on, started when all their media is ready,
 * stopped when some failed (the streaming engine, lambdas/core/streams/streams.ts). */
async function streamsGoOn(context: Pick<LibraryContext, 'streams' | 'streaming'>, userId: string, videoId: string): Promise<void> {
  const waiting = (await context.streams.streamsUsing(userId, videoId)).filter((stream) => stream.status === 'encoding').map((stream) => stream.id);
  if (waiting.length) await resumeWaiting(context.streaming, userId, waiting);
}
