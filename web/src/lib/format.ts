// Sizes and times as the page's language writes them (Intl), shared by the app's pages.

const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** From kilobytes up, in binary steps as the plan limits and storage are counted (5 GB = 5 × 1024³ bytes): "0 kB", "1.5 GB", "1,5 ГБ". */
export function formatBytes(bytes: number, locale: string): string {
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: BYTE_UNITS[unit], maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}

/**
 * Times of day in the language's one short style, wherever the app shows a time: "4:00 AM" in English, "04:00" in
 * Russian and Ukrainian ("timeStyle: short"). `timeZone` names the clock the time is read on.
 */
export const timeFormat = (locale: string, timeZone?: string): Intl.DateTimeFormat =>
  new Intl.DateTimeFormat(locale, { timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });

/** A wall-clock time 'HH:MM' (a stream's restart time) in that style. */
export function formatTimeOfDay(hhmm: string, locale: string): string {
  const [hours = 0, minutes = 0] = hhmm.split(':').map(Number);
  return timeFormat(locale, 'UTC').format(Date.UTC(2001, 0, 1, hours, minutes));
}
