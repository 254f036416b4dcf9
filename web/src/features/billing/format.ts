// Money and dates as the page's language writes them (Intl), for the plan page. Sizes: lib/format.ts.

export const formatMoney = (cents: number, currency: string, locale: string): string =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

export const formatDate = (iso: string, locale: string): string => new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(iso));
