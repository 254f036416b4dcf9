import type { TranscodeJob } from './transcoder';
import type { StreamPlaylist } from '../streams/playlist';
import type { StreamStatus } from '../streams/stream';
import type { Video } from './videos';

export interface UploadAllowance {
  /** Storage the plan allows, in bytes. */
  storageBytes: number;
  uploadsPerCycle: number;
  /** The billing cycle uploads are counted in (its start). */
  cycleStart: string;
}

export type RegisterOutcome = 'registered' | 'already registered' | 'storage limit' | 'video upload limit';

export interface UsageChange {
  storedBytesDelta?: number;
  /** The plan's storage: a positive delta that would take the count above it is not written ('storage limit'). */
  storageLimit?: number;
  /** The cycle whose upload count goes down by one (a failed transcode does not use up an upload). */
  refundUploadOf?: string;
}

/** What unfinished uploads will store, counted against the plan's storage from their creation until they end. */
export interface StagingReservations {
  /** The declared lengths of the user's unfinished uploads (expired ones hold nothing), but those named. */
  stagedBytes(userId: string, now: Date, excluding?: readonly string[]): Promise<number>;
  /** Holds `bytes` for the upload until `expiresAt` or its release; false when they do not fit beside what is stored
   * and the other unfinished uploads. Reservations made at the same time cannot both take the last room. */
  reserve(userId: string, uploadId: string, bytes: number, options: { storageLimit: number; expiresAt: Date; now: Date }): Promise<boolean>;
  /** The uploads ended (finished, joined into another, terminated): they hold nothing any more. */
  release(userId: string, uploadIds: readonly string[]): Promise<void>;
}

export interface VideoStore {
  /** Writes the new item and counts it against storage and the cycle's uploads in one transaction, so limits
   * hold under concurrency and a retried registration changes nothing. */
  register(video: Video, allowance: UploadAllowance): Promise<RegisterOutcome>;
  get(userId: string, videoId: string): Promise<Video | undefined>;
  list(userId: string): Promise<Video[]>;
  /** Applies changes while the item is still `encoding` (progress, completion, failure); false when it is not
   * (already final, deleted): transcoder updates may repeat and race. In the same write, `usage` moves the storage
   * count and gives the upload back to the cycle named (only while that cycle is still the counted one);
   * 'storage limit' when the move would pass `usage.storageLimit` (nothing is written). */
  updateWhileEncoding(
    userId: string,
    videoId: string,
    changes: Partial<Video>,
    usage?: UsageChange,
    removed?: readonly (keyof Video)[],
  ): Promise<boolean | 'storage limit'>;
  /** Applies changes (and removes attributes) while the item is `ready` at `revision`; false when it is not (a
   * quality change raced another one, or a delete). */
  updateWhileReady(userId: string, videoId: string, revision: number, changes: Partial<Video>, removed?: readonly (keyof Video)[]): Promise<boolean>;
  rename(userId: string, videoId: string, title: string, now: Date): Promise<void>;
  /** Removes the item and its bytes from the usage count. */
  remove(video: Video): Promise<void>;
}

export interface MediaObjects {
  remove(keys: string[]): Promise<void>;
  read(key: string): Promise<{ body: Uint8Array; contentType: string } | undefined>;
}

export interface TranscodeStarter {
  start(job: TranscodeJob): Promise<string>;
}

/** A stream's use of library items, as the library reads it (lambdas/core/streams). */
export interface StreamMediaUse {
  id: string;
  status: StreamStatus;
  videoId?: string;
  audioId?: string;
  playlist?: StreamPlaylist;
}

/** The streams' items as the library reads and changes them: data only. Which statuses keep a stream's media
 * (`mediaLockedStatuses`) and what waiting streams do once an item settles are decided in core. */
export interface StreamLinks {
  /** The user's streams whose video, audio track or playlist names the item. */
  streamsUsing(userId: string, videoId: string): Promise<StreamMediaUse[]>;
  /** Removes the stream's video or audio track if it still names the item and the stream's status is none of
   * `unlessStatus`; false otherwise. */
  removeMedia(userId: string, streamId: string, field: 'videoId' | 'audioId', videoId: string, unlessStatus: readonly StreamStatus[]): Promise<boolean>;
  /** Sets the stream's playlist and its `videoId` (or removes both) if its playlist is still at `revision` and its
   * status is none of `unlessStatus`; false otherwise. */
  replacePlaylist(
    userId: string,
    streamId: string,
    revision: number,
    next: { playlist: StreamPlaylist; videoId: string } | undefined,
    unlessStatus: readonly StreamStatus[],
  ): Promise<boolean>;
}
