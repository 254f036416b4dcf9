// "Transcode once" behind one port: MediaConvert in AWS (adapters/transcoder/mediaconvert-transcoder.ts), ffmpeg in
// the local stack (adapters/transcoder/ffmpeg-transcoder.ts), both producing lambdas/core/media-spec.ts.
// docs/transcoding.md has the wiring.
import type { MediaKind, TranscodeLimits } from '../media-spec';

/** One source object in the media bucket to turn into a stream-ready item. */
export interface TranscodeJob {
  userId: string;
  videoId: string;
  kind: MediaKind;
  /** The uploaded original, e.g. `media/<userId>/<videoId>/source`. */
  sourceKey: string;
  /** Where outputs go, e.g. `media/<userId>/<videoId>/`: `stream.mp4` (or `stream.m4a`) and `thumb.jpg`. */
  outputPrefix: string;
  /** Checked once the source is probed, before anything is encoded: a longer source, or outputs that would not fit
   * in the owner's storage, fail the job with 'video too long' or 'storage limit'. */
  limits: TranscodeLimits;
}

/** What an update says about its job: enough for the owner to find the item. */
export type TranscodeJobRef = Pick<TranscodeJob, 'userId' | 'videoId' | 'kind'>;

export interface VideoTranscodeResult {
  kind: 'video';
  durationSeconds: number;
  width: number;
  height: number;
  sizeBytes: number;
  outputKey: string;
  thumbnailKey: string;
  thumbnailBytes: number;
}

export interface AudioTranscodeResult {
  kind: 'audio';
  durationSeconds: number;
  sizeBytes: number;
  outputKey: string;
}

export type TranscodeResult = VideoTranscodeResult | AudioTranscodeResult;

/**
 * `uploader encode error`: the file is not a video (or audio) we can decode; the user should upload another one.
 * `video too long`, `storage limit`: the plan's limits (TranscodeJob.limits) refuse it; nothing was encoded.
 * `internal error`: our side failed (storage, permissions, the service); the same file may work when retried.
 */
export type TranscodeErrorKey = 'uploader encode error' | 'video too long' | 'storage limit' | 'internal error';

export type TranscodeUpdate =
  | { type: 'progress'; jobId: string; job: TranscodeJobRef; percent: number }
  | { type: 'completed'; jobId: string; job: TranscodeJobRef; result: TranscodeResult }
  | { type: 'failed'; jobId: string; job: TranscodeJobRef; error: TranscodeErrorKey; reason: string };

/**
 * Receives every update of every job. Updates can arrive before `start` resolves (a source rejected up front
 * fails inside `start`; MediaConvert's events race the caller), so write the item as `encoding` first.
 * `completed` or `failed` is final: ignore later progress. EventBridge does not keep order or promise exactly-once
 * delivery, so keep the highest percent and make the final update idempotent.
 */
export type TranscodeListener = (update: TranscodeUpdate) => Promise<void> | void;

export interface Transcoder {
  /** Queues the job and answers its id; the outcome comes through the listener. */
  start(job: TranscodeJob): Promise<string>;
}

export const jobRef = (job: TranscodeJobRef): TranscodeJobRef => ({ userId: job.userId, videoId: job.videoId, kind: job.kind });
