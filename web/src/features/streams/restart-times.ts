// Editing a stream's restart times: rows of "HH:MM" the user adds, changes and removes. The API validates them
// (duplicates and impossible times are its 422s); the form shows its refusal on the rows it names. Pure.

export interface RestartTimeRow {
  /** Stable identity of the row while its value changes. */
  id: number;
  value: string;
}

export const rowsOf = (times: readonly string[]): RestartTimeRow[] => times.map((value, index) => ({ id: index + 1, value }));

const nextId = (rows: readonly RestartTimeRow[]) => Math.max(0, ...rows.map((row) => row.id)) + 1;

const pad = (n: number) => String(n).padStart(2, '0');

/** A new row, suggested twelve hours after the last one (two restarts a day is the common choice), else 03:00. */
export function addRow(rows: readonly RestartTimeRow[]): RestartTimeRow[] {
  const last = /^(\d{2}):(\d{2})$/.exec(rows.at(-1)?.value ?? '');
  const value = last ? `${pad((Number(last[1]) + 12) % 24)}:${last[2]}` : '03:00';
  return [...rows, { id: nextId(rows), value }];
}

export const changeRow = (rows: readonly RestartTimeRow[], id: number, value: string): RestartTimeRow[] =>
  rows.map((row) => (row.id === id ? { ...row, value } : row));

export const removeRow = (rows: readonly RestartTimeRow[], id: number): RestartTimeRow[] => rows.filter((row) => row.id !== id);

/** What the API gets: the rows' times, blank rows left out. */
export const timesOf = (rows: readonly RestartTimeRow[]): string[] => rows.map((row) => row.value.trim()).filter(Boolean);

/** The rows a refusal names (the API answers with the offending value, e.g. the duplicated time). */
export const rowsWithValue = (rows: readonly RestartTimeRow[], value: string | undefined): Set<number> =>
  new Set(value === undefined ? [] : rows.filter((row) => normalized(row.value) === normalized(value)).map((row) => row.id));

/** "9:05" and "09:05" are the same minute; the API answers with the zero-padded form. */
function normalized(value: string): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  return match ? `${pad(Number(match[1]))}:${match[2]}` : value;
}

/** The browser's time zone, the default for a new stream's restart times. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
