// How a stream's history reads on its page (GET /streams/{id}/history): the timeline's entries with their tone, how
// long each trouble lasted, why (a catalogue key, translated; anything else is the task's own words, shown as a
// detail), grouped by day in the viewer's clock; and the uptime shares as percentages. Pure.
import type { StreamEventKind, TimelineEntry } from '@loopcast/contract/api/history';
import { isErrorKey } from '@loopcast/core/errors';
import type { Problem, Tone } from './stream-display';

export type { HistoryView, StreamEventKind, TimelineEntry } from '@loopcast/contract/api/history';

export interface TimelineItem {
  /** Stable within one answer: the API gives at most one event of a kind at one instant. */
  id: string;
  kind: StreamEventKind;
  at: string;
  tone: Tone;
  /** How long the trouble lasted: media gone (interrupted, restarted), the incident (needs attention), the time not
   * healthy (recovered). */
  durationSeconds?: number;
  /** The trouble goes on now. */
  ongoing: boolean;
  reason?: Problem;
  /** Started or stopped by the stream's schedule, not by the creator. */
  bySchedule?: true;
}

/** The history's reason of a start or stop made by the stream's schedule (lambdas/core/streams/history.ts). */
const SCHEDULE_REASON = 'schedule';

const troubleKinds: readonly StreamEventKind[] = ['interrupted', 'restarted', 'needs attention'];

function toneOf(entry: TimelineEntry): Tone {
  switch (entry.kind) {
    case 'live':
    case 'recovered':
      return 'good';
    case 'interrupted':
    case 'restarted':
    case 'needs attention':
    case 'start refused':
      return 'warning';
    case 'broadcast':
    case 'stopped':
      return entry.reason && entry.reason !== SCHEDULE_REASON ? 'warning' : 'idle';
    case 'started':
    case 'scheduled restart':
      return 'idle';
  }
}

export const problemOf = (reason: string | undefined): Problem | undefined => (reason ? (isErrorKey(reason) ? { key: reason } : { reason }) : undefined);

/**
 * The timeline (newest first, as the API answers it) as the page shows it. The API gives interruptions and restarts
 * their length; an incident ("needs attention") lasts until the stream recovered or stopped, found here among the
 * newer entries.
 */
export function timelineItems(entries: readonly TimelineEntry[]): TimelineItem[] {
  return entries.map((entry, index) => {
    let durationSeconds = entry.durationSeconds;
    let ongoing = entry.ongoing === true;
    if (entry.kind === 'needs attention') {
      const end = entries.slice(0, index).findLast((newer) => newer.kind === 'recovered' || newer.kind === 'stopped');
      if (end) durationSeconds = Math.round((Date.parse(end.at) - Date.parse(entry.at)) / 1000);
      else ongoing = true;
    }
    const bySchedule = entry.reason === SCHEDULE_REASON && (entry.kind === 'started' || entry.kind === 'stopped');
    const reason = bySchedule ? undefined : problemOf(entry.reason);
    return {
      id: `${entry.at}:${entry.kind}`,
      kind: entry.kind,
      at: entry.at,
      tone: toneOf(entry),
      ...(durationSeconds !== undefined ? { durationSeconds } : {}),
      ongoing: ongoing && troubleKinds.includes(entry.kind),
      ...(reason ? { reason } : {}),
      ...(bySchedule ? { bySchedule } : {}),
    };
  });
}

export interface TimelineDay {
  /** 'YYYY-MM-DD' in the viewer's clock. */
  day: string;
  /** 0 for today, 1 for yesterday, more for earlier days. */
  daysAgo: number;
  items: TimelineItem[];
}

const dayOf = (instant: number, timeZone: string | undefined): string =>
  new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...(timeZone ? { timeZone } : {}) }).format(instant);

/** The items by day in the viewer's clock, newest day first. */
export function groupByDay(items: readonly TimelineItem[], now: number, timeZone?: string): TimelineDay[] {
  const days: TimelineDay[] = [];
  const today = Date.parse(`${dayOf(now, timeZone)}T00:00:00Z`);
  for (const item of items) {
    const day = dayOf(Date.parse(item.at), timeZone);
    const last = days.at(-1);
    if (last?.day === day) last.items.push(item);
    else days.push({ day, daysAgo: Math.round((today - Date.parse(`${day}T00:00:00Z`)) / 86_400_000), items: [item] });
  }
  return days;
}

/** A day's heading: the weekday and date in the page's language ("Monday, November 23"). */
export const formatDay = (day: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(Date.parse(`${day}T00:00:00Z`));

/**
 * An uptime share as a percentage, rounded down to a tenth, so a window with any time off air never reads as
 * 100 % ("99.9 %", "99,9 %").
 */
export function formatUptime(share: number, locale: string): string {
  const tenths = Math.floor(share * 1000) / 1000;
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(tenths);
}
