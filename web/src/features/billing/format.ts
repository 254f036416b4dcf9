// Numbers as the page's language writes them (Intl), for the plan page.

const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** From kilobytes up, in binary steps as the plan limits are defined (5 GB = 5 × 1024³ bytes): "0 kB", "1.5 GB", "1,5 ГБ". */
export function formatBytes(bytes: number, locale: string): string {
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: BYTE_UNITS[unit], maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}

export const formatMoney = (cents: number, currency: string, locale: string): string =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

export const formatDate = (iso: string, locale: string): string => new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(iso));
