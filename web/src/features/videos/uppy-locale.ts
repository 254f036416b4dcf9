// Uppy's own texts (its restriction messages, e.g. "You can only upload: …") in the page's language, from
// @uppy/locales; "ua" is Ukrainian (uk_UA). Each language is its own chunk, loaded with the uploader.
import type { Locale } from '@uppy/core/utils';
import type { LanguageCode } from '../../i18n/languages';

const locales: Record<LanguageCode, () => Promise<{ default: Locale }>> = {
  en: () => import('@uppy/locales/lib/en_US.js'),
  es: () => import('@uppy/locales/lib/es_ES.js'),
  hi: () => import('@uppy/locales/lib/hi_IN.js'),
  ru: () => import('@uppy/locales/lib/ru_RU.js'),
  ua: () => import('@uppy/locales/lib/uk_UA.js'),
};

const loaded = new Map<LanguageCode, Promise<Locale>>();

/** The same promise for a language every time (React's `use` needs that). */
export function uppyLocale(code: LanguageCode): Promise<Locale> {
  let locale = loaded.get(code);
  if (!locale) {
    locale = locales[code]().then((module) => module.default);
    loaded.set(code, locale);
  }
  return locale;
}
