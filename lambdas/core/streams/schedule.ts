// When a stream goes on and off air by itself, in the creator's time zone (the stream's `timeZone`): once (a start at
// a date and time, a stop at a date and time or after a duration, or both), or by a weekly timetable of on-air
// windows. Pure: validation and the next transition across DST switches (wall-clock.ts). A schedule only starts and
// stops: the creator may still start or stop the stream by hand in between; the next transition applies all the
// same. docs/streams.md, Schedules.
import type { OnceSchedule, StreamSchedule, WeeklySchedule, WeeklyWindow } from '../../contract/api/streams';
import { AppError } from '../errors';
import { formatWallTime, parseWallTime } from '../restart-schedule';
import { DAY_MS, MINUTE_MS, instantOfWallClock, isWeekday, wallDateOf, weekdayOfWall, weekdays } from '../wall-clock';

export { weekdays, type Weekday } from '../wall-clock';
export type { OnceSchedule, StreamSchedule, WeeklySchedule, WeeklyWindow };

export type ScheduledAction = 'start' | 'stop';

export interface Transition {
  action: ScheduledAction;
  at: Date;
}

/** The longest one-time run and the most windows a week may have. */
export const SCHEDULE_LIMITS = { maxDurationMinutes: 366 * 24 * 60, maxWindows: 28 } as const;

const WEEK_MINUTES = 7 * 24 * 60;
const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** "2025-11-02T01:30" (or with seconds) as a wall clock in UTC milliseconds; anything else (an offset, a fraction,
 * 31 February) is 'invalid number' naming the field. */
function parseWallDateTime(value: string, field: string): number {
  const match = DATE_TIME_PATTERN.exec(value.trim());
  if (!match) throw new AppError('invalid number', { field, value });
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59 || year < 2000 || year > 2999) {
    throw new AppError('invalid number', { field, value });
  }
  return wall;
}

/** Minutes, and seconds only when there are any. */
const formatWallDateTime = (wall: number) => new Date(wall).toISOString().slice(0, wall % MINUTE_MS ? 19 : 16);

/** A window's minutes within the week, Monday 00:00 = 0; `stop` may pass the week's end (Sunday night). */
function windowMinutes(window: WeeklyWindow): { start: number; stop: number } {
  const start = weekdays.indexOf(window.day) * 24 * 60 + toMinutes(window.start);
  let stop = weekdays.indexOf(window.day) * 24 * 60 + toMinutes(window.stop);
  if (stop <= start) stop += 24 * 60;
  return { start, stop };
}

const toMinutes = (time: string) => {
  const { hour, minute } = parseWallTime(time);
  return hour * 60 + minute;
};

/** A schedule as the API takes it: validated and in one spelling. Whether its times are still ahead is checked
 * separately (assertScheduleAhead), since a stored schedule's start passes while it stays valid. */
export function normalizeSchedule(schedule: StreamSchedule): StreamSchedule {
  if (schedule.kind === 'once') {
    const { startAt, stopAt, durationMinutes } = schedule;
    if (startAt === undefined && stopAt === undefined) throw new AppError('invalid request', { fields: { schedule: 'a start, a stop, or both' } });
    if (durationMinutes !== undefined && (stopAt !== undefined || startAt === undefined)) {
      throw new AppError('invalid request', { fields: { 'schedule.durationMinutes': 'after a start, instead of a stop time' } });
    }
    if (durationMinutes !== undefined && (!Number.isInteger(durationMinutes) || durationMinutes < 1 || durationMinutes > SCHEDULE_LIMITS.maxDurationMinutes)) {
      throw new AppError('invalid number', { field: 'schedule.durationMinutes', value: String(durationMinutes) });
    }
    const start = startAt === undefined ? undefined : parseWallDateTime(startAt, 'schedule.startAt');
    const stop = stopAt === undefined ? undefined : parseWallDateTime(stopAt, 'schedule.stopAt');
    if (start !== undefined && stop !== undefined && stop <= start)
      throw new AppError('schedule stop before start', { field: 'schedule.stopAt', value: stopAt });
    return {
      kind: 'once',
      ...(start !== undefined ? { startAt: formatWallDateTime(start) } : {}),
      ...(stop !== undefined ? { stopAt: formatWallDateTime(stop) } : {}),
      ...(durationMinutes !== undefined ? { durationMinutes } : {}),
    };
  }
  if (schedule.windows.length === 0) throw new AppError('invalid request', { fields: { 'schedule.windows': 'at least one window' } });
  if (schedule.windows.length > SCHEDULE_LIMITS.maxWindows)
    throw new AppError('invalid request', { fields: { 'schedule.windows': `at most ${SCHEDULE_LIMITS.maxWindows} windows` } });
  const windows = schedule.windows.map((window): WeeklyWindow => {
    const day = String(window.day).trim().toLowerCase();
    if (!isWeekday(day)) throw new AppError('invalid number', { field: 'schedule.windows', value: String(window.day) });
    const start = formatWallTime(parseWallTime(window.start, 'schedule.windows'));
    const stop = formatWallTime(parseWallTime(window.stop, 'schedule.windows'));
    if (start === stop) throw new AppError('schedule stop before start', { field: 'schedule.windows', value: `${day} ${start}-${stop}` });
    return { day, start, stop };
  });
  windows.sort((a, b) => windowMinutes(a).start - windowMinutes(b).start);
  // On the week's circle, each window must end before the next begins (touching windows would be a stop and a
  // start at the same instant: one window, written as two).
  windows.forEach((window, index) => {
    const next = windows[(index + 1) % windows.length]!;
    const nextStart = windowMinutes(next).start + (index + 1 === windows.length ? WEEK_MINUTES : 0);
    if (windows.length > 1 && windowMinutes(window).stop >= nextStart) {
      throw new AppError('schedule windows overlap', { field: 'schedule.windows', value: `${next.day} ${next.start}-${next.stop}` });
    }
  });
  return { kind: 'weekly', windows };
}

/** Every transition of the schedule from the wall date of `from` (minus a day, for windows that began the day before)
 * on, for `days` wall dates, in time order. */
function transitionsAround(schedule: StreamSchedule, timeZone: string, from: number, days: number): Transition[] {
  const transitions: Transition[] = [];
  if (schedule.kind === 'once') {
    const start = schedule.startAt === undefined ? undefined : instantOfWallClock(parseWallDateTime(schedule.startAt, 'schedule.startAt'), timeZone);
    if (start !== undefined) transitions.push({ action: 'start', at: new Date(start) });
    const stop =
      schedule.stopAt !== undefined
        ? instantOfWallClock(parseWallDateTime(schedule.stopAt, 'schedule.stopAt'), timeZone)
        : start !== undefined && schedule.durationMinutes !== undefined
          ? start + schedule.durationMinutes * MINUTE_MS
          : undefined;
    if (stop !== undefined) transitions.push({ action: 'stop', at: new Date(stop) });
    return transitions;
  }
  const firstDate = wallDateOf(from, timeZone) - DAY_MS;
  for (let day = 0; day < days; day += 1) {
    const date = firstDate + day * DAY_MS;
    for (const window of schedule.windows) {
      if (window.day !== weekdayOfWall(date)) continue;
      const { start, stop } = windowMinutes(window);
      const dayStart = weekdays.indexOf(window.day) * 24 * 60;
      transitions.push({ action: 'start', at: new Date(instantOfWallClock(date + (start - dayStart) * MINUTE_MS, timeZone)) });
      transitions.push({ action: 'stop', at: new Date(instantOfWallClock(date + (stop - dayStart) * MINUTE_MS, timeZone)) });
    }
  }
  return transitions.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The schedule's first transition strictly after `after`, or undefined when it has none left. */
export function nextTransition(schedule: StreamSchedule, timeZone: string, after: Date): Transition | undefined {
  // Nine wall dates from the day before: a full week of windows after any instant, whatever a DST switch moved.
  return transitionsAround(schedule, timeZone, after.getTime(), 9).find((transition) => transition.at.getTime() > after.getTime());
}

/** The next start and the next stop, for the stream's card. */
export function upcoming(schedule: StreamSchedule, timeZone: string, now: Date): { nextStartAt?: string; nextStopAt?: string } {
  const result: { nextStartAt?: string; nextStopAt?: string } = {};
  let after = now;
  for (let i = 0; i < 3 && !(result.nextStartAt && result.nextStopAt); i += 1) {
    const next = nextTransition(schedule, timeZone, after);
    if (!next) break;
    if (next.action === 'start') result.nextStartAt ??= next.at.toISOString();
    else result.nextStopAt ??= next.at.toISOString();
    after = next.at;
  }
  return result;
}

/**
 * Whether a wake-up for `transition` should act now: the schedule (as it is now, it may have changed since the
 * wake-up was set) has exactly this transition, and no later one has passed already (a wake-up delivered very late
 * does not undo what a later transition did).
 */
export function isDue(schedule: StreamSchedule, timeZone: string, transition: Transition, now: Date): boolean {
  const at = transition.at.getTime();
  const expected = nextTransition(schedule, timeZone, new Date(at - 1));
  if (!expected || expected.action !== transition.action || expected.at.getTime() !== at) return false;
  const following = nextTransition(schedule, timeZone, transition.at);
  return !following || following.at.getTime() > now.getTime();
}

/**
 * A new or changed schedule must still have something to do: a one-time start or stop that has passed is refused
 * ('schedule time passed'), so a creator never saves a schedule that silently does nothing.
 */
/** The schedule as text that does not depend on the order of its keys: the store answers them in its own. */
const canonical = (schedule: StreamSchedule | undefined): string =>
  JSON.stringify(schedule ?? null, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value,
  );

/** Whether two schedules say the same (a stored one and one the editor sends back unchanged). */
export const sameSchedule = (a: StreamSchedule | undefined, b: StreamSchedule | undefined): boolean => canonical(a) === canonical(b);

export function assertScheduleAhead(schedule: StreamSchedule, timeZone: string, now: Date): void {
  if (schedule.kind !== 'once') return;
  for (const transition of transitionsAround(schedule, timeZone, now.getTime(), 0)) {
    if (transition.at.getTime() <= now.getTime()) {
      const field = transition.action === 'start' ? 'schedule.startAt' : schedule.stopAt !== undefined ? 'schedule.stopAt' : 'schedule.durationMinutes';
      throw new AppError('schedule time passed', { field });
    }
  }
}
