// The media library's items (videos and separate audio tracks) and what may be done to them. Pure.
import { AppError, type ErrorKey } from '../errors';
import { outputProfiles, type MediaKind, type OutputSettings, type QualityChoice } from '../media-spec';
import type { VideoOutput, VideoStatus, VideoView } from '../../contract/api/videos';
import type { MediaProbe } from '../../contract/stream-task';

export const videoOutputOf = (settings: OutputSettings): VideoOutput => ({
  profile: settings.profile,
  tier: settings.tier,
  frameRate: settings.frameRate,
  videoBitrate: settings.videoBitrate,
  limitedBy: settings.limitedBy,
});

/** Items made before output profiles existed are 1080p at 30 fps and a constant 6 Mbit/s (today's 1080p30 high). */
export const legacyOutput: VideoOutput = { profile: '1080p30', tier: 'high', frameRate: 30, videoBitrate: 6_000_000, limitedBy: [] };

/** The stream-ready file of a ready item, kept while a quality change makes its successor (and given back to the
 * item when that fails). */
export interface ReplacedOutput {
  quality?: QualityChoice;
  output?: VideoOutput;
  outputKey: string;
  thumbnailKey?: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
  sizeBytes?: number;
}

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
  /** Videos: the profile and tier asked for (at upload, or by the latest quality change). */
  quality?: QualityChoice;
  /** Videos, once ready: what the stream-ready file is (absent on items made before profiles: legacyOutput). */
  output?: VideoOutput;
  /** 0 (absent) for the upload's transcode, one more for each quality change; the transcode job carries it. */
  revision?: number;
  /** While a quality change encodes: the file it replaces. */
  replacing?: ReplacedOutput;
  /** The latest quality change failed with this; the item kept its earlier file. */
  qualityChangeError?: ErrorKey;
  /** What a stream task's ffprobe found in the stream-ready file (for the bytes of the ETag it names), so that later
   * starts skip the probe; removed when a new file replaces it. */
  streamProbe?: MediaProbe;
  createdAt: string;
  updatedAt: string;
}

/**
 * Whether a quality change may make `choice` from a ready item's file: it reads the stream-ready file (the original
 * is not kept), so it can lower the size, the frame rate or the bitrate, never raise them. 'same' when nothing
 * would change.
 */
export function qualityChangeFrom(current: VideoOutput, choice: QualityChoice): 'lower' | 'same' | 'higher' {
  const now = outputProfiles[current.profile];
  const asked = outputProfiles[choice.profile];
  const bitrate = asked.bitrates[choice.tier];
  if (asked.height > now.height || asked.frameRate > current.frameRate || bitrate > current.videoBitrate) return 'higher';
  return asked.height === now.height && asked.frameRate === current.frameRate && bitrate === current.videoBitrate ? 'same' : 'lower';
}

export const TITLE_MAX_LENGTH = 120;

/** A title from a file name: without the extension, separators as spaces, trimmed to the limit. */
export function titleFromFileName(fileName: string): string {
  const base = fileName
    .replace(/\.[^.\\/]{1,8}$/, '')
    .replace(/[_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (base || fileName || 'Untitled').slice(0, TITLE_MAX_LENGTH);
}

/** Spec: an item cannot be modified (renamed, deleted) while it is encoding or used by a running stream. */
export function assertModifiable(video: Video, usedByRunningStream: boolean): void {
  if (video.status === 'encoding') throw new AppError('video encoding');
  if (usedByRunningStream) throw new AppError('video in use');
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
  ...(video.quality ? { quality: video.quality } : {}),
  ...(video.kind === 'video' && video.outputKey ? { output: video.output ?? legacyOutput } : {}),
  ...(video.qualityChangeError ? { qualityChangeError: { key: video.qualityChangeError } } : {}),
  createdAt: video.createdAt,
});
