// The media library use cases: register a finished upload and transcode it, follow the transcoder, rename,
// delete. Every state change is pushed to the owner's browsers.
import type { TranscodeUpdate } from './transcoder';
import type { RealtimePublisher } from '../../contract/realtime-events';
import type { Entitlement } from '../billing/entitlement';
import { AppError } from '../errors';
import type { MediaKind } from '../media-spec';
import type { MediaObjects, StreamLinks, TranscodeStarter, VideoStore } from './ports';
import { assertModifiable, titleFromFileName, TITLE_MAX_LENGTH, type Video } from './videos';

export interface LibraryContext {
  videos: VideoStore;
  /** Bytes the user stores now (the usage counter). */
  storageUsed: (userId: string) => Promise<number>;
  objects: MediaObjects;
  transcoder: TranscodeStarter;
  streams: StreamLinks;
  realtime: RealtimePublisher;
  entitlement: (userId: string) => Promise<Entitlement>;
  now: () => Date;
}

/** Checked before an upload starts (fast refusal); the binding check is at registration. */
export async function authorizeUpload(context: Pick<LibraryContext, 'entitlement'>, userId: string, uploadLength: number, usage: { storageBytes: number; uploadsThisCycle: number }): Promise<void> {
  const entitlement = await context.entitlement(userId);
  if (!entitlement.active) throw new AppError(entitlement.blockedBy ?? 'no active subscription');
  if (usage.uploadsThisCycle >= entitlement.limits.uploadsPerCycle) throw new AppError('video upload limit');
  if (usage.storageBytes + uploadLength > entitlement.limits.storageBytes) throw new AppError('storage limit');
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

/** Starts the item's transcode with what the owner's plan leaves it: its longest item, and the storage the others
 * leave (the source it replaces not counted). The transcoder checks both once the source is probed, before
 * anything is encoded; what is stored afterwards is counted exactly (applyTranscodeUpdate). */
export async function startTranscode(context: LibraryContext, video: Video, entitlement?: Entitlement): Promise<void> {
  const { limits } = entitlement ?? (await context.entitlement(video.userId));
  const others = (await context.storageUsed(video.userId)) - video.storedBytes;
  await context.transcoder.start({
    userId: video.userId,
    videoId: video.id,
    kind: video.kind,
    sourceKey: video.sourceKey,
    outputPrefix: `media/${video.userId}/${video.id}/`,
    limits: { maxDurationSeconds: limits.maxMediaSeconds, storageBytesLeft: limits.storageBytes - others },
  });
}

/** Follows the transcoder: progress only grows, completion and failure are final and idempotent. */
export async function applyTranscodeUpdate(context: LibraryContext, update: TranscodeUpdate): Promise<void> {
  const { userId, videoId } = update.job;
  const now = context.now().toISOString();
  if (update.type === 'progress') {
    const percent = Math.max(0, Math.min(99, Math.floor(update.percent)));
    const video = await context.videos.get(userId, videoId);
    if (!video || video.status !== 'encoding' || percent <= video.progress) return;
    if (await context.videos.updateWhileEncoding(userId, videoId, { progress: percent, updatedAt: now })) {
      await context.realtime.publish(userId, { type: 'video.progress', videoId, percent });
    }
    return;
  }
  const video = await context.videos.get(userId, videoId);
  if (!video) {
    // The item went while it was transcoded (its account was closed): what the transcode wrote has no owner left.
    if (update.type === 'completed') await context.objects.remove([update.result.outputKey, ...(update.result.kind === 'video' ? [update.result.thumbnailKey] : [])]);
    return;
  }
  if (video.status !== 'encoding') return;
  if (update.type === 'completed') {
    const { result } = update;
    // What is stored from now on: the stream-ready file and its thumbnail (the source is removed below).
    const outputs = result.sizeBytes + (result.kind === 'video' ? result.thumbnailBytes : 0);
    const changed = await context.videos.updateWhileEncoding(userId, videoId, {
      status: 'ready',
      progress: 100,
      outputKey: result.outputKey,
      ...(result.kind === 'video' ? { thumbnailKey: result.thumbnailKey, width: result.width, height: result.height } : {}),
      durationSeconds: result.durationSeconds,
      sizeBytes: result.sizeBytes,
      storedBytes: outputs,
      updatedAt: now,
    }, { storedBytesDelta: outputs - video.storedBytes });
    if (!changed) return;
    // The stream-ready file replaces the original, which is no longer needed.
    await context.objects.remove(video.stagingKeys);
    await context.realtime.publish(userId, { type: 'video.state', videoId, status: 'ready' });
  } else {
    // The file could not be made stream-ready: it does not use up one of the cycle's uploads. Its bytes stay
    // counted until it is deleted, as they stay stored.
    const changed = await context.videos.updateWhileEncoding(userId, videoId, { status: 'failed', error: update.error, updatedAt: now }, video.uploadCycle ? { refundUploadOf: video.uploadCycle } : undefined);
    if (!changed) return;
    await context.realtime.publish(userId, { type: 'video.state', videoId, status: 'failed', error: update.error });
  }
  await context.streams.mediaSettled(userId, videoId);
}

export async function ownedVideo(context: Pick<LibraryContext, 'videos'>, userId: string, videoId: string): Promise<Video> {
  const video = await context.videos.get(userId, videoId);
  if (!video) throw new AppError('not found');
  return video;
}

export async function renameVideo(context: LibraryContext, userId: string, videoId: string, title: string): Promise<Video> {
  const video = await ownedVideo(context, userId, videoId);
  assertModifiable(video, await context.streams.usedByRunningStream(userId, videoId));
  const clean = title.trim().slice(0, TITLE_MAX_LENGTH);
  if (!clean) throw new AppError('invalid request', { fields: { title: 'required' } });
  await context.videos.rename(userId, videoId, clean, context.now());
  return { ...video, title: clean };
}

/** Spec: a user can delete uploaded content at any time, except while it encodes or a running stream uses it. */
export async function deleteVideo(context: LibraryContext, userId: string, videoId: string): Promise<void> {
  const video = await ownedVideo(context, userId, videoId);
  assertModifiable(video, await context.streams.usedByRunningStream(userId, videoId));
  await context.objects.remove([...video.stagingKeys, video.outputKey, video.thumbnailKey].filter((key): key is string => key !== undefined));
  await context.videos.remove(video);
  await context.streams.forget(userId, videoId);
  await context.realtime.publish(userId, { type: 'video.state', videoId, status: 'deleted' });
}
