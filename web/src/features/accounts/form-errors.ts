// An API refusal as the messages a form shows: next to the field it concerns (from `details.fields` of a
// validation error, or known for the key, e.g. 'weak password' is about the password) or for the whole form.
import { isErrorKey, type ErrorKey } from '@loopcast/core/errors';
import { ApiError } from '../../api/client';
import type { ErrorTextKey } from '../../i18n/i18n-context';

/** A catalogue key; 'invalid' for a field the server refused without a catalogued reason; 'missing' for an empty
 * required field (checked before submitting). */
export type FieldProblem = ErrorTextKey | 'invalid' | 'missing';

/** Every field of the account forms (texts for missing ones: auth.missing.<field>). */
export type AccountField = 'displayName' | 'email' | 'password' | 'acceptTerms' | 'ageConfirmed' | 'currentPassword' | 'newPassword';

export interface FormProblems<F extends AccountField> {
  fields: Partial<Record<F, FieldProblem>>;
  form?: ErrorTextKey;
  /** With 'too many requests': when trying again makes sense (the Retry-After header). */
  retryAfterSeconds?: number;
}

export function formProblemsOf<F extends AccountField>(
  error: unknown,
  fieldNames: readonly F[],
  fieldOfKey: Partial<Record<ErrorKey, F>> = {},
): FormProblems<F> {
  if (!(error instanceof ApiError)) return { fields: {}, form: 'internal error' };
  const fields: Partial<Record<F, FieldProblem>> = {};
  const reported = error.details?.fields;
  if (typeof reported === 'object' && reported !== null) {
    for (const [path, reason] of Object.entries(reported)) {
      const field = fieldNames.find((name) => name === path.split('.')[0]);
      if (field && !fields[field]) fields[field] = isErrorKey(reason) ? reason : 'invalid';
    }
  }
  const keyField = error.key === 'network error' ? undefined : fieldOfKey[error.key];
  if (keyField && !fields[keyField]) fields[keyField] = error.key;
  const retryAfter = error.details?.retryAfterSeconds;
  return {
    fields,
    ...(Object.keys(fields).length === 0 ? { form: error.key } : {}),
    ...(error.key === 'too many requests' && typeof retryAfter === 'number' ? { retryAfterSeconds: retryAfter } : {}),
  };
}
