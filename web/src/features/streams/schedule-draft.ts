// Editing a stream's schedule (PUT /streams/{id}/schedule, `schedule` of POST /streams): none (only by hand), once
// (a start, and a stop at a time or after a duration), or a weekly timetable of on-air windows. The API validates it
// (a time already passed, a stop before the start, overlapping windows are its 422s, naming the field); the form
// shows its refusal there. Pure.
import type { StreamSchedule } from '@loopcast/contract/api/streams';
import type { Weekday } from '@loopcast/core/wall-clock';
import { wallClockMs, weekdays } from '@loopcast/core/wall-clock';

export { weekdays, type Weekday };

export type ScheduleMode = 'none' | 'once' | 'weekly';
export type StopMode = 'none' | 'at' | 'after';

export interface WindowRow {
  /** Stable identity of the row while its values change. */
  id: number;
  day: Weekday;
  start: string;
  stop: string;
}

export interface ScheduleDraft {
  mode: ScheduleMode;
  /** 'YYYY-MM-DDTHH:MM' as a datetime-local input gives it, in the stream's time zone; '' starts by hand. */
  startAt: string;
  stopMode: StopMode;
  stopAt: string;
  /** As typed in the number fields. */
  durationHours: string;
  durationMinutes: string;
  windows: WindowRow[];
}

/** The wall clock of a zone at an instant as a datetime-local value, to the minute. */
export const wallDateTime = (instant: number, timeZone: string): string => new Date(wallClockMs(instant, timeZone)).toISOString().slice(0, 16);

/** A new one-time start's suggestion: the next whole hour in the stream's zone. */
export const suggestedStart = (now: number, timeZone: string): string => {
  const wall = wallClockMs(now, timeZone);
  return new Date(Math.floor(wall / 3_600_000) * 3_600_000 + 3_600_000).toISOString().slice(0, 16);
};

const firstWindow = (): WindowRow => ({ id: 1, day: 'mon', start: '09:00', stop: '17:00' });

/** The stream's schedule to edit; a stream without one gets the parts a creator starts from when picking a mode. */
export function scheduleDraftOf(schedule: StreamSchedule | undefined, now: number, timeZone: string): ScheduleDraft {
  const draft: ScheduleDraft = {
    mode: 'none',
    startAt: suggestedStart(now, timeZone),
    stopMode: 'none',
    stopAt: '',
    durationHours: '1',
    durationMinutes: '0',
    windows: [firstWindow()],
  };
  if (schedule?.kind === 'once') {
    const minutes = schedule.durationMinutes;
    return {
      ...draft,
      mode: 'once',
      startAt: schedule.startAt ?? '',
      stopMode: schedule.stopAt ? 'at' : minutes !== undefined ? 'after' : 'none',
      stopAt: schedule.stopAt ?? '',
      ...(minutes !== undefined ? { durationHours: String(Math.floor(minutes / 60)), durationMinutes: String(minutes % 60) } : {}),
    };
  }
  if (schedule?.kind === 'weekly') return { ...draft, mode: 'weekly', windows: schedule.windows.map((window, index) => ({ id: index + 1, ...window })) };
  return draft;
}

/** What the API gets: null when the stream runs only by hand. */
export function scheduleOf(draft: ScheduleDraft): StreamSchedule | null {
  switch (draft.mode) {
    case 'none':
      return null;
    case 'once': {
      const minutes = (Number(draft.durationHours) || 0) * 60 + (Number(draft.durationMinutes) || 0);
      return {
        kind: 'once',
        ...(draft.startAt ? { startAt: draft.startAt } : {}),
        ...(draft.stopMode === 'at' && draft.stopAt ? { stopAt: draft.stopAt } : {}),
        ...(draft.stopMode === 'after' ? { durationMinutes: minutes } : {}),
      };
    }
    case 'weekly':
      return { kind: 'weekly', windows: draft.windows.map(({ day, start, stop }) => ({ day, start, stop })) };
  }
}

/** A schedule in one spelling, its keys in one order: the stored one may come back with its keys in another (DynamoDB
 * keeps no order in a map). */
function canonical(schedule: StreamSchedule | null | undefined): string {
  if (!schedule) return 'null';
  if (schedule.kind === 'weekly') return JSON.stringify({ kind: 'weekly', windows: schedule.windows.map(({ day, start, stop }) => ({ day, start, stop })) });
  const { startAt, stopAt, durationMinutes } = schedule;
  return JSON.stringify({ kind: 'once', startAt, stopAt, durationMinutes });
}

/** Whether saving must send the schedule: it differs from the stream's. */
export const scheduleChanged = (saved: StreamSchedule | undefined, draft: ScheduleDraft): boolean => canonical(scheduleOf(draft)) !== canonical(saved);

/** What the form itself finds wrong with a draft (streams.schedule.check.* in the catalogues). */
export type ScheduleCheck = 'nothingScheduled' | 'durationNeedsStart' | 'noDuration' | 'noWindows' | 'startPassed' | 'stopPassed' | 'stopBeforeStart';

/** The part of the schedule a check is about, as the API names it in its refusals; none: the schedule as a whole. */
export const checkPath = (check: ScheduleCheck): string | undefined =>
  check === 'startPassed'
    ? 'schedule.startAt'
    : check === 'stopPassed' || check === 'stopBeforeStart'
      ? 'schedule.stopAt'
      : check === 'noDuration'
        ? 'schedule.durationMinutes'
        : undefined;

/** What the times of a one-time schedule are checked against: the stream's saved schedule (only a changed schedule
 * must lie ahead, as the API judges it), the time now and the stream's zone. */
export interface ScheduleCheckContext {
  saved: StreamSchedule | undefined;
  now: number;
  timeZone: string;
}

/** 'YYYY-MM-DDTHH:MM[:SS]' with its seconds, comparable as text. */
const toSeconds = (value: string) => (value.length === 16 ? `${value}:00` : value);

/** The zone's wall clock now to the second, or undefined for a zone Intl does not know (the API's to refuse). */
function wallNow(now: number, timeZone: string): string | undefined {
  try {
    return new Date(wallClockMs(now, timeZone)).toISOString().slice(0, 19);
  } catch {
    return undefined;
  }
}

/** What keeps the schedule from being sent before the API is asked: a one-time schedule with neither a start nor a
 * stop, a duration without a start or of nothing, a stop not after its start, or a timetable without windows. With
 * `context`, also a one-time time that has passed, but only when the schedule differs from the saved one: the API
 * keeps an unchanged schedule whose times are behind it (a finished "Once" never blocks other edits), and refuses a
 * new or changed one that has a time already past ('schedule time passed'). */
export function scheduleCheck(draft: ScheduleDraft, context?: ScheduleCheckContext): ScheduleCheck | undefined {
  if (draft.mode === 'once') {
    if (!draft.startAt && draft.stopMode === 'after') return 'durationNeedsStart';
    if (!draft.startAt && (draft.stopMode === 'none' || (draft.stopMode === 'at' && !draft.stopAt))) return 'nothingScheduled';
    if (draft.stopMode === 'after' && (Number(draft.durationHours) || 0) * 60 + (Number(draft.durationMinutes) || 0) <= 0) return 'noDuration';
    const stopAt = draft.stopMode === 'at' && draft.stopAt ? toSeconds(draft.stopAt) : undefined;
    if (draft.startAt && stopAt && stopAt <= toSeconds(draft.startAt)) return 'stopBeforeStart';
    const now = context && scheduleChanged(context.saved, draft) ? wallNow(context.now, context.timeZone) : undefined;
    if (now !== undefined) {
      if (draft.startAt && toSeconds(draft.startAt) <= now) return 'startPassed';
      if (stopAt && stopAt <= now) return 'stopPassed';
    }
  }
  if (draft.mode === 'weekly' && draft.windows.length === 0) return 'noWindows';
  return undefined;
}

const nextId = (rows: readonly WindowRow[]) => Math.max(0, ...rows.map((row) => row.id)) + 1;

/** A new window: the day after the last one, at its times (a weekday timetable is the common case). */
export function addWindow(rows: readonly WindowRow[]): WindowRow[] {
  const last = rows.at(-1);
  if (!last) return [firstWindow()];
  const day = weekdays[(weekdays.indexOf(last.day) + 1) % 7]!;
  return [...rows, { ...last, id: nextId(rows), day }];
}

export const changeWindow = (rows: readonly WindowRow[], id: number, changes: Partial<Omit<WindowRow, 'id'>>): WindowRow[] =>
  rows.map((row) => (row.id === id ? { ...row, ...changes } : row));

export const removeWindow = (rows: readonly WindowRow[], id: number): WindowRow[] => rows.filter((row) => row.id !== id);

/** A weekday's name in the page's language, "Mon" / "пн" (short) or "Monday" (long): 2001-01-01 was a Monday. */
export const weekdayName = (day: Weekday, locale: string, width: 'short' | 'long' = 'short'): string =>
  new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(Date.UTC(2001, 0, 1 + weekdays.indexOf(day)));
