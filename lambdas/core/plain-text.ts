// What free text (titles, names, descriptions, file names) may hold. Control characters inject terminal escapes
// and carriage returns into the support tool's output and logs (security audit M8), and format characters reorder
// or hide text (U+202E turns "gpj.exe" around, U+FEFF is invisible). Two format characters are real text and stay:
// the zero-width non-joiner and joiner (Indic scripts such as Hindi, emoji sequences), and so do the emoji tag
// characters of subdivision flags. Unpaired surrogates are not text at all. Multi-line fields also take tab and
// line feed. Pure.

const allowedFormat = '\\u200C\\u200D\\u{E0020}-\\u{E007F}';
const forbiddenSingleLine = new RegExp(`(?![${allowedFormat}])[\\p{Cc}\\p{Cf}\\p{Cs}]`, 'u');
const forbiddenMultiLine = new RegExp(`(?![\\t\\n${allowedFormat}])[\\p{Cc}\\p{Cf}\\p{Cs}]`, 'u');

export const CONTROL_CHARACTERS_REFUSED = 'must not contain control or invisible formatting characters';

/** True when the text has a character no free-text field may hold. */
export function hasForbiddenCharacters(text: string, options: { multiLine?: boolean } = {}): boolean {
  return (options.multiLine ? forbiddenMultiLine : forbiddenSingleLine).test(text);
}

const unprintable = new RegExp(`(?![${allowedFormat}])[\\p{C}\\p{Zl}\\p{Zp}]`, 'gu');

/** Every character that is not printable (controls, format characters but the joiners, line and paragraph
 * separators, unassigned, surrogates) as a visible `\u{…}` escape, so text already stored (or written before these
 * rules) can never drive a terminal. */
export function printable(text: string): string {
  return text.replace(unprintable, (character) => `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`);
}
