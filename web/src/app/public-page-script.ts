// Public pages are static HTML, not hydrated: their behaviours (public-page-behaviour.ts) are one inline script,
// serialised here with this build's options.
import { CONSENT_KEY } from '../lib/consent-storage';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from '../i18n/locale-cookie';
import { enhancePublicPage, type PublicPageOptions } from './public-page-behaviour';

const options: PublicPageOptions = {
  consentKey: CONSENT_KEY,
  localeCookie: LOCALE_COOKIE,
  localeCookieMaxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
  tagManagerId: (import.meta.env.VITE_GTM_ID as string | undefined) || null,
};

export const publicPageScript = `(${enhancePublicPage.toString()})(${JSON.stringify(options)});`;
