import { hasForbiddenCharacters, printable } from './plain-text';

describe('free text', () => {
  test.each([
    ['ESC', 'ok\u001b[2K\r\u001b[31mSUSPENDED'],
    ['CR', 'a\rb'],
    ['BEL', 'a\u0007'],
    ['NUL', 'a\u0000b'],
    ['DEL', 'a\u007f'],
    ['a C1 control', 'a\u009bb'],
    ['right-to-left override', 'gpj\u202Eexe'],
    ['isolate', 'a\u2066b'],
    ['byte order mark', '\uFEFFtitle'],
    ['an unpaired surrogate', 'a\uD800b'],
  ])('refuses %s', (_, text) => {
    expect(hasForbiddenCharacters(text)).toBe(true);
    expect(hasForbiddenCharacters(text, { multiLine: true })).toBe(true);
  });

  test.each([
    ['plain text', 'Lo-fi beats to study to'],
    ['Hindi with a zero-width joiner and non-joiner', 'क्‍ष और क्‌ष'],
    ['Cyrillic, Spanish and emoji', 'Привіт, ñandú 👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['right-to-left text', 'שלום عليكم'],
  ])('keeps %s', (_, text) => {
    expect(hasForbiddenCharacters(text)).toBe(false);
  });

  test('tab and line feed only in multi-line fields', () => {
    expect(hasForbiddenCharacters('line one\nline two\tend')).toBe(true);
    expect(hasForbiddenCharacters('line one\nline two\tend', { multiLine: true })).toBe(false);
  });

  test('printable() makes every invisible character a visible escape', () => {
    expect(printable('ok\u001b[31mRED\r\u0007 \u202Ex\u2028y')).toBe('ok\\u{1B}[31mRED\\u{D}\\u{7} \\u{202E}x\\u{2028}y');
    expect(printable('Ana 👍 क्‍ष')).toBe('Ana 👍 क्‍ष');
  });
});
