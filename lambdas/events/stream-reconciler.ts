// Scheduled every minute (EventBridge in AWS, a timer in the local stack): what runs is brought back in line with
// what should run (lambdas/core/streams/reconcile.ts). Each finding is a metric; OrphanTasks alarms.
import middy from '@middy/core';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import { countMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import { reconcileStreams, type ReconcileOutcome } from '../core/streams/reconcile';
import { streamsContext } from '../wiring/streams';

export type StreamReconciler = () => Promise<ReconcileOutcome>;

export function createStreamReconciler(deps: () => Deps | Promise<Deps>): StreamReconciler {
  const handle = async () => {
    const outcome = await reconcileStreams(streamsContext(await deps()));
    if (Object.values(outcome).some((count) => count > 0)) logger.warn('streams reconciled', { ...outcome });
    countMetric(metricNames.orphanTasksEnded, outcome.orphansEnded);
    countMetric(metricNames.streamsRelaunched, outcome.relaunched);
    countMetric(metricNames.staleStreamsRestarted, outcome.staleRestarted);
    return outcome;
  };
  return middy().use(observability()).handler(handle) as unknown as StreamReconciler;
}

export const handler = createStreamReconciler(depsFromEnvironment);
