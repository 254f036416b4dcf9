// The reconciler: every minute (EventBridge in AWS, a timer locally) it compares what should run with what runs,
// in the style of a process supervisor's desired vs actual state:
// - a stream task whose run is over, replaced, or whose lease another task holds is an orphan: it is ended;
// - a running stream whose lifecycle execution is gone gets a fresh execution (not counted as a restart: the
//   creator's stream did nothing wrong);
// - a running stream whose task stopped reporting (no heartbeat renewed its lease) is restarted (counted);
// - a stop that did not finish (the API died half-way) is finished;
// - a stream unhealthy for longer than its attention time needs attention: its creator is told, and told again when
//   it recovers.
// Nothing here is needed while everything works; each finding is a metric with an alarm (docs/operations.md).
import { publishState, runOf, stopStream, type StreamsContext } from './streams';
import type { StreamTask } from './ports';
import { DEFAULT_ATTENTION_MINUTES, healthVerdict, nextExecutionName, type Stream } from './stream';

export const RECONCILE_TIMERS = {
  /** A task younger than this may still be starting up and taking its lease. */
  taskGraceMs: 2 * 60_000,
  /** A started stream whose lease was not renewed for this long has a task that stopped reporting (heartbeats
   * renew it every TASK_LEASE.renewSeconds; the lease lasts TASK_LEASE.ttlSeconds). */
  startedStaleMs: 3 * 60_000,
  /** A pending stream waits through backoffs and a task start (on Fargate an image pull can take minutes). */
  pendingStaleMs: 5 * 60_000,
  /** A run younger than this may have an execution Step Functions does not list yet. */
  executionGraceMs: 60_000,
  /** A stop takes seconds; one still `stopping` after this was cut short. */
  stoppingStaleMs: 2 * 60_000,
} as const;

export interface ReconcileOutcome {
  /** Tasks ended because they had no live run, or another task held their run's lease. */
  orphansEnded: number;
  /** Runs whose lifecycle execution was gone: they got a fresh one. */
  relaunched: number;
  /** Runs whose task stopped reporting: restarted. */
  staleRestarted: number;
  /** Stops that had been cut short, finished. */
  stopsFinished: number;
  /** Streams that started to need attention (their creator was told), and that recovered. */
  attention: number;
  recovered: number;
}

/** The last sign of life of a running stream: its lease changed (minted, taken, renewed) or the stream moved. */
const lastSignOfLife = (stream: Stream): number => Math.max(Date.parse(stream.updatedAt), stream.lease ? Date.parse(stream.lease.updatedAt) : 0);

function isOrphan(task: StreamTask, stream: Stream | undefined, now: number): boolean {
  if (!stream || stream.runId !== task.runId || stream.desired !== 'running') return true;
  const holder = stream.lease?.holder;
  return now - Date.parse(task.startedAt) > RECONCILE_TIMERS.taskGraceMs && holder !== task.taskId;
}

/** Moves the run to a fresh execution: the old one is stopped with every task of the stream, the new one starts
 * with PrepareTask. The conditional write on the execution name makes concurrent reconcilers agree on one. With
 * `restart` it counts as a restart the creator sees, with its problem shown. */
export async function relaunch(context: StreamsContext, stream: Stream, restart?: { problem: string }): Promise<boolean> {
  const run = runOf(stream)!;
  const next = { ...run, executionName: nextExecutionName(run.executionName) };
  const now = context.now();
  const moved = await context.streams.setRunState(
    run.userId,
    run.streamId,
    run.runId,
    { status: 'pending', executionName: next.executionName, ...(restart ? { restarts: stream.restarts + 1 } : {}) },
    now,
    run.executionName,
  );
  if (!moved) return false;
  await context.runner.stopExecution(run);
  await context.runner.endStreamTasks(run.streamId, stream.lease?.holder ? [stream.lease.holder] : []);
  if (restart) {
    await context.streams.noteProblem(run.userId, run.streamId, run.runId, restart.problem, now);
    await context.history.record(run.userId, run.streamId, { at: now.toISOString(), kind: 'restarted', reason: restart.problem });
  }
  await context.runner.launch(next);
  if (stream.status !== 'pending') await publishState(context, stream, 'pending');
  return true;
}

export async function reconcileStreams(context: StreamsContext): Promise<ReconcileOutcome> {
  const outcome: ReconcileOutcome = { orphansEnded: 0, relaunched: 0, staleRestarted: 0, stopsFinished: 0, attention: 0, recovered: 0 };
  const known = new Map<string, Stream | undefined>();
  const streamOf = async (userId: string, streamId: string) => {
    const key = `${userId}/${streamId}`;
    if (!known.has(key)) known.set(key, await context.streams.get(userId, streamId));
    return known.get(key);
  };

  const now = context.now().getTime();
  const tasks = await context.runner.tasks();
  const orphans: string[] = [];
  for (const task of tasks) {
    if (isOrphan(task, await streamOf(task.userId, task.streamId), now)) orphans.push(task.taskId);
  }
  if (orphans.length) await context.runner.endTasks(orphans);
  outcome.orphansEnded = orphans.length;

  const executions = await context.runner.runningExecutions();
  for (const { userId, streamId } of await context.streams.running()) {
    const stream = await streamOf(userId, streamId);
    if (!stream?.runId) continue;
    const quietMs = now - lastSignOfLife(stream);
    if (stream.status === 'stopping') {
      if (quietMs > RECONCILE_TIMERS.stoppingStaleMs) {
        await stopStream(context, userId, streamId);
        outcome.stopsFinished++;
      }
      continue;
    }
    if (stream.status !== 'pending' && stream.status !== 'started') continue;
    if (!executions.has(runOf(stream)!.executionName)) {
      if (quietMs > RECONCILE_TIMERS.executionGraceMs && (await relaunch(context, stream))) outcome.relaunched++;
      continue;
    }
    const staleAfter = stream.status === 'started' ? RECONCILE_TIMERS.startedStaleMs : RECONCILE_TIMERS.pendingStaleMs;
    if (quietMs > staleAfter && (await relaunch(context, stream, { problem: 'the stream task stopped reporting' }))) {
      outcome.staleRestarted++;
      continue;
    }
    const change = await watchHealth(context, stream);
    if (change === 'attention') outcome.attention++;
    if (change === 'recovered') outcome.recovered++;
  }
  return outcome;
}

/**
 * Needs attention: a running stream that has not been healthy (live, every destination taking media, at speed) for
 * its attention time (5 minutes unless the creator set another) becomes an incident: the creator is told once, by
 * e-mail and Telegram, and again when it is healthy. Checked every minute by the reconciler.
 */
async function watchHealth(context: StreamsContext, stream: Stream): Promise<'attention' | 'recovered' | undefined> {
  const now = context.now();
  const healthy = healthVerdict(stream, now) === 'healthy';
  const set = (changes: { unhealthySince?: string; attentionSince?: string }) =>
    context.streams.setRunState(stream.userId, stream.id, stream.runId!, changes, now);
  if (healthy) {
    if (!stream.unhealthySince) return undefined;
    if (!(await set({ unhealthySince: '', attentionSince: '' })) || !stream.attentionSince) return undefined;
    const minutes = Math.max(1, Math.round((now.getTime() - Date.parse(stream.unhealthySince)) / 60_000));
    await context.history.record(stream.userId, stream.id, {
      at: now.toISOString(),
      kind: 'recovered',
      durationSeconds: Math.round((now.getTime() - Date.parse(stream.unhealthySince)) / 1000),
    });
    await context.alerts.send(stream.userId, { kind: 'recovered', streamId: stream.id, streamTitle: stream.title, minutes });
    await publishState(context, stream, stream.status);
    return 'recovered';
  }
  if (!stream.unhealthySince) {
    await set({ unhealthySince: now.toISOString() });
    return undefined;
  }
  const attentionMs = (stream.attentionMinutes ?? DEFAULT_ATTENTION_MINUTES) * 60_000;
  if (stream.attentionSince || now.getTime() - Date.parse(stream.unhealthySince) < attentionMs) return undefined;
  if (!(await set({ attentionSince: now.toISOString() }))) return undefined;
  const minutes = Math.round((now.getTime() - Date.parse(stream.unhealthySince)) / 60_000);
  await context.history.record(stream.userId, stream.id, {
    at: now.toISOString(),
    kind: 'needs attention',
    ...(stream.health?.lastError ? { reason: stream.health.lastError } : {}),
  });
  await context.alerts.send(stream.userId, {
    kind: 'needs attention',
    streamId: stream.id,
    streamTitle: stream.title,
    minutes,
    ...(stream.health?.lastError ? { reason: stream.health.lastError } : {}),
  });
  // Open pages refetch the stream: the badge shows at once.
  await publishState(context, stream, stream.status);
  return 'attention';
}
