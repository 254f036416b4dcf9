// i18next over the catalogues: each language's plural rules (Ukrainian pages are /ua, language tag uk), error
// catalogue keys that contain dots, values inserted as written, one instance per set of loaded texts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from './catalogue';
import { createI18n, errorTextOf, i18nForPage, languageOf } from './i18n';
import { languageByCode, type LanguageCode } from './languages';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, 'locales', `${code}.json`), 'utf8')) as Messages;

test('plural forms follow each language: one, few and many in Ukrainian and Russian', () => {
  const ua = createI18n(languageByCode('ua'), catalogue('ua'));
  expect([1, 3, 5, 21].map((count) => ua.t('pricing.limits.streams', { count }))).toEqual([
    '1 трансляція одночасно',
    '3 трансляції одночасно',
    '5 трансляцій одночасно',
    '21 трансляція одночасно',
  ]);
  const ru = createI18n(languageByCode('ru'), catalogue('ru'));
  expect(ru.t('pricing.limits.streams', { count: 2 })).toBe('2 трансляции одновременно');
  const en = createI18n(languageByCode('en'), catalogue('en'));
  expect([1, 2].map((count) => en.t('pricing.limits.streams', { count }))).toEqual(['1 stream at a time', '2 streams at a time']);
});

test('the page language comes back from the instance, /ua included', () => {
  for (const code of ['en', 'es', 'hi', 'ru', 'ua'] as const) expect(languageOf(createI18n(languageByCode(code), {})).code).toBe(code);
});

test('error texts are found by their whole key, dots and spaces included; an unknown key reads as the general one', () => {
  const ua = createI18n(languageByCode('ua'), catalogue('ua'));
  expect(errorTextOf(ua, 'validation.bad_email')).toBe('Неправильна адреса пошти');
  expect(errorTextOf(ua, 'Google refresh token error')).toBe(catalogue('ua').errors['Google refresh token error']);
  expect(errorTextOf(ua, 'no such key' as never)).toBe('Щось пішло не так на нашому боці. Спробуйте ще раз');
});

test('values are inserted as written (React escapes what it renders)', () => {
  const en = createI18n(languageByCode('en'), catalogue('en'));
  expect(en.t('dashboard.greeting', { name: 'Tom & <Jerry>' })).toContain('Tom & <Jerry>');
});

test('a page keeps its instance while its loaders bring the same texts', () => {
  const language = languageByCode('es');
  const texts = catalogue('es');
  const first = i18nForPage(language, [undefined, texts]);
  expect(i18nForPage(language, [texts, undefined])).toBe(first);
  expect(i18nForPage(language, [{ ...texts }])).not.toBe(first);
});
