// A refused or failed upload request as an error catalogue key, so the uploader shows the translated message: the
// tus endpoint answers `{ error, message }` (401 'uploader token error', 402 'no active subscription', 403
// 'video upload limit' / 'storage limit', ...).
import { isErrorKey } from '@loopcast/core/errors';
import type { ErrorTextKey } from '../../i18n/i18n-context';

export function uploadErrorKey(status: number | undefined, body: string | undefined): ErrorTextKey {
  if (status === 401) return 'uploader token error';
  try {
    const answer: unknown = JSON.parse(body ?? '');
    const key = typeof answer === 'object' && answer !== null ? (answer as { error?: unknown }).error : undefined;
    if (isErrorKey(key)) return key;
  } catch {
    // not a catalogued answer: judged by its status below
  }
  if (!status) return 'network error';
  return status >= 500 ? 'service unavailable' : 'invalid request';
}
