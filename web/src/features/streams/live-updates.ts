// The Streams page changes live through the realtime client (stream.state and stream.heartbeat events update the
// cache). When realtime is quiet for longer than it should be (not connected yet, down, or a state change missed),
// the page asks the API itself. Pure.
import type { StreamStatus } from './api/streams-api';

/**
 * How long a running stream may go without news before the page asks. A live stream's task sends a heartbeat
 * every ~30 s (lambdas/contract/stream-task.ts, TASK_LEASE); starting and stopping take seconds, so those are asked
 * about more often. Stopped streams change
 * only by the user's own actions, which answer with the new state.
 */
export const quietLimitMs: Record<StreamStatus, number | undefined> = {
  stopped: undefined,
  encoding: 5_000,
  pending: 3_000,
  stopping: 3_000,
  started: 45_000,
};

/** Whether some stream has been quiet too long; `lastNewsAt` is when the cache last received anything about it. */
export function refreshDue(streams: readonly { status: StreamStatus; lastNewsAt: number }[], now: number): boolean {
  return streams.some(({ status, lastNewsAt }) => {
    const limit = quietLimitMs[status];
    return limit !== undefined && now - lastNewsAt >= limit;
  });
}
