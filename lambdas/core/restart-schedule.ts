// Scheduled restarts of a stream: "HH:MM" wall-clock times in the stream's IANA time zone. Pure: no I/O, the
// clock is a parameter. Time-zone arithmetic uses Intl.DateTimeFormat only (no library), with the same rules as
// Temporal's 'compatible' disambiguation: a time that a DST switch skips (02:30 on a spring-forward night) runs
// as many minutes after the gap as it would have been into it (03:30); a time that happens twice (01:30 on a
// fall-back night) runs once, at its first occurrence.
import { AppError } from './errors';

export interface RestartSchedule {
  /** Sorted, unique, zero-padded "HH:MM". */
  times: string[];
  timeZone: string;
}

interface WallTime {
  hour: number;
  minute: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const TIME_PATTERN = /^(\d{1,2}):(\d{2})$/;

/** "9:05", " 09:05 " -> { hour: 9, minute: 5 }; anything else (24:00, 12:60, 9.05, 0905) is 'invalid number'. */
export function parseRestartTime(value: string): WallTime {
  const match = TIME_PATTERN.exec(value.trim());
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (!match || hour > 23 || minute > 59) throw new AppError('invalid number', { field: 'restartTimes', value });
  return { hour, minute };
}

const pad = (n: number) => String(n).padStart(2, '0');
const formatWallTime = ({ hour, minute }: WallTime) => `${pad(hour)}:${pad(minute)}`;

/** Validated, zero-padded and sorted; two entries naming the same minute are 'duplicate restart times'. */
export function normalizeRestartTimes(times: readonly string[]): string[] {
  const normalized = times.map((time) => formatWallTime(parseRestartTime(time)));
  const duplicate = normalized.find((time, index) => normalized.indexOf(time) !== index);
  if (duplicate) throw new AppError('duplicate restart times', { field: 'restartTimes', value: duplicate });
  return normalized.sort();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The time zone as given (trimmed) when Intl knows it. The user's spelling is kept on purpose: ICU would turn
 * "Europe/Kyiv" into the older "Europe/Kiev". */
export function validateTimeZone(timeZone: string): string {
  const trimmed = timeZone.trim();
  try {
    if (!trimmed) throw new RangeError('empty time zone');
    formatterFor(trimmed);
    return trimmed;
  } catch {
    throw new AppError('invalid number', { field: 'timeZone', value: timeZone });
  }
}

export function normalizeRestartSchedule(schedule: { times: readonly string[]; timeZone: string }): RestartSchedule {
  return { times: normalizeRestartTimes(schedule.times), timeZone: validateTimeZone(schedule.timeZone) };
}

/** The zone's wall clock at `instant`, as if that wall clock were UTC (milliseconds, seconds precision). */
function wallClockMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** Offset of the zone from UTC at `instant` in milliseconds (Kyiv in summer: +3 h). */
function offsetMs(instant: number, timeZone: string): number {
  return wallClockMs(instant, timeZone) - Math.floor(instant / 1000) * 1000;
}

/** The instant at which the zone's wall clock shows `wall` (a wall clock expressed as UTC milliseconds). */
function instantOfWallClock(wall: number, timeZone: string): number {
  // Offsets change at most once within a day around any wall time, so the offsets a day before and a day after
  // are the only candidates.
  const before = offsetMs(wall - DAY_MS, timeZone);
  const after = offsetMs(wall + DAY_MS, timeZone);
  const matches = [wall - before, wall - after].filter((instant) => wallClockMs(instant, timeZone) === wall);
  if (matches.length) return Math.min(...matches); // the first occurrence when the hour repeats
  return wall - before; // skipped by a spring-forward gap: shifted forward by the gap
}

/** The first scheduled restart strictly after `now`, or undefined without restart times. */
export function nextRestartAt(times: readonly string[], timeZone: string, now: Date): Date | undefined {
  if (!times.length) return undefined;
  const wallTimes = times.map(parseRestartTime);
  const today = new Date(wallClockMs(now.getTime(), timeZone));
  let next: number | undefined;
  // Tomorrow always has a candidate after now; the day after covers a time pushed past midnight by a gap.
  for (let day = 0; day <= 2; day += 1) {
    for (const { hour, minute } of wallTimes) {
      const wall = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + day, hour, minute);
      const instant = instantOfWallClock(wall, timeZone);
      if (instant > now.getTime() && (next === undefined || instant < next)) next = instant;
    }
  }
  return next === undefined ? undefined : new Date(next);
}
