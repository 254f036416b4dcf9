// Where a visitor goes after signing in: back to the app page the route guard sent them away from (carried as
// `?next=` on the login page), or else their streams. Only our own app pages are accepted as `next`, so a crafted
// link cannot send anyone to another site or in circles through the sign-in pages.
import { barePath, localizePath, type Language } from '../../i18n/languages';

export const RETURN_PARAM = 'next';

function isAppPage(pathname: string): boolean {
  const bare = barePath(pathname);
  return bare.startsWith('/app/') && !bare.startsWith('/app/auth/');
}

/** `next` when it is one of our app pages (path and query of this origin), else the streams page in `language`. */
export function pathAfterSignIn(next: string | null, language: Language): string {
  if (next && next.startsWith('/') && !next.startsWith('//') && !next.includes('\\')) {
    const url = new URL(next, 'https://loopcast.invalid');
    if (url.origin === 'https://loopcast.invalid' && isAppPage(url.pathname)) return url.pathname + url.search;
  }
  return localizePath('/app/streams', language);
}

/** The guard's redirect `target`, with the page the visitor wanted appended when the target is the login page. */
export function withReturnPath(target: string, from: URL): string {
  const toLogin = barePath(target) === '/app/auth/login';
  return toLogin && isAppPage(from.pathname) ? `${target}?${RETURN_PARAM}=${encodeURIComponent(from.pathname + from.search)}` : target;
}
