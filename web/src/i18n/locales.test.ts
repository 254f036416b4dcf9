// The five catalogues are complete: same keys as English (plural variants as each language's rules need), the
// same placeholders, no empty or untranslated texts, and a translation for every error catalogue key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCatalogue } from '@loopcast/core/errors';
import { languageByCode, languages, type LanguageCode } from './languages';

type Tree = { [key: string]: string | Tree };
const catalogue = (code: LanguageCode): Tree => JSON.parse(readFileSync(join(import.meta.dirname, 'locales', `${code}.json`), 'utf8')) as Tree;
const pluralSuffix = /_(zero|one|two|few|many|other)$/;

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    // The "errors" section is keyed by catalogue keys, which contain dots; keep them whole.
    const path = prefix ? `${prefix}\u0000${key}` : key;
    if (typeof value === 'string') result.set(path, value);
    else for (const [leaf, text] of leaves(value, path)) result.set(leaf, text);
  }
  return result;
}
const readable = (path: string) => path.replaceAll('\u0000', '.');
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

// Texts that are the same in every language: names, numbers and units.
const sameEverywhere = new Set([
  'meta.appTitle',
  'common.brand',
  'errorScreen.heading',
  'landing.features.fullHd.title',
  'landing.supportTelegram',
  'pricing.plans.basic.name',
  'pricing.plans.pro.name',
  'pricing.plans.custom.name',
  'pricing.features.fullHd',
  'pricing.gigabytes',
  'pricing.terabytes',
  'pricing.savePercent',
  'app.quoted',
  'notifications.telegram.title',
  // Output quality's patterns: only their placeholders are words.
  'videos.quality.notInPlan',
  'videos.quality.tierOption',
  'videos.quality.output',
]);

// Units Spanish and Hindi write as English does (fps, Mbit/s); Ukrainian and Russian have their own.
const latinUnits = new Set(['videos.quality.profile', 'videos.quality.mbps', 'videos.quality.frameRate', 'streams.playlist.shape']);

// Words Spanish shares with English.
const sameInSpanish = new Set([
  'landing.features.multistream.title',
  'pricing.features.multistreaming',
  'landing.supportChat',
  'footer.legal',
  'app.pages.billing.tab',
]);

const english = leaves(catalogue('en'));
const baseKeys = (tree: Map<string, string>) => new Set([...tree.keys()].map((key) => key.replace(pluralSuffix, '')));

describe.each(languages.map((l) => [l.code] as const))('catalogue %s', (code) => {
  const texts = leaves(catalogue(code));

  test('has exactly the English keys', () => {
    const missing = [...baseKeys(english)].filter((key) => !baseKeys(texts).has(key)).map(readable);
    const extra = [...baseKeys(texts)].filter((key) => !baseKeys(english).has(key)).map(readable);
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  test('has every plural form its language needs', () => {
    const categories = new Intl.PluralRules(languageByCode(code).htmlLang).resolvedOptions().pluralCategories;
    const plurals = new Set([...english.keys()].filter((key) => pluralSuffix.test(key)).map((key) => key.replace(pluralSuffix, '')));
    const missing = [...plurals].flatMap((base) => categories.filter((c) => !texts.has(`${base}_${c}`)).map((c) => readable(`${base}_${c}`)));
    expect(missing).toEqual([]);
  });

  test('keeps the placeholders and leaves nothing empty', () => {
    const wrong = [...texts].filter(([key, text]) => {
      const original = english.get(key) ?? english.get(key.replace(pluralSuffix, '_other'));
      return text.trim() === '' || (original !== undefined && placeholders(text).join() !== placeholders(original).join());
    });
    expect(wrong.map(([key]) => readable(key))).toEqual([]);
  });

  test('translates every error catalogue key', () => {
    const missing = Object.keys(errorCatalogue).filter((key) => !texts.has(`errors\u0000${key}`));
    expect(missing).toEqual([]);
  });

  if (code !== 'en') {
    test('leaves no English text behind', () => {
      const untranslated = [...texts].filter(
        ([key, text]) =>
          english.get(key) === text &&
          // Only placeholders and punctuation: no words to translate.
          /\p{L}/u.test(text.replace(/{{[^}]*}}/g, '')) &&
          !sameEverywhere.has(readable(key)) &&
          !(code === 'es' && sameInSpanish.has(readable(key))) &&
          !((code === 'es' || code === 'hi') && latinUnits.has(readable(key))),
      );
      expect(untranslated.map(([key]) => readable(key))).toEqual([]);
    });
  }
});
