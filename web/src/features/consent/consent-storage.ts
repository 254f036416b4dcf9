/** Where the cookie consent choice is remembered (localStorage), read by the public pages' script. */
export const CONSENT_KEY = 'loopcast:cookie-consent';
