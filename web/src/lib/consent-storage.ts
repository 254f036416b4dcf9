/** Where the cookie consent choice is remembered (localStorage), read by the public pages' script. */
export const CONSENT_KEY = 'loopcast:cookie-consent';

/** True once the visitor pressed Accept on the cookie banner (storage blocked: never). The privacy policy promises
 * that analytics run only after that. */
export function hasAcceptedCookies(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(CONSENT_KEY) === 'accepted';
  } catch {
    return false;
  }
}
