// The shape of the JSON catalogues (i18next's v4 JSON format: nested keys, `{{name}}` placeholders, plural variants
// `key_one`/`key_few`/`key_many`/`key_other`), taken from the English one. Section "errors" is keyed by the API's
// error catalogue keys (lambdas/core/errors.ts), which contain dots and spaces: i18n.ts gives it its own namespace.
import type en from './locales/en.json';

export type Messages = typeof en;
/** Sections of a catalogue; public pages receive only the sections they render. */
export type Section = keyof Messages;
export type PartialMessages = Partial<{ [S in Section]: Messages[S] }>;

/** Merges section maps; later ones win. */
export const mergeMessages = (parts: readonly (PartialMessages | undefined)[]): PartialMessages => Object.assign({}, ...parts);
