// How many media bytes a stream task sends to its destinations, from its heartbeats: the bitrate each heartbeat
// measured (over the last ~10 s) times the time since the previous heartbeat, once per destination that is up.
// Reported about once a minute as the StreamEgressBytes metric (lambdas/contract/metrics.ts), which the ops
// dashboard turns into egress GB and the estimated cost per stream-month. RTMP and TCP/IP overhead are not in it
// (the dashboard adds the cost model's wire overhead). Pure: the caller emits.
import type { Heartbeat } from './heartbeat';

export interface EgressMeterOptions {
  /** Report once this much time has been counted (the last partial interval of a task is not reported). */
  reportEveryMs: number;
  /** A longer gap between heartbeats (a paused or starved task) counts only this long: the bitrate was measured
   * over the last seconds, not over the gap. */
  maxIntervalMs: number;
}

export const defaultEgressMeterOptions: EgressMeterOptions = { reportEveryMs: 60_000, maxIntervalMs: 30_000 };

/** Media bytes sent between the previous heartbeat and this one. */
export function egressBytesBetween(previous: Heartbeat, current: Heartbeat, maxIntervalMs = defaultEgressMeterOptions.maxIntervalMs): number {
  if (current.actual !== 'started' || current.bitrateKbps <= 0) return 0;
  const intervalMs = Math.min(Math.max(0, Date.parse(current.at) - Date.parse(previous.at)), maxIntervalMs);
  const destinationsUp = current.destinations.filter((destination) => destination.state === 'ok').length;
  return Math.round(((current.bitrateKbps * 1000) / 8) * (intervalMs / 1000) * destinationsUp);
}

/** Feeds heartbeats in order; calls `report` with the bytes counted whenever a report is due. */
export function egressMeter(report: (bytes: number) => void, options: EgressMeterOptions = defaultEgressMeterOptions): (heartbeat: Heartbeat) => void {
  let previous: Heartbeat | undefined;
  let bytes = 0;
  let countedMs = 0;
  return (heartbeat) => {
    if (previous) {
      bytes += egressBytesBetween(previous, heartbeat, options.maxIntervalMs);
      countedMs += Math.max(0, Date.parse(heartbeat.at) - Date.parse(previous.at));
    }
    previous = heartbeat;
    if (countedMs < options.reportEveryMs) return;
    if (bytes > 0) report(bytes);
    bytes = 0;
    countedMs = 0;
  };
}
