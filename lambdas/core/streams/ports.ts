import type { Channel } from '../channels/channel';
import type { Stream, StreamHealth, StreamStatus } from './stream';

export interface StreamRun {
  userId: string;
  streamId: string;
  runId: string;
  /** Step Functions execution name of this part of the run. */
  executionName: string;
}

/** Starts and stops the lifecycle of a run: Step Functions in AWS, aws-local-stepfunctions locally. */
export interface StreamRunner {
  launch(run: StreamRun): Promise<void>;
  /** Ends the execution and its task; a run already gone is fine. */
  stop(run: StreamRun): Promise<void>;
}

/**
 * YouTube destinations need a broadcast bound to their reusable liveStream while a run goes on
 * (lambdas/core/youtube/broadcasts.ts); other destinations need nothing, so for them every method does nothing.
 */
export interface BroadcastKeeper {
  /** Before a run's task starts: a ready broadcast per YouTube destination. Throws a catalogued AppError; answers
   * a warning when something optional failed (the thumbnail). */
  prepare(stream: Stream): Promise<string | undefined>;
  /** After a scheduled restart: fresh broadcasts, the old ones completed (YouTube keeps no archive past 12 h). */
  rotate(stream: Stream): Promise<void>;
  /** From time to time while running: broadcasts YouTube ended are made again. Answers a warning to show, if any. */
  check(stream: Stream): Promise<string | undefined>;
  /** The run ended: its broadcasts are completed. Never throws: a stop must always succeed. */
  end(stream: Stream): Promise<void>;
}

export type ClaimOutcome = 'claimed' | 'stream limit' | 'conflict';

export interface StreamStore {
  create(stream: Stream): Promise<void>;
  get(userId: string, streamId: string): Promise<Stream | undefined>;
  list(userId: string): Promise<Stream[]>;
  /** Replaces the editable fields while the stream is stopped; false when it is not (anymore). */
  updateStopped(stream: Stream): Promise<boolean>;
  /** Deletes while stopped; false when it is running. */
  deleteStopped(userId: string, streamId: string): Promise<boolean>;
  /** stopped -> `status` and one running slot taken, in one transaction: exactly `limit` streams run at once. */
  claimStart(stream: Stream, status: 'encoding' | 'pending', run: { runId: string; executionName: string }, limit: number, now: Date): Promise<ClaimOutcome>;
  /** Moves a running stream of this run between running states; false when the run is over or replaced. */
  setRunState(userId: string, streamId: string, runId: string, changes: { status?: StreamStatus; health?: StreamHealth; restarts?: number; executionName?: string; startedAt?: string; warning?: string }, now: Date): Promise<boolean>;
  /** Marks the run wanted stopped (stop requested); false when it is not running. */
  requestStop(userId: string, streamId: string, now: Date): Promise<Stream | undefined>;
  /** Ends the run: stopped, slot released, error kept; idempotent (false when already stopped). */
  finishRun(userId: string, streamId: string, runId: string, lastError: string | undefined, now: Date): Promise<boolean>;
  /** Every running stream of every user (for billing enforcement). */
  running(): Promise<{ userId: string; streamId: string }[]>;
}

export interface ChannelStore {
  create(channel: Channel): Promise<void>;
  /** Replaces an existing channel (new tokens after reconnecting, a revoked grant). */
  update(channel: Channel): Promise<void>;
  get(userId: string, channelId: string): Promise<Channel | undefined>;
  list(userId: string): Promise<Channel[]>;
  delete(userId: string, channelId: string): Promise<void>;
}
