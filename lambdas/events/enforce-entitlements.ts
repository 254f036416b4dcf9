// Scheduled (hourly in AWS, every few minutes locally): stops running streams whose plan ended or whose failed
// payment outlived the 24-hour grace period. Nothing stored is deleted.
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { depsFromEnvironment, type Deps } from '../adapters/deps';
import { logger } from '../adapters/logger';
import { enforceEntitlements } from '../core/streams/streams';
import { streamsContext } from '../wiring/streams';

export function createEntitlementEnforcer(deps: () => Deps | Promise<Deps>): () => Promise<{ stopped: number }> {
  const handle = async () => {
    const stopped = await enforceEntitlements(streamsContext(await deps()));
    if (stopped) logger.info('streams stopped by billing', { stopped });
    return { stopped };
  };
  return middy().use(injectLambdaContext(logger, { resetKeys: true })).handler(handle) as unknown as () => Promise<{ stopped: number }>;
}

export const handler = createEntitlementEnforcer(depsFromEnvironment);
