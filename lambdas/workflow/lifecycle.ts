// The lifecycle function of the stream state machine (lambdas/contract/stream-lifecycle.ts): PrepareTask (end the
// stream's earlier tasks, mint the next task's lease) and TaskEnded (restart, hand over, or stop).
import middy from '@middy/core';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import { countMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import type { LifecycleDecision, LifecyclePayload, PrepareDecision } from '../contract/stream-lifecycle';
import { prepareTask, taskEnded } from '../core/streams/lifecycle';
import { lifecycleContext } from '../wiring/streams';

export type LifecycleHandler = (payload: LifecyclePayload) => Promise<PrepareDecision | LifecycleDecision>;

export function createLifecycleHandler(deps: () => Deps | Promise<Deps>): LifecycleHandler {
  const handle = async (payload: LifecyclePayload): Promise<PrepareDecision | LifecycleDecision> => {
    logger.appendKeys({ streamId: payload.streamId, userId: payload.userId, executionName: payload.executionName });
    const context = lifecycleContext(await deps());
    if (payload.action === 'prepareTask') {
      const decision = await prepareTask(context, payload);
      // The token goes to the task only, never to a log.
      logger.info('stream task prepared', { decision: decision.action });
      return decision;
    }
    const { decision, restartCounted } = await taskEnded(context, payload);
    logger.info('stream task ended', { decision, restartCounted, taskError: payload.taskError?.Error });
    if (restartCounted) countMetric(metricNames.streamTaskRestarts);
    if (decision.action === 'handover') countMetric(metricNames.lifecycleHandovers);
    return decision;
  };
  return middy<LifecyclePayload, PrepareDecision | LifecycleDecision>().use(observability()).handler(handle) as unknown as LifecycleHandler;
}

export const handler = createLifecycleHandler(depsFromEnvironment);
