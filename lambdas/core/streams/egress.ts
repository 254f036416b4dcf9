// How many media bytes a stream task sends to its destinations, from its heartbeats: the bitrate each heartbeat
// measured (over the last ~10 s) times the time since the previous heartbeat, once per destination that is up.
// The task API's heartbeat handler reports it as the StreamEgressBytes metric (lambdas/contract/metrics.ts), which
// the ops dashboard turns into egress GB and the estimated cost per stream-month. RTMP and TCP/IP overhead are not
// in it (the dashboard adds the cost model's wire overhead).
import type { StreamHealth } from './stream';

/** A longer gap between heartbeats (a paused or starved task) counts only this long: the bitrate was measured over
 * the last seconds, not over the gap. */
export const EGRESS_MAX_INTERVAL_MS = 30_000;

/** Media bytes sent between the previous heartbeat and this one. */
export function egressBytesBetween(
  previous: Pick<StreamHealth, 'at'>,
  current: Pick<StreamHealth, 'actual' | 'bitrateKbps' | 'destinations' | 'at'>,
  maxIntervalMs = EGRESS_MAX_INTERVAL_MS,
): number {
  if (current.actual !== 'started' || current.bitrateKbps <= 0) return 0;
  const intervalMs = Math.min(Math.max(0, Date.parse(current.at) - Date.parse(previous.at)), maxIntervalMs);
  const destinationsUp = current.destinations.filter((destination) => destination.state === 'ok').length;
  return Math.round(((current.bitrateKbps * 1000) / 8) * (intervalMs / 1000) * destinationsUp);
}
