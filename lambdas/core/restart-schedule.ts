// Scheduled restarts of a stream: wall-clock times in the stream's IANA time zone, every day ("06:00") or on one day
// of the week ("mon 06:00"). Pure: no I/O, the clock is a parameter. Zone arithmetic, DST gaps and repeated hours
// follow wall-clock.ts: a time that a DST switch skips runs as many minutes after the gap as it would have been into
// it; a time that happens twice runs once, at its first occurrence.
import { AppError } from './errors';
import { DAY_MS, formatterFor, instantOfWallClock, isWeekday, wallDateOf, weekdayOfWall, weekdays, type Weekday } from './wall-clock';

export interface RestartSchedule {
  /** Sorted, unique, zero-padded: every day's "HH:MM" first, then "ddd HH:MM" by weekday (Monday first). */
  times: string[];
  timeZone: string;
}

export interface WallTime {
  hour: number;
  minute: number;
}

/** A restart time: every day, or on one weekday only. */
export interface RestartTime extends WallTime {
  day?: Weekday;
}

const TIME_PATTERN = /^(\d{1,2}):(\d{2})$/;
const ENTRY_PATTERN = /^(?:([a-z]{3})\s+)?(\S+)$/;

/** "9:05", " 09:05 " -> { hour: 9, minute: 5 }; anything else (24:00, 12:60, 9.05, 0905) is 'invalid number'. */
export function parseWallTime(value: string, field = 'restartTimes'): WallTime {
  const match = TIME_PATTERN.exec(value.trim());
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (!match || hour > 23 || minute > 59) throw new AppError('invalid number', { field, value });
  return { hour, minute };
}

/** "06:00" (every day) or "mon 06:00", "Sat 9:30" (that weekday only, in English, any case); else 'invalid number'. */
export function parseRestartTime(value: string): RestartTime {
  const match = ENTRY_PATTERN.exec(value.trim().toLowerCase());
  const day = match?.[1];
  if (!match || (day !== undefined && !isWeekday(day))) throw new AppError('invalid number', { field: 'restartTimes', value });
  try {
    return { ...parseWallTime(match[2]!), ...(day ? { day: day as Weekday } : {}) };
  } catch {
    throw new AppError('invalid number', { field: 'restartTimes', value });
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
export const formatWallTime = ({ hour, minute }: WallTime) => `${pad(hour)}:${pad(minute)}`;
const formatRestartTime = (time: RestartTime) => `${time.day ? `${time.day} ` : ''}${formatWallTime(time)}`;

/** Where a restart time sorts: every day's first, then by weekday and time. */
const sortKey = (time: RestartTime) => `${time.day ? weekdays.indexOf(time.day) + 1 : 0}${formatWallTime(time)}`;

/** Validated, zero-padded and sorted. Two entries naming the same minute are 'duplicate restart times': also a
 * weekday's time that every day has already ("06:00" and "mon 06:00"). */
export function normalizeRestartTimes(times: readonly string[]): string[] {
  const parsed = times.map(parseRestartTime);
  const daily = new Set(parsed.filter((time) => !time.day).map(formatWallTime));
  const seen = new Set<string>();
  for (const time of parsed) {
    const text = formatRestartTime(time);
    if (seen.has(text) || (time.day && daily.has(formatWallTime(time)))) {
      throw new AppError('duplicate restart times', { field: 'restartTimes', value: text });
    }
    seen.add(text);
  }
  return parsed.sort((a, b) => sortKey(a).localeCompare(sortKey(b))).map(formatRestartTime);
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

/** The first scheduled restart strictly after `now`, or undefined without restart times. */
export function nextRestartAt(times: readonly string[], timeZone: string, now: Date): Date | undefined {
  if (!times.length) return undefined;
  const restartTimes = times.map(parseRestartTime);
  const today = wallDateOf(now.getTime(), timeZone);
  let next: number | undefined;
  // A weekday's time comes within a week; the day after covers a time pushed past midnight by a gap.
  for (let day = 0; day <= 8; day += 1) {
    const date = today + day * DAY_MS;
    for (const { hour, minute, day: weekday } of restartTimes) {
      if (weekday && weekday !== weekdayOfWall(date)) continue;
      const instant = instantOfWallClock(date + (hour * 60 + minute) * 60_000, timeZone);
      if (instant > now.getTime() && (next === undefined || instant < next)) next = instant;
    }
    if (next !== undefined && next < instantOfWallClock(date, timeZone)) break;
  }
  return next === undefined ? undefined : new Date(next);
}
