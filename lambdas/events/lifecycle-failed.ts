// EventBridge -> "Step Functions Execution Status Change" (FAILED, TIMED_OUT) of the stream lifecycle: the run's
// stream is stopped with a reason instead of staying `pending` for ever. ABORTED executions are stops we asked for.
import middy from '@middy/core';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import type { LifecycleInput } from '../contract/stream-lifecycle';
import { lifecycleFailed } from '../core/streams/lifecycle';
import { streamsContext } from '../wiring/streams';

export interface ExecutionStatusChange {
  detail: { name: string; status: string; input: string | null };
}

export function createLifecycleFailedHandler(deps: () => Deps | Promise<Deps>): (event: ExecutionStatusChange) => Promise<void> {
  const handle = async (event: ExecutionStatusChange) => {
    if (!['FAILED', 'TIMED_OUT'].includes(event.detail.status) || !event.detail.input) return;
    const input = JSON.parse(event.detail.input) as LifecycleInput;
    const run = { userId: input.userId, streamId: input.streamId, runId: input.runId, executionName: event.detail.name };
    if (await lifecycleFailed(streamsContext(await deps()), run)) logger.error('stream lifecycle failed: stream stopped', { ...run });
  };
  return middy<ExecutionStatusChange>().use(observability()).handler(handle) as unknown as (event: ExecutionStatusChange) => Promise<void>;
}

export const handler = createLifecycleFailedHandler(depsFromEnvironment);
