// The Accounts API (docs/api.md, "Accounts"). Calls made from the sign-in pages go through their own client: there a
// 401 is an answer ('invalid credentials'), not an ended session, so it must not open the login page over the
// form; and a 429 keeps the Retry-After header's seconds (`details.retryAfterSeconds`) for the form's hint.
import { useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@loopcast/contract/api/account';
import { api, ApiError, createApiClient } from '../../../api/client';
import type { LanguageCode } from '../../../i18n/languages';

export type { PublicUser };

export interface Session {
  token: string;
  user: PublicUser;
}

export const currentUserQueryKey = ['me'] as const;

/** A call whose 429 keeps the Retry-After header's seconds (`details.retryAfterSeconds`) for the form's hint. A 401
 * ends the session unless `onUnauthorized` says otherwise (the sign-in pages, where it is an answer). */
export async function callWithRetryHint<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, onUnauthorized?: () => void): Promise<T> {
  let retryAfter: string | null = null;
  const client = createApiClient({
    ...(onUnauthorized ? { onUnauthorized } : {}),
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      retryAfter = response.headers.get('retry-after');
      return response;
    },
  });
  try {
    return await client.request<T>(method, path, body === undefined ? {} : { body });
  } catch (error) {
    const seconds = Number(retryAfter);
    if (error instanceof ApiError && error.status === 429 && seconds > 0) {
      throw new ApiError(error.key, error.status, { ...error.details, retryAfterSeconds: seconds });
    }
    throw error;
  }
}

const accountsCall = <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => callWithRetryHint<T>(method, path, body, () => undefined);

export interface Registration {
  displayName: string;
  email: string;
  password: string;
  language: LanguageCode;
  acceptTerms: boolean;
  ageConfirmed: boolean;
}

/** The same answer whether the address already has an account or not (the owner of a taken one is told by e-mail). */
export const register = (registration: Registration) => accountsCall<{ accepted: true; email: string }>('POST', '/register', registration);
export const confirmEmail = (token: string) => accountsCall<Session>('POST', '/confirm', { token });
export const resendConfirmation = (email: string) => accountsCall<{ accepted: true }>('POST', '/confirm/resend', { email });
export const signIn = (email: string, password: string) => accountsCall<Session>('POST', '/login', { email, password });
export const requestPasswordReset = (email: string) => accountsCall<{ accepted: true }>('POST', '/forgot-password', { email });
export const resetPassword = (token: string, password: string) => accountsCall<Session>('POST', '/reset-password', { token, password });
/** Ends the session on the server; an already ended one (401) is just as good. */
export const signOutOnServer = () => accountsCall<void>('POST', '/logout').catch(() => undefined);

/** The signed-in user (GET /me); a 401 ends the session through the app's client. */
export const useCurrentUser = () =>
  useQuery({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => api.get<{ user: PublicUser }>('/me', undefined, signal),
    select: (answer) => answer.user,
    staleTime: 60_000,
  });
