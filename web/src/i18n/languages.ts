// The five languages of the product (spec section 1). English has no URL prefix; the others are /es, /hi, /ru
// and /ua. "ua" is the product's prefix for Ukrainian, whose language tag is "uk" (used for <html lang>).

export const languages = [
  { code: 'en', prefix: '', htmlLang: 'en', name: 'English' },
  { code: 'es', prefix: '/es', htmlLang: 'es', name: 'Español' },
  { code: 'hi', prefix: '/hi', htmlLang: 'hi', name: 'हिन्दी' },
  { code: 'ru', prefix: '/ru', htmlLang: 'ru', name: 'Русский' },
  { code: 'ua', prefix: '/ua', htmlLang: 'uk', name: 'Українська' },
] as const;

export type Language = (typeof languages)[number];
export type LanguageCode = Language['code'];

export const defaultLanguage: Language = languages[0];

export const isLanguageCode = (value: unknown): value is LanguageCode => languages.some((l) => l.code === value);

export const languageByCode = (code: LanguageCode): Language => languages.find((l) => l.code === code) ?? defaultLanguage;

/** The language a path is in, from its prefix (`/ru/terms` is Russian, `/terms` English). */
export function languageOfPath(pathname: string): Language {
  const first = pathname.split('/')[1] ?? '';
  return languages.find((l) => l.prefix === `/${first}`) ?? defaultLanguage;
}

/** The path without its language prefix: `/ru/pricing` -> `/pricing`, `/ru` -> `/`. */
export function barePath(pathname: string): string {
  const current = languageOfPath(pathname);
  return current.prefix ? pathname.slice(current.prefix.length) || '/' : pathname;
}

/** The same page in another language: `/ru/pricing` -> `/es/pricing`, `/pricing` -> `/hi/pricing`. */
export function localizePath(pathname: string, target: Language): string {
  const bare = barePath(pathname);
  if (!target.prefix) return bare;
  return bare === '/' ? target.prefix : `${target.prefix}${bare}`;
}
