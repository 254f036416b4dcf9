// What the API answers about media library items (GET /videos, GET /videos/{id}, PATCH and quality changes), built
// by lambdas/core/media/videos.ts and read by the web app. Types only; the output profiles' vocabulary is the pure
// domain's (lambdas/core/media-spec.ts), the error keys the catalogue's (lambdas/core/errors.ts).
import type { ErrorKey } from '../../core/errors';
import type { BitrateTier, MediaKind, OutputFrameRate, OutputLimit, OutputProfileId, QualityChoice } from '../../core/media-spec';

/** uploading happens in the browser (tus); an item exists from the last byte on: encoding, then ready or failed. */
export type VideoStatus = 'encoding' | 'ready' | 'failed';

/** What a video's stream-ready file is: its profile and tier, their numbers, and why it is below what was asked. */
export interface VideoOutput {
  profile: OutputProfileId;
  tier: BitrateTier;
  frameRate: OutputFrameRate;
  /** Video bits per second (the audio's 128 kbit/s come on top). */
  videoBitrate: number;
  limitedBy: OutputLimit[];
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
  /** Videos: what was asked; `output` (once ready) what the file is. */
  quality?: QualityChoice;
  output?: VideoOutput;
  qualityChangeError?: { key: ErrorKey };
  createdAt: string;
}
