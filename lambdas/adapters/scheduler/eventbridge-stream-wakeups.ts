// Stream wake-ups on EventBridge Scheduler (lambdas/core/streams/scheduled-runs.ts): one schedule per stream, named by
// it, holding its next transition only as a one-time `at()` expression in UTC (the domain computes the instant, DST
// included), whose target is the schedule function with the wake-up as input. The same adapter talks to the local
// stack's stand-in of the service (local/scheduler.ts).
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { ScheduledWakeup, StreamWakeups } from '../../core/streams/scheduled-runs';

export interface EventBridgeStreamWakeupsOptions {
  scheduler: SchedulerClient;
  /** This stage's schedule group: the schedules' namespace, and what the functions' grants name. */
  groupName: string;
  /** The schedule function (lambdas/events/stream-schedule.ts) and the role Scheduler invokes it with. */
  targetArn: string;
  roleArn: string;
  now?: () => Date;
}

/**
 * Scheduler invokes a target within the minute after its time (60-second precision), so a wake-up is set for the
 * minute before the transition and the function waits for the transition's second. Scheduler refuses a time in the
 * past, so a wake-up is never set sooner than this ahead of now (a transition closer than that may then come up to a
 * minute late in AWS).
 */
export const WAKEUP = { leadSeconds: 60, minAheadSeconds: 5 } as const;

/** One schedule per stream: its id is a UUID, well within the 64 characters of [0-9a-zA-Z-_.] a name may have. */
export const scheduleNameOf = (streamId: string) => `stream-${streamId}`;

const floorToMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/** When the schedule fires for a transition at `at`: a minute ahead, on a whole minute, never in the past. */
export function wakeupTime(at: Date, now: Date): Date {
  const early = floorToMinute(at.getTime() - WAKEUP.leadSeconds * 1000);
  const soonest = Math.ceil((now.getTime() + WAKEUP.minAheadSeconds * 1000) / 1000) * 1000;
  return new Date(Math.max(early, soonest));
}

/** `at(yyyy-mm-ddThh:mm:ss)` of an instant, read in UTC. */
export const atExpression = (instant: Date) => `at(${instant.toISOString().slice(0, 19)})`;

export class EventBridgeStreamWakeups implements StreamWakeups {
  constructor(private readonly options: EventBridgeStreamWakeupsOptions) {}

  /** Updates the stream's schedule in place, or creates it the first time. The schedule stays after it fired
   * (ActionAfterCompletion NONE): the function sets the next transition on this same schedule from inside the
   * invocation, which the service's own deletion after completion could otherwise remove; a schedule with nothing
   * left to do is deleted by disarm. */
  async arm(wakeup: ScheduledWakeup): Promise<void> {
    const now = this.options.now?.() ?? new Date();
    const request: CreateScheduleCommandInput = {
      Name: scheduleNameOf(wakeup.streamId),
      GroupName: this.options.groupName,
      Description: `Loopcast: ${wakeup.action} stream ${wakeup.streamId} at ${wakeup.at}`,
      ScheduleExpression: atExpression(wakeupTime(new Date(wakeup.at), now)),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      State: 'ENABLED',
      Target: {
        Arn: this.options.targetArn,
        RoleArn: this.options.roleArn,
        Input: JSON.stringify(wakeup),
        // The function is idempotent; an hour of retries covers a throttled or briefly failing invoke.
        RetryPolicy: { MaximumRetryAttempts: 20, MaximumEventAgeInSeconds: 3600 },
      },
    };
    try {
      await this.options.scheduler.send(new UpdateScheduleCommand(request));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      try {
        await this.options.scheduler.send(new CreateScheduleCommand(request));
      } catch (createError) {
        // Created meanwhile by a concurrent arm: ours is the newer wake-up.
        if (!(createError instanceof ConflictException)) throw createError;
        await this.options.scheduler.send(new UpdateScheduleCommand(request));
      }
    }
  }

  async disarm(streamId: string): Promise<void> {
    try {
      await this.options.scheduler.send(new DeleteScheduleCommand({ Name: scheduleNameOf(streamId), GroupName: this.options.groupName }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
}
