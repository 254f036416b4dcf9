// Sizes and durations as the page's language writes them (Intl), for the media library.

const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** From kilobytes up, in binary steps as the plan's storage is counted: "0 kB", "1.5 GB", "1,5 ГБ". */
export function formatBytes(bytes: number, locale: string): string {
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: BYTE_UNITS[unit], maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}

/** "0:07", "12:04", "1:02:03". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
