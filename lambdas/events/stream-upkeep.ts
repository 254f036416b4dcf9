// Scheduled every 5 minutes (EventBridge in AWS, a timer in the local stack): stops running streams whose plan ended
// or whose failed payment outlived the 24-hour grace period (nothing stored is deleted), and checks the YouTube
// broadcasts of the others.
import middy from '@middy/core';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import { countMetric, gaugeMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import { upkeep } from '../core/streams/streams';
import { streamsContext } from '../wiring/streams';

export type StreamUpkeep = () => Promise<{ running: number; stopped: number }>;

export function createStreamUpkeep(deps: () => Deps | Promise<Deps>): StreamUpkeep {
  const handle = async () => {
    const outcome = await upkeep(streamsContext(await deps()));
    if (outcome.stopped) logger.info('streams stopped by billing', { stopped: outcome.stopped });
    gaugeMetric(metricNames.streamsRunning, outcome.running - outcome.stopped);
    countMetric(metricNames.streamsStoppedByBilling, outcome.stopped);
    return outcome;
  };
  return middy().use(observability()).handler(handle) as unknown as StreamUpkeep;
}

export const handler = createStreamUpkeep(depsFromEnvironment);
