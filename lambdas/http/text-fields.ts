// Free-text fields of request bodies: no control or invisible formatting characters (lambdas/core/plain-text.ts),
// refused as 'invalid request' with the field named.
import { z } from 'zod';
import { CONTROL_CHARACTERS_REFUSED, hasForbiddenCharacters } from '../core/plain-text';

/** A one-line text (title, name), trimmed, of 1 to `max` characters. */
export const singleLineText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => !hasForbiddenCharacters(text), CONTROL_CHARACTERS_REFUSED);

/** A text that may span lines (a description): tab and line feed allowed, up to `max` characters. */
export const multiLineText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => !hasForbiddenCharacters(text, { multiLine: true }), CONTROL_CHARACTERS_REFUSED);
