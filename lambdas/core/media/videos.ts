// The media library's items (videos and separate audio tracks) and what may be done to them. Pure.
import { AppError, type ErrorKey } from '../errors';
import type { MediaKind } from '../media-spec';

/** uploading happens in the browser (tus); an item exists from the last byte on: encoding, then ready or failed. */
export type VideoStatus = 'encoding' | 'ready' | 'failed';

export interface Video {
  id: string;
  userId: string;
  kind: MediaKind;
  title: string;
  fileName: string;
  status: VideoStatus;
  /** Transcoding progress, 0-100. */
  progress: number;
  error?: ErrorKey;
  sourceKey: string;
  /** Every object the upload left (the source and its bookkeeping), removed with the source. */
  stagingKeys: string[];
  sourceBytes: number;
  /** Bytes counted against the plan's storage: the source while encoding, the outputs once ready. */
  storedBytes: number;
  /** The billing cycle (its start) whose upload count this item used; a failed transcode gives it back. */
  uploadCycle?: string;
  outputKey?: string;
  thumbnailKey?: string;
  durationSeconds?: number;
  width?: number;
  height?: number;
  sizeBytes?: number;
  createdAt: string;
  updatedAt: string;
}

export const TITLE_MAX_LENGTH = 120;

/** A title from a file name: without the extension, separators as spaces, trimmed to the limit. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.replace(/\.[^.\\/]{1,8}$/, '').replace(/[_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return (base || fileName || 'Untitled').slice(0, TITLE_MAX_LENGTH);
}

/** Spec: an item cannot be modified (renamed, deleted) while it is encoding or used by a running stream. */
export function assertModifiable(video: Video, usedByRunningStream: boolean): void {
  if (video.status === 'encoding') throw new AppError('video encoding');
  if (usedByRunningStream) throw new AppError('video in use');
}

/** What the browser sees of an item (storage keys stay inside). */
export interface VideoView {
  id: string;
  kind: MediaKind;
  title: string;
  fileName: string;
  status: VideoStatus;
  progress: number;
  error?: { key: ErrorKey };
  durationSeconds?: number;
  width?: number;
  height?: number;
  sizeBytes: number;
  hasThumbnail: boolean;
  createdAt: string;
}

export const videoView = (video: Video): VideoView => ({
  id: video.id,
  kind: video.kind,
  title: video.title,
  fileName: video.fileName,
  status: video.status,
  progress: video.progress,
  ...(video.error ? { error: { key: video.error } } : {}),
  ...(video.durationSeconds !== undefined ? { durationSeconds: video.durationSeconds } : {}),
  ...(video.width !== undefined ? { width: video.width, height: video.height } : {}),
  // What the item counts against the plan's storage: the source while encoding, the outputs once ready.
  sizeBytes: video.storedBytes,
  hasThumbnail: video.thumbnailKey !== undefined,
  createdAt: video.createdAt,
});
