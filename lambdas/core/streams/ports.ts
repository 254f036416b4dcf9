import type { Channel } from '../channels/channel';
import type { StreamPlaylist } from './playlist';
import type { Stream, StreamHealth, StreamStatus } from './stream';

export interface StreamRun {
  userId: string;
  streamId: string;
  runId: string;
  /** Step Functions execution name of this part of the run. */
  executionName: string;
}

/** A stream task running (or starting) somewhere: an ECS task in AWS, a child process locally. */
export interface StreamTask {
  /** The ECS task ARN in AWS, the local runner's id locally: what a lease holder is named by. */
  taskId: string;
  userId: string;
  streamId: string;
  runId: string;
  /** When it was started (ISO 8601). */
  startedAt: string;
}

/** The lifecycle executions of runs and the tasks they start: Step Functions and ECS in AWS, aws-local-stepfunctions
 * and child processes locally. */
export interface StreamRunner {
  launch(run: StreamRun): Promise<void>;
  /** Ends the execution: it starts no further task. An execution already gone is fine. */
  stopExecution(run: StreamRun): Promise<void>;
  /** Ends every task of the stream this runner can find, the given ones (a lease holder) included, and waits until
   * they are gone (SIGTERM, then killed after the stop timeout). */
  endStreamTasks(streamId: string, taskIds: readonly string[]): Promise<void>;
  /** Names of the executions running now (the reconciler's view). */
  runningExecutions(): Promise<Set<string>>;
  /** Every stream task running or starting now (the reconciler's view). */
  tasks(): Promise<StreamTask[]>;
  /** Ends these tasks and waits until they are gone. */
  endTasks(taskIds: readonly string[]): Promise<void>;
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

/** What the lifecycle and the task API change on a running stream. */
export interface RunStateChanges {
  status?: StreamStatus;
  restarts?: number;
  executionName?: string;
  /** Sets startedAt unless the run already has one. */
  markStarted?: boolean;
  /** An empty string removes the field (here and below). */
  warning?: string;
  unhealthySince?: string;
  attentionSince?: string;
}

/** The caller of the task API: a run's token, and the task instance presenting it. */
export interface TaskCredentials {
  userId: string;
  streamId: string;
  instanceId: string;
  tokenHash: string;
}

export interface StreamStore {
  create(stream: Stream): Promise<void>;
  /** The stream with its run's lease and latest health, read strongly consistent. */
  get(userId: string, streamId: string): Promise<Stream | undefined>;
  list(userId: string): Promise<Stream[]>;
  /** Replaces the editable fields while the stream is stopped; false when it is not (anymore). */
  updateStopped(stream: Stream): Promise<boolean>;
  /** Replaces the playlist of a stream in any state, unless its revision moved from `expectedRevision` meanwhile
   * (another edit); false then. */
  setPlaylist(userId: string, streamId: string, playlist: StreamPlaylist, expectedRevision: number, now: Date): Promise<boolean>;
  /** Deletes while stopped; false when it is running. */
  deleteStopped(userId: string, streamId: string): Promise<boolean>;
  /** stopped -> `status` and one running slot taken, in one transaction: exactly `limit` streams run at once. */
  claimStart(stream: Stream, status: 'encoding' | 'pending', run: { runId: string; executionName: string }, limit: number, now: Date): Promise<ClaimOutcome>;
  /** Moves a running stream of this run between running states; false when the run is over or replaced (or, with
   * `executionName`, carried by another execution). */
  setRunState(userId: string, streamId: string, runId: string, changes: RunStateChanges, now: Date, executionName?: string): Promise<boolean>;
  /** Marks the run wanted stopped (stop requested); false when it is not running. */
  requestStop(userId: string, streamId: string, now: Date): Promise<Stream | undefined>;
  /** Ends the run: stopped, slot released, error kept, the lease gone; idempotent (false when already stopped). */
  finishRun(userId: string, streamId: string, runId: string, lastError: string | undefined, now: Date): Promise<boolean>;
  /** Every running stream of every user (billing enforcement, the reconciler). */
  running(): Promise<{ userId: string; streamId: string }[]>;

  // ---- The run lease (lambdas/contract/stream-task.ts) ----
  /** Before a task of `run` starts: the lease is minted for a new token (any holder revoked), if `run` is still the
   * stream's running run and its execution the current one; undefined otherwise. */
  mintLease(run: StreamRun, tokenHash: string, now: Date): Promise<{ revokedHolder?: string } | undefined>;
  /** The task takes the lease minted for its token: free, already its own, or expired. Answers the run, or
   * undefined when refused. */
  takeLease(caller: TaskCredentials, ttlMs: number, now: Date): Promise<{ runId: string } | undefined>;
  /** The holder renews its lease with its latest health; answers the run and the health it replaced (undefined
   * before the first), or undefined when the caller does not hold the lease. */
  renewLease(caller: TaskCredentials, health: StreamHealth, ttlMs: number, now: Date): Promise<{ runId: string; previous?: StreamHealth } | undefined>;
  /** Whether the caller holds the lease now (a consistent read). */
  holdsLease(caller: TaskCredentials): Promise<boolean>;
  /** The holder stored a preview frame; false when the caller does not hold the lease. */
  notePreview(caller: TaskCredentials, now: Date): Promise<boolean>;
  /** A problem of the run to show until the next heartbeat (the last task's failure), if the lease item exists. */
  noteProblem(userId: string, streamId: string, runId: string, problem: string, now: Date): Promise<void>;
}

export interface ChannelStore {
  create(channel: Channel): Promise<void>;
  /** Replaces an existing channel (new tokens after reconnecting, a revoked grant). */
  update(channel: Channel): Promise<void>;
  get(userId: string, channelId: string): Promise<Channel | undefined>;
  list(userId: string): Promise<Channel[]>;
  delete(userId: string, channelId: string): Promise<void>;
}
