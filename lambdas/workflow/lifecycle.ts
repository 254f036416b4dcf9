// The lifecycle function of the stream state machine (lambdas/contract/stream-lifecycle.ts): told that a run's
// stream task ended, it decides whether to restart it (after how long), hand over to a fresh execution, or stop.
import middy from '@middy/core';
import { depsFromEnvironment, type Deps } from '../adapters/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import { countMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import type { TaskEndedPayload } from '../contract/stream-lifecycle';
import { taskEnded, type LifecycleDecision } from '../core/streams/streams';
import { streamsContext } from '../wiring/streams';

/** A short reason from Step Functions' error for the task: ECS's stop reason or the container's exit code. */
export function taskFailureReason(taskError: TaskEndedPayload['taskError']): string | undefined {
  if (!taskError) return undefined;
  try {
    const cause = JSON.parse(taskError.Cause ?? '{}') as { StoppedReason?: string; Containers?: { ExitCode?: number; Reason?: string }[] };
    const container = cause.Containers?.[0];
    const parts = [cause.StoppedReason, container?.Reason, container?.ExitCode !== undefined ? `exit code ${container.ExitCode}` : undefined];
    return parts.filter(Boolean).join('; ').slice(0, 300) || taskError.Error;
  } catch {
    return taskError.Error ?? 'the stream task failed';
  }
}

export type LifecycleHandler = (payload: TaskEndedPayload) => Promise<LifecycleDecision>;

export function createLifecycleHandler(deps: () => Deps | Promise<Deps>): LifecycleHandler {
  const handle = async (payload: TaskEndedPayload): Promise<LifecycleDecision> => {
    const run = { userId: payload.userId, streamId: payload.streamId, runId: payload.runId };
    logger.appendKeys({ streamId: run.streamId, userId: run.userId });
    const decision = await taskEnded(streamsContext(await deps()), run, taskFailureReason(payload.taskError));
    logger.info('stream task ended', { decision });
    if (decision.action !== 'stop') countMetric(metricNames.streamTaskRestarts);
    return decision;
  };
  return middy<TaskEndedPayload, LifecycleDecision>()
    .use(observability())
    .handler(handle) as unknown as LifecycleHandler;
}

export const handler = createLifecycleHandler(depsFromEnvironment);
