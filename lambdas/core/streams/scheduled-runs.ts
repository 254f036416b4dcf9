// Streams that go on and off air by their schedule (schedule.ts). Each stream with a schedule has exactly one
// wake-up set: its next transition (EventBridge Scheduler in AWS, the local stack's stand-in of it; StreamWakeups).
// When it comes, the transition is applied through the very start and stop the API uses (plan limits are checked
// then, at the moment the stream actually starts), and the next one is set. Nothing polls the streams. docs/streams.md, Schedules.
import { AppError, type ErrorKey } from '../errors';
import {
  assertScheduleAhead,
  isDue,
  nextTransition,
  normalizeSchedule,
  sameSchedule,
  type ScheduledAction,
  type StreamSchedule,
  type Transition,
} from './schedule';
import { publishState, startStream, stopStream, type StreamsContext } from './streams';
import { runningStatuses, type Stream } from './stream';

/** What the schedule's target receives at a wake-up (EventBridge Scheduler's target input). */
export interface ScheduledWakeup {
  userId: string;
  streamId: string;
  action: ScheduledAction;
  /** The transition's instant (ISO 8601); the wake-up may come a little before it, never acted on before it. */
  at: string;
}

/** One wake-up per stream: EventBridge Scheduler in AWS, its local stand-in in the local stack. */
export interface StreamWakeups {
  /** Sets the stream's wake-up, replacing the one it had. */
  arm(wakeup: ScheduledWakeup): Promise<void>;
  /** Removes the stream's wake-up; none set is fine. */
  disarm(streamId: string): Promise<void>;
}

export interface ScheduleStore {
  /** Sets (undefined: removes) the stream's schedule, in any state; false when the stream does not exist. */
  setSchedule(userId: string, streamId: string, schedule: StreamSchedule | undefined, now: Date): Promise<boolean>;
  /** Why a stopped stream did not start by its schedule, shown on it until it starts; false when it is not stopped. */
  noteStartRefused(userId: string, streamId: string, reason: ErrorKey, now: Date): Promise<boolean>;
}

export interface SchedulingContext extends StreamsContext {
  schedules: ScheduleStore;
  wakeups: StreamWakeups;
}

/**
 * Sets the stream's wake-up to its schedule's first transition after `after`, or removes it. A schedule changed while
 * this ran (the creator saved one as a wake-up re-armed) is read again, so the last wake-up set is always the current
 * schedule's.
 */
export async function armNextTransition(context: SchedulingContext, userId: string, streamId: string, after: Date): Promise<Transition | undefined> {
  let stream = await context.streams.get(userId, streamId);
  for (let attempt = 0; attempt < 3 && stream; attempt += 1) {
    const next = stream.schedule ? nextTransition(stream.schedule, stream.timeZone, after) : undefined;
    if (next) await context.wakeups.arm({ userId, streamId, action: next.action, at: next.at.toISOString() });
    else await context.wakeups.disarm(streamId);
    const again = await context.streams.get(userId, streamId);
    if (again && again.timeZone === stream.timeZone && sameSchedule(again.schedule, stream.schedule)) return next;
    stream = again;
  }
  if (!stream) await context.wakeups.disarm(streamId);
  return undefined;
}

/** A stream was created or edited (its time zone may have moved its schedule): its wake-up follows. */
export const streamSaved = (context: SchedulingContext, stream: Pick<Stream, 'userId' | 'id'>) =>
  armNextTransition(context, stream.userId, stream.id, context.now());

/** A stream was deleted: its wake-up goes with it. */
export const streamDeleted = (context: SchedulingContext, streamId: string) => context.wakeups.disarm(streamId);

/** PUT /streams/{id}/schedule: in any state (a schedule only starts and stops; a running stream keeps running until
 * its next transition). A new or changed one-time schedule must still be ahead; null removes the schedule. */
export async function setStreamSchedule(context: SchedulingContext, userId: string, streamId: string, input: StreamSchedule | null): Promise<Stream> {
  const stream = await context.streams.get(userId, streamId);
  if (!stream) throw new AppError('stream not found');
  const schedule = input ? normalizeSchedule(input) : undefined;
  if (schedule && !sameSchedule(schedule, stream.schedule)) assertScheduleAhead(schedule, stream.timeZone, context.now());
  if (!(await context.schedules.setSchedule(userId, streamId, schedule, context.now()))) throw new AppError('stream not found');
  await armNextTransition(context, userId, streamId, context.now());
  const { schedule: _old, ...rest } = stream;
  return { ...rest, ...(schedule ? { schedule } : {}), updatedAt: context.now().toISOString() };
}

export type WakeupOutcome = 'started' | 'stopped' | 'refused' | 'unchanged' | 'stale' | 'gone';

const alreadyRunning: readonly ErrorKey[] = ['stream pending', 'stream encoding', 'stream started'];

/**
 * A wake-up came (at or after its instant: the caller waits for it). If the stream's schedule still has this
 * transition and no later one has passed, the stream is started or stopped as the API would; a start the plan or the
 * stream's media refuses now is kept on the stream with its reason, in its history, and told to the creator. Then the
 * next transition's wake-up is set.
 */
export async function runWakeup(context: SchedulingContext, wakeup: ScheduledWakeup): Promise<WakeupOutcome> {
  const { userId, streamId } = wakeup;
  const stream = await context.streams.get(userId, streamId);
  if (!stream) {
    await context.wakeups.disarm(streamId);
    return 'gone';
  }
  const transition: Transition = { action: wakeup.action, at: new Date(wakeup.at) };
  let outcome: WakeupOutcome = 'stale';
  if (stream.schedule && isDue(stream.schedule, stream.timeZone, transition, context.now())) {
    outcome = transition.action === 'start' ? await scheduledStart(context, stream) : await scheduledStop(context, stream);
  }
  const after = new Date(Math.max(context.now().getTime(), transition.at.getTime()));
  await armNextTransition(context, userId, streamId, after);
  return outcome;
}

async function scheduledStart(context: SchedulingContext, stream: Stream): Promise<WakeupOutcome> {
  if (stream.status !== 'stopped') return 'unchanged';
  try {
    await startStream(context, stream.userId, stream.id, 'schedule');
    return 'started';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (alreadyRunning.includes(error.key)) return 'unchanged';
    if (error.key === 'stream not found') return 'gone';
    const now = context.now();
    await context.schedules.noteStartRefused(stream.userId, stream.id, error.key, now);
    await context.history.record(stream.userId, stream.id, { at: now.toISOString(), kind: 'start refused', reason: error.key });
    await context.alerts.send(stream.userId, { kind: 'scheduled start refused', streamId: stream.id, streamTitle: stream.title, reason: error.key });
    await publishState(context, stream, 'stopped', error.key);
    return 'refused';
  }
}

async function scheduledStop(context: SchedulingContext, stream: Stream): Promise<WakeupOutcome> {
  if (!runningStatuses.includes(stream.status) || stream.status === 'stopping') return 'unchanged';
  await stopStream(context, stream.userId, stream.id, undefined, 'schedule');
  return 'stopped';
}
