// The session (spec section 4): the cookie auth_token is present while the user is signed in. The Accounts feature
// sets it after login; the API client sends it as a bearer token and removes it on any 401.
import { readCookie, removeCookie } from './cookies';

export const AUTH_COOKIE = 'auth_token';

export const authToken = (): string | undefined => readCookie(AUTH_COOKIE) || undefined;
export const isSignedIn = (): boolean => authToken() !== undefined;
export const endSession = (): void => removeCookie(AUTH_COOKIE);

let leaving = false;

/** Ends the session and loads the login page, once per page: a sign-out and the 401s of requests still in flight
 * (the server has revoked the session) would each navigate, the later aborting the earlier. `replace`: the page
 * left is not kept in the history. */
export function leaveForLogin(loginPath: string, options: { replace: boolean }): void {
  endSession();
  if (leaving) return;
  leaving = true;
  if (options.replace) window.location.replace(loginPath);
  else window.location.assign(loginPath);
}
