// How a stream's state reads on the Streams page: badges, why it cannot be edited now, its last problem, and its
// figures in the page's language. Pure.
import { isErrorKey, type ErrorKey } from '@loopcast/core/errors';
import { formatTimeOfDay, timeFormat } from '../../lib/format';
import type { HealthVerdict, Stream, StreamStatus, WeeklyWindow } from './api/streams-api';
import { weekdayName } from './schedule-draft';
import { isWeekday } from '@loopcast/core/wall-clock';

/** The colour family of a badge. */
export type Tone = 'good' | 'busy' | 'warning' | 'bad' | 'idle';

export const statusTone: Record<StreamStatus, Tone> = { stopped: 'idle', encoding: 'busy', pending: 'busy', started: 'good', stopping: 'busy' };
export const verdictTone: Record<HealthVerdict, Tone> = { healthy: 'good', degraded: 'warning', recovering: 'busy', offline: 'bad' };

export const isRunning = (status: StreamStatus): boolean => status !== 'stopped';

/**
 * Whether stopping ends a broadcast viewers can see, so Stop asks first: live (`started`), or restarting (`pending`)
 * after it was on air in this run (`startedAt` is set by the run's first live heartbeat and cleared by a start). A
 * stream still starting, or waiting for its video to transcode (`encoding`), has reached nobody yet: one click stops it.
 */
export const isOnAir = (stream: Pick<Stream, 'status' | 'startedAt'>): boolean =>
  stream.status === 'started' || (stream.status === 'pending' && stream.startedAt !== undefined);

/** The API's refusal for editing or deleting a stream in this state (lambdas/core/streams/stream.ts); none when stopped. */
export function lockReason(status: StreamStatus): ErrorKey | undefined {
  switch (status) {
    case 'pending':
    case 'stopping':
      return 'stream pending';
    case 'encoding':
      return 'stream encoding';
    case 'started':
      return 'stream started';
    case 'stopped':
      return undefined;
  }
}

/** A catalogue key is shown translated; anything else is the stream task's own words (ffmpeg's reason). */
export type Problem = { key: ErrorKey } | { reason: string };

/** Catalogue keys the stream task quotes in its own reasons ("destination d1 failed: destination certificate refused
 * (...)"): shown translated, with what to do. */
const quotedKeys: readonly ErrorKey[] = ['destination certificate refused'];

/** Why the stream stopped or cannot run (the stream's `lastError`), else the task's latest trouble while running. */
export function lastProblem(stream: Pick<Stream, 'status' | 'lastError' | 'health'>): Problem | undefined {
  const text = stream.lastError ?? (isRunning(stream.status) ? stream.health?.lastError : undefined);
  if (!text) return undefined;
  if (isErrorKey(text)) return { key: text };
  const quoted = quotedKeys.find((key) => text.includes(key));
  return quoted ? { key: quoted } : { reason: text };
}

/** Restarts of this run: the task restarted by the lifecycle plus ffmpeg restarted by the task. */
export const restartCount = (stream: Pick<Stream, 'restarts' | 'health'>): number => stream.restarts + (stream.health?.taskRestarts ?? 0);

const units = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** "2d 3h", "3h", "4m 5s", "0s" in the language's narrow units (a figure), or "4 min 5 sec" in its short ones (in a
 * sentence): the largest unit that is not zero, and the next one unless it is zero. */
export function formatDuration(totalSeconds: number, locale: string, unitDisplay: 'narrow' | 'short' = 'narrow'): string {
  let rest = Math.max(0, Math.floor(totalSeconds));
  const amounts = units.map(([unit, seconds]) => {
    const amount = Math.floor(rest / seconds);
    rest -= amount * seconds;
    return { unit, amount };
  });
  const first = amounts.findIndex(({ amount }) => amount > 0);
  const shown = first === -1 ? amounts.slice(-1) : amounts.slice(first, first + 2).filter(({ amount }, index) => index === 0 || amount > 0);
  return shown.map(({ unit, amount }) => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay }).format(amount)).join(' ');
}

export const formatBitrate = (kbps: number, locale: string): string =>
  new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilobit-per-second', unitDisplay: 'short', maximumFractionDigits: 0 }).format(kbps);

export const formatDecimal = (value: number, locale: string): string => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);

/** A scheduled restart as the stream's time zone shows it: weekday, time (the app's one time style) and zone ("Sun, 3:00 AM GMT+2", "вс, 03:00 GMT+2"). */
export function formatRestartAt(iso: string, timeZone: string, locale: string): string {
  const date = new Date(iso);
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone }).format(date);
  const zone = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }).formatToParts(date).find((part) => part.type === 'timeZoneName')?.value;
  return `${weekday}, ${timeFormat(locale, timeZone).format(date)}${zone ? ` ${zone}` : ''}`;
}

/** A restart time ('HH:MM' every day, 'mon HH:MM' on Mondays, in the stream's zone) in the app's time style: "4:00 AM",
 * "Mon 4:00 AM". */
function formatRestartTime(time: string, locale: string): string {
  const [day = '', clock] = time.split(' ', 2);
  return clock !== undefined && isWeekday(day) ? `${weekdayName(day, locale)} ${formatTimeOfDay(clock, locale)}` : formatTimeOfDay(time, locale);
}

/** Restart times as a list: "4:00 AM and Sun 4:00 PM". */
export const formatRestartTimes = (times: readonly string[], locale: string): string =>
  new Intl.ListFormat(locale).format(times.map((time) => formatRestartTime(time, locale)));

/** An on-air window of a weekly timetable: "Mon 9:00 AM–5:00 PM", "пн 09:00–17:00". */
export const formatWindow = (window: WeeklyWindow, locale: string): string =>
  `${weekdayName(window.day, locale)} ${formatTimeOfDay(window.start, locale)}–${formatTimeOfDay(window.stop, locale)}`;

/** A schedule's next start or stop in the stream's zone: the weekday within the coming week ("Tue, 9:00 AM GMT+2"),
 * the date further on ("Dec 24, 2026, 9:00 AM GMT+2"). */
export function formatScheduledAt(iso: string, timeZone: string, locale: string, now: number): string {
  if (Date.parse(iso) - now < 6 * 86_400_000) return formatRestartAt(iso, timeZone, locale);
  const date = new Date(iso);
  const zone = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }).formatToParts(date).find((part) => part.type === 'timeZoneName')?.value;
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date)}${zone ? ` ${zone}` : ''}`;
}

/** Seconds live since the run first went on air; undefined unless it is on air now. */
export function uptimeSeconds(stream: Pick<Stream, 'status' | 'startedAt'>, now: number): number | undefined {
  if (stream.status !== 'started' || !stream.startedAt) return undefined;
  return Math.max(0, (now - new Date(stream.startedAt).getTime()) / 1000);
}

/** The preview frame's address with a marker that changes every minute, so the browser fetches the new frame. */
export function frameUrl(url: string, minute: number): string {
  const [path, query] = url.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set('frame', String(minute));
  return `${path}?${params}`;
}

/** A running stream's warning (it keeps streaming: a YouTube grant revoked, a thumbnail YouTube refused). */
export function streamWarning(stream: Pick<Stream, 'status' | 'warning'>): Problem | undefined {
  if (!isRunning(stream.status) || !stream.warning) return undefined;
  return isErrorKey(stream.warning) ? { key: stream.warning } : { reason: stream.warning };
}

/** A moment as the app shows times: the time alone on the day it happened ("2:05 PM", "14:05"), with the date
 * before ("Nov 23, 2026, 2:05 PM"); in the viewer's clock unless `timeZone` names another. */
export function formatMoment(iso: string, locale: string, now: number, timeZone?: string): string {
  const at = Date.parse(iso);
  const day = (instant: number) => new Intl.DateTimeFormat('en-CA', timeZone ? { timeZone } : {}).format(instant);
  if (day(at) === day(now)) return timeFormat(locale, timeZone).format(at);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(at);
}
