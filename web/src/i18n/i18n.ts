// i18next over the JSON catalogues. One instance per set of loaded texts: app pages load their language's whole
// catalogue (load-messages.ts); public pages are rendered at build time from the sections their loaders brought
// (messages.server.ts) and ship no script at all, so i18next only runs in the app and in the prerender.
import { createInstance, type i18n } from 'i18next';
import type { ErrorKey } from '@loopcast/core/errors';
import { mergeMessages, type PartialMessages } from './catalogue';
import { languages, type Language } from './languages';

/** API error keys plus the client's own: the network failed before any answer. */
export type ErrorTextKey = ErrorKey | 'network error';

/**
 * An initialised instance for one language. i18next's language is the page's `htmlLang` (`uk` for the `/ua`
 * pages), so its plural rules (Intl.PluralRules) are the language's own. Keys use dots; error catalogue keys,
 * which contain dots, live in their own namespace "errors" and are looked up whole (errorText).
 */
export function createI18n(language: Language, messages: PartialMessages): i18n {
  const { errors = {}, ...texts } = messages;
  const instance = createInstance();
  void instance.init({
    lng: language.htmlLang,
    fallbackLng: false,
    resources: { [language.htmlLang]: { translation: texts, errors } },
    ns: ['translation', 'errors'],
    defaultNS: 'translation',
    nsSeparator: false,
    returnNull: false,
    // React escapes what it renders; the texts are never put into HTML as markup.
    interpolation: { escapeValue: false },
    // The resources are given, nothing loads: the instance is ready when init returns.
    initAsync: false,
    react: { useSuspense: false },
  });
  return instance;
}

/** The page's language, from an instance made by createI18n. */
export const languageOf = (instance: i18n): Language => languages.find((l) => l.htmlLang === instance.language) ?? languages[0];

/** The translated message of an error catalogue key, or the general one for a key the catalogue does not know. */
export function errorTextOf(instance: i18n, key: ErrorTextKey): string {
  const lookup = (errorKey: string) => instance.getResource(instance.language, 'errors', errorKey, { keySeparator: false }) as unknown;
  const text = lookup(key) ?? lookup('internal error');
  return typeof text === 'string' ? text : key;
}

/**
 * The instance for a page's texts, the same one as long as the loaders' message objects are the same (a
 * navigation inside /app keeps its catalogue, so it keeps its instance and nothing re-renders for it).
 */
export function i18nForPage(language: Language, sources: readonly (PartialMessages | undefined)[]): i18n {
  const present = sources.filter((source): source is PartialMessages => source !== undefined);
  const cached = lastInstance.get(language.code);
  if (cached && cached.sources.length === present.length && cached.sources.every((source, i) => source === present[i])) return cached.instance;
  const instance = createI18n(language, mergeMessages(present));
  lastInstance.set(language.code, { sources: present, instance });
  return instance;
}
const lastInstance = new Map<Language['code'], { sources: readonly PartialMessages[]; instance: i18n }>();
