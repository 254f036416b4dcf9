// The visitor's language choice (spec section 2): cookie i18n_redirected, 365 days, path /, SameSite=Lax. The edge
// function (web/edge/viewer-request.js) sets the same cookie on the first-visit redirect and honours it afterwards.
import type { LanguageCode } from './languages';

export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function saveLanguageChoice(code: LanguageCode): void {
  document.cookie = `${LOCALE_COOKIE}=${code}; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax`;
}
