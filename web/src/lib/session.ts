// The session (spec section 4): the cookie auth_token is present while the user is signed in. The Accounts feature
// sets it after login; the API client sends it as a bearer token and removes it on any 401.
import { readCookie, removeCookie } from './cookies';

export const AUTH_COOKIE = 'auth_token';

export const authToken = (): string | undefined => readCookie(AUTH_COOKIE) || undefined;
export const isSignedIn = (): boolean => authToken() !== undefined;
export const endSession = (): void => removeCookie(AUTH_COOKIE);
