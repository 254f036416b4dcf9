/** How long to wait, for "try again in …": seconds up to 90, then whole minutes (rounded up), in the page's language. */
export function formatWait(seconds: number, locale: string): string {
  const [value, unit] = seconds <= 90 ? [Math.max(1, Math.ceil(seconds)), 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
