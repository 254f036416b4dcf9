// The decisions of the stream lifecycle (lambdas/contract/stream-lifecycle.ts): before each task (PrepareTask) and
// after it (TaskEnded), and when the execution itself failed. docs/streams.md has the table.
import { fargateDisk, fargateEphemeralStorageGiB } from '../../contract/data-planes';
import {
  HANDOVER_AFTER_SECONDS,
  LEASE_LOST_EXIT_CODE,
  ROUNDS_PER_EXECUTION,
  type FargateTaskOverrides,
  type LifecycleDecision,
  type PrepareDecision,
  type PrepareTaskPayload,
  type TaskEndedPayload,
} from '../../contract/stream-lifecycle';
import { hashToken, newToken } from '../accounts/tokens';
import { publishState, type StreamsContext } from './streams';
import type { StreamRun } from './ports';
import { streamVideoIds } from './playlist';
import { nextExecutionName, type Stream } from './stream';

export type LifecycleContext = Pick<StreamsContext, 'streams' | 'videos' | 'runner' | 'realtime' | 'now' | 'broadcasts' | 'history'> & {
  /** Where stream tasks reach the task API (the public API's base URL). */
  taskApiUrl: string;
};

/** Is this execution the one carrying this stream's running run? A stopped run, a replaced run, or an execution the
 * run has moved on from (handover, relaunch by the reconciler) must not start or restart anything. */
export function carriesRun(stream: Stream | undefined, run: StreamRun): stream is Stream {
  return (
    !!stream &&
    stream.runId === run.runId &&
    stream.desired === 'running' &&
    stream.executionName === run.executionName &&
    (stream.status === 'pending' || stream.status === 'started')
  );
}

/** How long to wait before the next task: 1 s, doubling to a minute, with up to 20 % jitter so streams that
 * failed together do not restart in lockstep. Whole seconds: a Wait state's SecondsPath must be an integer. */
export function restartDelaySeconds(restarts: number, random: () => number = Math.random): number {
  const base = Math.min(2 ** Math.max(0, restarts - 1), 60);
  return Math.round(base * (1 + 0.2 * random()));
}

/** A task that ran this long before it ended restarts at once: the backoff is for tasks that keep failing. */
const HEALTHY_RUN_SECONDS = 300;

interface EcsStopCause {
  StoppedReason?: string;
  Containers?: { ExitCode?: number; Reason?: string }[];
}

function parseCause(taskError: TaskEndedPayload['taskError']): EcsStopCause | undefined {
  try {
    return JSON.parse(taskError?.Cause ?? '') as EcsStopCause;
  } catch {
    return undefined;
  }
}

/** A short reason from Step Functions' error for the task: ECS's stop reason or the container's exit code. */
export function taskFailureReason(taskError: TaskEndedPayload['taskError']): string | undefined {
  if (!taskError) return undefined;
  const cause = parseCause(taskError);
  const container = cause?.Containers?.[0];
  const parts = [cause?.StoppedReason, container?.Reason, container?.ExitCode !== undefined ? `exit code ${container.ExitCode}` : undefined];
  return parts.filter(Boolean).join('; ').slice(0, 300) || taskError.Error || 'the stream task failed';
}

/**
 * Why a round ended, and whether it is the stream's problem:
 * - `renewal`: the round reached its TimeoutSeconds (a task that looped for months): the execution renews itself;
 * - `superseded`: the task did not (or no longer) hold the run's lease (exit LEASE_LOST_EXIT_CODE);
 * - `ended`: the task stopped cleanly although nobody asked (ECS maintenance, a Spot interruption);
 * - `failed`: it crashed, was killed, could not start, or its host went away.
 * Only `ended` and `failed` interrupted a stream that should have run: they are the restarts a creator sees.
 */
export function classifyTaskEnd(taskError: TaskEndedPayload['taskError']): { kind: 'renewal' | 'superseded' | 'ended' | 'failed'; reason?: string } {
  if (!taskError) return { kind: 'ended' };
  if (taskError.Error === 'States.Timeout') return { kind: 'renewal' };
  if (parseCause(taskError)?.Containers?.[0]?.ExitCode === LEASE_LOST_EXIT_CODE) return { kind: 'superseded' };
  return { kind: 'failed', reason: taskFailureReason(taskError) };
}

/** A Fargate task's disk for this media: nothing beyond the task definition (the free 20 GiB) when it fits, else an
 * ephemeral storage override (lambdas/contract/data-planes.ts). */
export function fargateOverridesFor(media: { videoBytes: number; audioBytes?: number }): FargateTaskOverrides {
  const sizeInGiB = fargateEphemeralStorageGiB(media);
  return sizeInGiB > fargateDisk.freeGiB ? { EphemeralStorage: { SizeInGiB: sizeInGiB } } : {};
}

/** The stream-ready files a task downloads (their sizes as transcoded; an item without one counts what it stores). */
async function mediaOf(context: LifecycleContext, stream: Stream): Promise<{ videoBytes: number; audioBytes?: number }> {
  // A playlist's items are all on the disk at once.
  const [audio, ...videos] = await Promise.all(
    [stream.audioId, ...streamVideoIds(stream)].map((id) => (id ? context.videos.get(stream.userId, id) : undefined)),
  );
  const bytes = (item: typeof audio) => item?.sizeBytes ?? item?.storedBytes ?? 0;
  return { videoBytes: videos.reduce((sum, video) => sum + bytes(video), 0), ...(audio ? { audioBytes: bytes(audio) } : {}) };
}

/** PrepareTask: every earlier task of the stream is ended and the lease minted for the next task's token, so the
 * next task is the only one that may publish. The task's Fargate disk is sized to its media. */
export async function prepareTask(context: LifecycleContext, payload: PrepareTaskPayload): Promise<PrepareDecision> {
  const run: StreamRun = { userId: payload.userId, streamId: payload.streamId, runId: payload.runId, executionName: payload.executionName };
  const stream = await context.streams.get(run.userId, run.streamId);
  if (!carriesRun(stream, run)) return { action: 'stop' };
  const holder = stream.lease?.holder;
  await context.runner.endStreamTasks(run.streamId, holder ? [holder] : []);
  const token = newToken();
  const minted = await context.streams.mintLease(run, hashToken(token), context.now());
  if (!minted) return { action: 'stop' };
  // A task that took the lease between our read and the mint (it was still starting) is ended too.
  if (minted.revokedHolder && minted.revokedHolder !== holder) await context.runner.endTasks([minted.revokedHolder]);
  return { action: 'run', token, apiUrl: context.taskApiUrl, fargateOverrides: fargateOverridesFor(await mediaOf(context, stream)) };
}

export interface TaskEndedOutcome {
  decision: LifecycleDecision;
  /** The stream was interrupted by a real failure (the creator's restart count went up). */
  restartCounted: boolean;
}

/** TaskEnded: restart the task (after a backoff for real failures), hand over to a fresh execution, or stop. */
export async function taskEnded(context: LifecycleContext, payload: TaskEndedPayload, random: () => number = Math.random): Promise<TaskEndedOutcome> {
  const run: StreamRun = { userId: payload.userId, streamId: payload.streamId, runId: payload.runId, executionName: payload.executionName };
  const stop = { decision: { action: 'stop' }, restartCounted: false } as const;
  const stream = await context.streams.get(run.userId, run.streamId);
  if (!carriesRun(stream, run)) return stop;

  const end = classifyTaskEnd(payload.taskError);
  const now = context.now();
  const ageSeconds = (now.getTime() - Date.parse(payload.executionStartedAt)) / 1000;
  const handover = end.kind === 'renewal' || ageSeconds >= HANDOVER_AFTER_SECONDS || payload.round + 1 >= ROUNDS_PER_EXECUTION;
  const counted = end.kind === 'ended' || end.kind === 'failed';
  const restarts = stream.restarts + (counted ? 1 : 0);
  const executionName = handover ? nextExecutionName(run.executionName) : undefined;
  const moved = await context.streams.setRunState(
    run.userId,
    run.streamId,
    run.runId,
    { status: 'pending', restarts, ...(executionName ? { executionName } : {}) },
    now,
    run.executionName,
  );
  if (!moved) return stop;
  if (counted) {
    if (end.reason) await context.streams.noteProblem(run.userId, run.streamId, run.runId, end.reason, now);
    await context.history.record(run.userId, run.streamId, { at: now.toISOString(), kind: 'restarted', ...(end.reason ? { reason: end.reason } : {}) });
  }
  if (stream.status !== 'pending') await publishState(context, stream, 'pending');
  if (executionName) return { decision: { action: 'handover', executionName }, restartCounted: counted };
  const healthyBefore = (stream.health?.uptimeSeconds ?? 0) >= HEALTHY_RUN_SECONDS;
  const delaySeconds = counted && !healthyBefore ? restartDelaySeconds(restarts, random) : 1;
  return { decision: { action: 'restart', delaySeconds }, restartCounted: counted };
}

/** The run's lifecycle execution itself failed (not a task: the state machine). Without this the stream would
 * look `pending` for ever; it is stopped with the reason, and the user can start it again. */
export async function lifecycleFailed(context: Omit<LifecycleContext, 'taskApiUrl'>, run: StreamRun): Promise<boolean> {
  const stream = await context.streams.get(run.userId, run.streamId);
  if (!stream || stream.runId !== run.runId || stream.executionName !== run.executionName) return false;
  await context.runner.endStreamTasks(run.streamId, stream.lease?.holder ? [stream.lease.holder] : []);
  const finished = await context.streams.finishRun(run.userId, run.streamId, run.runId, 'service unavailable', context.now());
  if (finished) {
    await context.history.record(run.userId, run.streamId, { at: context.now().toISOString(), kind: 'stopped', reason: 'service unavailable' });
    await context.broadcasts.end(stream);
    await publishState(context, stream, 'stopped', 'service unavailable');
  }
  return finished;
}
