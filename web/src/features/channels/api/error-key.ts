import { ApiError, errorKeyOf } from '../../../api/client';

/** `details.fields` of a 400 `invalid request`: which fields the API refused. */
export function refusedFields(error: unknown): string[] {
  const fields = error instanceof ApiError ? error.details?.fields : undefined;
  return typeof fields === 'object' && fields !== null ? Object.keys(fields) : [];
}

/** What the form says under a field the API refused: a duplicate name or target, an rtmp:// server for a platform
 * that takes RTMPS only, or a value it cannot use. */
export type FieldRefusal = 'duplicate' | 'rtmps' | 'invalid';

export function fieldRefusals(error: unknown): Partial<Record<'name' | 'url' | 'key', FieldRefusal>> {
  const key = errorKeyOf(error);
  const refusal: FieldRefusal = key === 'duplicate destination' ? 'duplicate' : key === 'platform requires rtmps' ? 'rtmps' : 'invalid';
  return Object.fromEntries(
    refusedFields(error)
      .filter((field) => ['name', 'url', 'key'].includes(field))
      .map((field) => [field, refusal]),
  );
}
