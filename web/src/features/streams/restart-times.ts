// Editing a stream's restart times: rows of a time ("HH:MM") every day or on one weekday ("mon 06:30" to the API) the
// user adds, changes and removes. The API validates them (duplicates and impossible times are its 422s); the form
// shows its refusal on the rows it names. Pure.
import { isWeekday, type Weekday } from '@loopcast/core/wall-clock';

export interface RestartTimeRow {
  /** Stable identity of the row while its value changes. */
  id: number;
  /** '' every day. */
  day: Weekday | '';
  /** "HH:MM". */
  value: string;
}

/** "mon 06:30" as a weekday and a time; "06:30" every day. */
function split(time: string): { day: Weekday | ''; value: string } {
  const [first = '', second] = time.trim().split(/\s+/, 2);
  const day = first.toLowerCase();
  return second !== undefined && isWeekday(day) ? { day, value: second } : { day: '', value: time.trim() };
}

export const rowsOf = (times: readonly string[]): RestartTimeRow[] => times.map((time, index) => ({ id: index + 1, ...split(time) }));

const nextId = (rows: readonly RestartTimeRow[]) => Math.max(0, ...rows.map((row) => row.id)) + 1;

const pad = (n: number) => String(n).padStart(2, '0');

/** A new row, suggested twelve hours after the last one (two restarts a day is the common choice), else 03:00. */
export function addRow(rows: readonly RestartTimeRow[]): RestartTimeRow[] {
  const last = /^(\d{2}):(\d{2})$/.exec(rows.at(-1)?.value ?? '');
  const value = last ? `${pad((Number(last[1]) + 12) % 24)}:${last[2]}` : '03:00';
  return [...rows, { id: nextId(rows), day: rows.at(-1)?.day ?? '', value }];
}

export const changeRow = (rows: readonly RestartTimeRow[], id: number, changes: Partial<Omit<RestartTimeRow, 'id'>>): RestartTimeRow[] =>
  rows.map((row) => (row.id === id ? { ...row, ...changes } : row));

export const removeRow = (rows: readonly RestartTimeRow[], id: number): RestartTimeRow[] => rows.filter((row) => row.id !== id);

/** What the API gets: the rows' times ("06:30" every day, "mon 06:30" on Mondays), blank rows left out. */
export const timesOf = (rows: readonly RestartTimeRow[]): string[] =>
  rows.filter((row) => row.value.trim()).map((row) => (row.day ? `${row.day} ${row.value.trim()}` : row.value.trim()));

/** The rows a refusal names (the API answers with the offending value, e.g. the duplicated time). */
export const rowsWithValue = (rows: readonly RestartTimeRow[], value: string | undefined): Set<number> =>
  new Set(value === undefined ? [] : rows.filter((row) => normalized(timesOf([row])[0] ?? '') === normalized(value)).map((row) => row.id));

/** "9:05" and "09:05" are the same minute, "Mon" and "mon" the same day; the API answers with the zero-padded,
 * lower-case form. */
function normalized(time: string): string {
  const { day, value } = split(time);
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  const clock = match ? `${pad(Number(match[1]))}:${match[2]}` : value;
  return day ? `${day} ${clock}` : clock;
}

/** The browser's time zone, the default for a new stream's restart times. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
