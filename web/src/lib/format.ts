// Sizes as the page's language writes them (Intl), shared by the media library and the plan page.

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
