import type { TranscodeJob } from './transcoder';
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
  /** The cycle whose upload count goes down by one (a failed transcode does not use up an upload). */
  refundUploadOf?: string;
}

export interface VideoStore {
  /** Writes the new item and counts it against storage and the cycle's uploads in one transaction, so limits
   * hold under concurrency and a retried registration changes nothing. */
  register(video: Video, allowance: UploadAllowance): Promise<RegisterOutcome>;
  get(userId: string, videoId: string): Promise<Video | undefined>;
  list(userId: string): Promise<Video[]>;
  /** Applies changes while the item is still `encoding` (progress, completion, failure); false when it is not
   * (already final, deleted): transcoder updates may repeat and race. In the same write, `usage` moves the storage
   * count and gives the upload back to the cycle named (only while that cycle is still the counted one). */
  updateWhileEncoding(userId: string, videoId: string, changes: Partial<Video>, usage?: UsageChange): Promise<boolean>;
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

/** How the library learns about streams that use an item (lambdas/core/streams). */
export interface StreamLinks {
  /** A stream that is running (pending, encoding or started) uses the item. */
  usedByRunningStream(userId: string, videoId: string): Promise<boolean>;
  /** Stopped streams that named the deleted item forget it (they need another before starting). */
  forget(userId: string, videoId: string): Promise<void>;
  /** Streams waiting (`encoding`) for this item continue: it is ready, or it failed. */
  mediaSettled(userId: string, videoId: string): Promise<void>;
}
