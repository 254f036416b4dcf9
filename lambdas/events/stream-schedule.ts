// The target of the streams' schedules (EventBridge Scheduler in AWS, its stand-in in the local stack): a stream's
// wake-up comes up to two minutes early (Scheduler fires within the minute after the time it was set to, and it is set
// a minute ahead, lambdas/adapters/scheduler/), so the function waits for the transition's second, then starts or
// stops the stream as the API would and sets the next wake-up (lambdas/core/streams/scheduled-runs.ts).
import middy from '@middy/core';
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { countMetric, secondsMetric } from '../adapters/metrics';
import { observability } from '../adapters/observability';
import { metricNames } from '../contract/metrics';
import { runWakeup, type WakeupOutcome } from '../core/streams/scheduled-runs';
import { schedulingContext } from '../wiring/streams';

const wakeupSchema = z.object({
  userId: z.string().min(1).max(64),
  streamId: z.string().min(1).max(64),
  action: z.enum(['start', 'stop']),
  at: z.iso.datetime(),
});

/** The longest wait for a transition's second: a wake-up never comes earlier than this (its function's timeout is
 * longer). */
export const MAX_EARLY_MS = 150_000;

export type StreamScheduleHandler = (event: unknown) => Promise<WakeupOutcome>;

export function createStreamScheduleHandler(deps: () => Deps | Promise<Deps>): StreamScheduleHandler {
  const handle = async (event: unknown): Promise<WakeupOutcome> => {
    const wakeup = wakeupSchema.parse(event);
    const resolved = await deps();
    const early = Date.parse(wakeup.at) - resolved.now().getTime();
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(early, MAX_EARLY_MS)));
    secondsMetric(metricNames.scheduledTransitionLagSeconds, Math.max(0, (resolved.now().getTime() - Date.parse(wakeup.at)) / 1000));
    const outcome = await runWakeup(schedulingContext(resolved), wakeup);
    logger.info('stream schedule', { streamId: wakeup.streamId, action: wakeup.action, at: wakeup.at, outcome });
    if (outcome === 'started') countMetric(metricNames.scheduledStarts);
    if (outcome === 'stopped') countMetric(metricNames.scheduledStops);
    if (outcome === 'refused') countMetric(metricNames.scheduledStartsRefused);
    return outcome;
  };
  return middy().use(observability()).handler(handle) as unknown as StreamScheduleHandler;
}

export const handler = createStreamScheduleHandler(depsFromEnvironment);
