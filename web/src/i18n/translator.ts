// A small translator over the JSON catalogues (i18next's format: nested keys, `{{name}}` placeholders, plural
// variants `key_one`/`key_few`/`key_many`/`key_other` chosen with Intl.PluralRules by `count`). It replaces i18next
// because the public pages' JavaScript budget (120 kB gzip) cannot afford i18next's 17 kB (docs/decisions.md).
import type en from './locales/en.json';
import type { LanguageCode } from './languages';

export type Messages = typeof en;
/** Sections of a catalogue; pages receive only the sections they render. */
export type Section = keyof Messages;
export type PartialMessages = Partial<{ [S in Section]: Messages[S] }>;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every translatable key, checked at compile time against the English catalogue ("errors" is looked up by `errorText`). */
export type TranslationKey = Leaves<Omit<Messages, 'errors'>>;
/** Base keys whose plural variants exist (`pricing.limits.streams` for `pricing.limits.streams_one` ...). */
type PluralBase<K> = K extends `${infer Base}_${'one' | 'other'}` ? Base : never;
export type TranslateKey = TranslationKey | PluralBase<TranslationKey>;

export type Vars = Record<string, string | number>;
export type Translate = (key: TranslateKey, vars?: Vars) => string;

const pluralLocale: Record<LanguageCode, string> = { en: 'en', es: 'es', hi: 'hi', ru: 'ru', ua: 'uk' };

function lookup(messages: PartialMessages, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const interpolate = (text: string, vars: Vars | undefined) =>
  vars ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;

export function createTranslator(language: LanguageCode, messages: PartialMessages): Translate {
  const plurals = new Intl.PluralRules(pluralLocale[language]);
  return (key, vars) => {
    const count = vars?.count;
    const text =
      (typeof count === 'number' ? (lookup(messages, `${key}_${plurals.select(count)}`) ?? lookup(messages, `${key}_other`)) : undefined) ??
      lookup(messages, key);
    return text === undefined ? key : interpolate(text, vars);
  };
}

/** Merges section maps; later ones win. */
export const mergeMessages = (parts: readonly (PartialMessages | undefined)[]): PartialMessages => Object.assign({}, ...parts);
