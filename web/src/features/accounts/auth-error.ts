// The sign-in error page (/app/auth/error, docs/web.md "Accounts"): a sign-in step that cannot finish sends the
// visitor there with `?reason=<error catalogue key>`. Only catalogue keys are shown, translated; a missing or unknown
// reason reads as the page's own general message, so a crafted link cannot put its words on our page.
import { isErrorKey } from '@loopcast/core/errors';
import type { ErrorTextKey } from '../../i18n/i18n-context';
import { localizePath, type Language } from '../../i18n/languages';

export const REASON_PARAM = 'reason';

/** The catalogue key of the page's `reason`, or undefined when there is none or the catalogue does not know it. */
export function authErrorReason(reason: string | null): ErrorTextKey | undefined {
  return reason === 'network error' || isErrorKey(reason) ? reason : undefined;
}

/** The error page in `language`, saying `reason`. */
export const authErrorPath = (reason: ErrorTextKey, language: Language): string =>
  `${localizePath('/app/auth/error', language)}?${new URLSearchParams({ [REASON_PARAM]: reason }).toString()}`;
