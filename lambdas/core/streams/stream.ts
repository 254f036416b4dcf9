// A stream and its life: what it loops, where to, and the state it is in. Pure. The transition table is in
// docs/streams.md; spec: pending (being processed), encoding, started (live); a stream cannot be modified in any
// of those three states.
import { TASK_LEASE } from '../../contract/stream-task';
import { AppError } from '../errors';
import { upcoming } from './schedule';
import type { HealthVerdict, Privacy, StreamHealth, StreamStatus, StreamView } from '../../contract/api/streams';

export type { HealthVerdict, Privacy, StreamHealth, StreamStatus, StreamView };

export const runningStatuses: readonly StreamStatus[] = ['encoding', 'pending', 'started', 'stopping'];

/** The statuses in which a stream's media (its video, audio track and playlist items) may not change: not renamed,
 * re-encoded or deleted, nor forgotten by the stream (spec: a running stream cannot be modified). */
export const mediaLockedStatuses: readonly StreamStatus[] = runningStatuses;

/** Which stream task may publish the run (lambdas/contract/stream-task.ts, TASK_LEASE). Kept on a small item beside
 * the stream's, which only the lifecycle and the task API write. */
export interface RunLease {
  /** The instance holding the lease (the ECS task ARN in AWS), once a task took it. */
  holder?: string;
  /** Until when the holder's lease runs (epoch milliseconds). */
  expiresAt?: number;
  /** When the lease last changed: minted for the next task, taken, renewed or revoked. */
  updatedAt: string;
}

/** What the API shows of a stream without the figures `streamView` derives; the rest of its fields are the entity's. */
type ShownFields = Omit<StreamView, 'hasCustomThumbnail' | 'verdict' | 'attentionMinutes' | 'needsAttention' | 'nextStartAt' | 'nextStopAt'>;

/** A stream as stored: what the API shows of it (lambdas/contract/api/streams.ts) and what only the service sees. */
export interface Stream extends ShownFields {
  userId: string;
  /** A custom thumbnail for YouTube broadcasts (media bucket key); the video's own otherwise. */
  thumbnailKey?: string;
  desired: 'running' | 'stopped';
  /** The current start (one Step Functions execution chain); undefined when stopped. */
  runId?: string;
  /** Step Functions execution carrying the run now (a run hands over to a fresh execution from time to time). */
  executionName?: string;
  /** The run's lease (internal: which task may publish; never shown). */
  lease?: RunLease;
  /** Minutes a running stream may be unhealthy before the creator is told (needs attention); 5 unless set. */
  attentionMinutes?: number;
  /** Since when the running stream has not been healthy (the reconciler keeps it). */
  unhealthySince?: string;
  /** When the creator was told it needs attention (the incident goes on until it is healthy again). */
  attentionSince?: string;
}

/** A run's Step Functions executions are named `<runId>-<generation>`: the first is 0, each handover or relaunch
 * the next, so starting an execution twice is harmless (Step Functions refuses a name in use). */
export const executionNameOf = (runId: string, generation: number) => `${runId}-${generation}`;

/** The name of the execution that continues a run after `current`. */
export function nextExecutionName(current: string): string {
  const match = /^(.*)-(\d+)$/.exec(current);
  if (!match) throw new Error(`not a lifecycle execution name: ${current}`);
  return executionNameOf(match[1]!, Number(match[2]) + 1);
}

/** Spec section 8: each running state has its own refusal. */
export function assertModifiable(stream: Stream): void {
  switch (stream.status) {
    case 'pending':
    case 'stopping':
      throw new AppError('stream pending');
    case 'encoding':
      throw new AppError('stream encoding');
    case 'started':
      throw new AppError('stream started');
    case 'stopped':
      return;
  }
}

/** One word for the Streams page: is the loop on air as it should be? */
export function healthVerdict(stream: Pick<Stream, 'status' | 'health'>, now: Date): HealthVerdict {
  const health = stream.health;
  if (stream.status === 'stopped' || stream.status === 'stopping') return 'offline';
  if (stream.status !== 'started' || !health) return 'recovering';
  // No heartbeat for as long as its lease lasts: the task is gone or cut off; it will be restarted.
  if (now.getTime() - new Date(health.at).getTime() > TASK_LEASE.ttlSeconds * 1000) return 'recovering';
  if (health.actual !== 'started') return 'recovering';
  // Below 0.9x the destination is falling behind; a little under 1 is how a busy machine reads a healthy loop.
  if (health.destinations.some((d) => d.state === 'failed') || health.speed < 0.9) return 'degraded';
  return 'healthy';
}

export const DEFAULT_ATTENTION_MINUTES = 5;

export function streamView(stream: Stream, now: Date): StreamView {
  const {
    userId: _owner,
    runId: _run,
    executionName: _execution,
    lease: _lease,
    desired: _desired,
    thumbnailKey,
    unhealthySince: _unhealthy,
    attentionSince,
    attentionMinutes,
    ...visible
  } = stream;
  return {
    ...visible,
    hasCustomThumbnail: thumbnailKey !== undefined,
    verdict: healthVerdict(stream, now),
    attentionMinutes: attentionMinutes ?? DEFAULT_ATTENTION_MINUTES,
    needsAttention: attentionSince !== undefined,
    ...(attentionSince ? { attentionSince } : {}),
    ...(stream.schedule ? upcoming(stream.schedule, stream.timeZone, now) : {}),
  };
}
