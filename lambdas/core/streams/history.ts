// What happened to a stream, kept 90 days: starts and stops, when media reached the destinations and when it was
// interrupted, each restart with its reason, scheduled restarts, YouTube broadcast changes, and the incidents a
// creator was told about. From the events: uptime over 24 hours, 7 and 30 days, and outages with their length. Pure.
// What the API answers of it is lambdas/contract/api/history.ts.
import type { HistoryView, Incident, StreamEvent, StreamEventKind, TimelineEntry } from '../../contract/api/history';

export type { HistoryView, Incident, StreamEvent, StreamEventKind, TimelineEntry };

export const HISTORY_RETENTION_DAYS = 90;

export interface StreamHistory {
  record(userId: string, streamId: string, event: StreamEvent): Promise<void>;
  /** The stream's events from `since` on, oldest first. */
  list(userId: string, streamId: string, since: Date): Promise<StreamEvent[]>;
}

const DAY_MS = 24 * 3600 * 1000;
export const UPTIME_WINDOWS = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS } as const;

/** How long a start may take before its wait counts as down time: a Fargate task's launch and image pull take up
 * to about two minutes, the local stack's about two seconds. A stream that went live on time starts at 100 %. */
export const START_ALLOWANCE_MS = 3 * 60 * 1000;

/** Share of the time the stream should have run (started, not stopped) during which media reached its
 * destinations, within [now - windowMs, now]; null when it did not run in the window. The wait from a start to its
 * first media is not counted, up to START_ALLOWANCE_MS. */
export function uptimeShare(events: readonly StreamEvent[], now: Date, windowMs: number): number | null {
  const from = now.getTime() - windowMs;
  const to = now.getTime();
  let running = false;
  let live = false;
  /** Since a start, until its first media: the allowance ends at this time. */
  let startingUntil: number | undefined;
  let since = from;
  let runningMs = 0;
  let liveMs = 0;
  const advance = (until: number) => {
    const start = Math.max(since, from, running && !live && startingUntil !== undefined ? startingUntil : -Infinity);
    const end = Math.min(until, to);
    if (end > start) {
      if (running) runningMs += end - start;
      if (live) liveMs += end - start;
    }
    since = until;
  };
  for (const event of events) {
    const at = Date.parse(event.at);
    if (at > to) break;
    advance(at);
    switch (event.kind) {
      case 'started':
        if (!running) startingUntil = at + START_ALLOWANCE_MS;
        running = true;
        break;
      case 'live':
        running = true;
        live = true;
        startingUntil = undefined;
        break;
      case 'interrupted':
      case 'restarted':
      case 'scheduled restart':
        live = false;
        break;
      case 'stopped':
        running = false;
        live = false;
        startingUntil = undefined;
        break;
      default:
        break;
    }
  }
  advance(to);
  return runningMs > 0 ? liveMs / runningMs : null;
}

export function uptime(events: readonly StreamEvent[], now: Date): Record<keyof typeof UPTIME_WINDOWS, number | null> {
  return {
    day: uptimeShare(events, now, UPTIME_WINDOWS.day),
    week: uptimeShare(events, now, UPTIME_WINDOWS.week),
    month: uptimeShare(events, now, UPTIME_WINDOWS.month),
  };
}

/** The events newest first, each interruption with its length. */
export function timeline(events: readonly StreamEvent[]): TimelineEntry[] {
  const entries: TimelineEntry[] = events.map((event) => ({ ...event }));
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.kind !== 'interrupted' && entry.kind !== 'restarted') continue;
    const end = entries.slice(i + 1).find((next) => next.kind === 'live' || next.kind === 'stopped');
    if (end) entry.durationSeconds = Math.round((Date.parse(end.at) - Date.parse(entry.at)) / 1000);
    else entry.ongoing = true;
  }
  return entries.reverse();
}

/** Kinds a creator reads as incidents on the dashboard. */
export const INCIDENT_KINDS: readonly StreamEventKind[] = ['interrupted', 'restarted', 'needs attention', 'recovered'];

export const HISTORY_VIEW_LIMIT = 200;

export async function historyView(history: StreamHistory, userId: string, streamId: string, now: Date): Promise<HistoryView> {
  const events = await history.list(userId, streamId, new Date(now.getTime() - UPTIME_WINDOWS.month));
  return { uptime: uptime(events, now), events: timeline(events).slice(0, HISTORY_VIEW_LIMIT) };
}

/** The incidents of the user's streams over the last 7 days, newest first (the dashboard's list). */
export async function recentIncidents(
  history: StreamHistory,
  streams: readonly { id: string; userId: string; title: string }[],
  now: Date,
  limit = 50,
): Promise<Incident[]> {
  const since = new Date(now.getTime() - UPTIME_WINDOWS.week);
  const perStream = await Promise.all(
    streams.map(async (stream) =>
      timeline(await history.list(stream.userId, stream.id, since))
        .filter((entry) => INCIDENT_KINDS.includes(entry.kind))
        .map((entry) => ({ ...entry, streamId: stream.id, streamTitle: stream.title })),
    ),
  );
  return perStream
    .flat()
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, limit);
}
