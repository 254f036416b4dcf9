// Route guard (spec section 6), pure so it is tested alone (guard.test.ts) and run by the /app routes' loader on
// every navigation. Public pages are open to everyone. Under /app, in every language, anonymous visitors reach only
// the auth pages below; signed-in users opening login or register go to their streams; /app and /app/auth lead to
// the login page. Redirects keep the language prefix.
import { barePath, languageOfPath, localizePath } from '../i18n/languages';

/**
 * The pages under /app/auth (spec section 2), each the module app/routes/auth/<page>.tsx, all open to anonymous
 * visitors. Section 6's list of what anonymous visitors may open leaves out `error`, but that page reports sign-in
 * links that failed, which happens before there is a session: sending anonymous visitors to the login page would
 * hide it from the people it is for (docs/web.md, "Accounts").
 */
export const authPages = ['login', 'register', 'forgot-password', 'reset-password', 'auth-token', 'confirm', 'error', 'change-email', 'close-account'] as const;
const signedInAway = ['login', 'register'];

/** Where the visitor must go instead of `pathname`, or undefined when they may stay. */
export function guardRedirect(pathname: string, signedIn: boolean): string | undefined {
  const language = languageOfPath(pathname);
  const path = barePath(pathname).replace(/\/+$/, '') || '/';
  if (path !== '/app' && !path.startsWith('/app/')) return undefined;

  const destination = path === '/app' || path === '/app/auth' ? '/app/auth/login' : path;
  const authPage = destination.startsWith('/app/auth/') ? destination.slice('/app/auth/'.length) : undefined;
  let allowed = destination;
  if (signedIn && authPage !== undefined && signedInAway.includes(authPage)) allowed = '/app/streams';
  if (!signedIn && !(authPages as readonly string[]).includes(authPage ?? '')) allowed = '/app/auth/login';
  return allowed === path ? undefined : localizePath(allowed, language);
}
