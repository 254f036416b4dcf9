// Wall clocks of IANA time zones: what a zone's clock shows at an instant, and the instant at which it shows a given
// time. Pure; Intl.DateTimeFormat only (no library), with the rules of Temporal's 'compatible' disambiguation: a wall
// time that a DST switch skips (02:30 on a spring-forward night) is as many minutes after the gap as it would have
// been into it (03:30); a wall time that happens twice (01:30 on a fall-back night) is its first occurrence.
// Restart times (restart-schedule.ts) and stream schedules (streams/schedule.ts) are computed with it.

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;

/** Days of the week as the API spells them, Monday first (ISO 8601). */
export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

export const isWeekday = (value: string): value is Weekday => (weekdays as readonly string[]).includes(value);

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter of the zone's wall clock; throws a RangeError for a zone Intl does not know. */
export function formatterFor(timeZone: string): Intl.DateTimeFormat {
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

/** The zone's wall clock at `instant`, as if that wall clock were UTC (milliseconds, seconds precision). */
export function wallClockMs(instant: number, timeZone: string): number {
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
export function instantOfWallClock(wall: number, timeZone: string): number {
  // Offsets change at most once within a day around any wall time, so the offsets a day before and a day after
  // are the only candidates.
  const before = offsetMs(wall - DAY_MS, timeZone);
  const after = offsetMs(wall + DAY_MS, timeZone);
  const matches = [wall - before, wall - after].filter((instant) => wallClockMs(instant, timeZone) === wall);
  if (matches.length) return Math.min(...matches); // the first occurrence when the hour repeats
  return wall - before; // skipped by a spring-forward gap: shifted forward by the gap
}

/** The weekday of a wall clock expressed as UTC milliseconds. */
export const weekdayOfWall = (wall: number): Weekday => weekdays[(new Date(wall).getUTCDay() + 6) % 7]!;

/** Midnight of the wall date that `instant` falls on in the zone, as UTC milliseconds of that wall clock. */
export function wallDateOf(instant: number, timeZone: string): number {
  const wall = wallClockMs(instant, timeZone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}
