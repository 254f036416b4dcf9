// Handler group "auth": accounts and sessions. Each route parses, calls a use case of lambdas/core/accounts,
// and maps the result; rules live in the use cases.
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import * as accounts from '../core/accounts/accounts';
import { PASSWORD_MAX_LENGTH } from '../core/accounts/passwords';
import { languageCodes } from '../core/languages';
import { issueRealtimeToken } from '../core/realtime-token';
import { API_BASE } from '../contract/routes';
import { json, noContent, publicRoute, userRoute, type ApiRequest, type ApiResponse } from './api';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';
import { accountsContext } from '../wiring/accounts';
import { singleLineText } from './text-fields';

/** The browser's device token (lambdas/core/accounts/devices.ts): an HttpOnly cookie sent to sign-in only. */
export const DEVICE_COOKIE = 'loopcast_device';
const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

const client = (request: Pick<ApiRequest<unknown, unknown, undefined>, 'sourceIp' | 'userAgent' | 'cookies'>): accounts.Client => ({
  ip: request.sourceIp,
  userAgent: request.userAgent,
  ...(request.cookies[DEVICE_COOKIE] ? { deviceToken: request.cookies[DEVICE_COOKIE] } : {}),
});

/** The session for the app (JSON), and the device token as a cookie script cannot read, sent back to sign-in only. */
function signedIn(deps: Deps, { deviceToken, ...session }: accounts.SignedIn): ApiResponse {
  const secure = deps.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return {
    ...json(200, session),
    cookies: [`${DEVICE_COOKIE}=${deviceToken}; Path=${API_BASE}/login; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure}`],
  };
}

/** How long register, forgot-password and resend take at least, whatever the address: what they do differs for
 * addresses with and without an account (a token written, an e-mail sent), and the difference must not tell who
 * has one (security audit L9). Above what each path takes, with SES's send in AWS. */
export const FLAT_RESPONSE_MS = 300;

async function flat<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const left = FLAT_RESPONSE_MS - (performance.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }
}

const email = z
  .string({ message: 'validation.bad_email' })
  .trim()
  .max(254, { message: 'validation.bad_email' })
  .pipe(z.email({ message: 'validation.bad_email' }));
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH, { message: 'weak password' });
const token = z.string().min(16).max(128);
const language = z.enum(languageCodes).default('en');

const register = publicRoute({
  body: z.object({
    displayName: singleLineText(80),
    email,
    password,
    language,
    acceptTerms: z.literal(true, { message: 'registration error' }),
    ageConfirmed: z.literal(true, { message: 'registration error' }),
  }),
  async handle(request, deps) {
    // The same answer for a free and a taken address: the owner of a taken one is told by e-mail.
    const { email } = await flat(() => accounts.register(accountsContext(deps), request.body, client(request)));
    return json(202, { accepted: true, email });
  },
});

const confirm = publicRoute({
  body: z.object({ token }),
  async handle(request, deps) {
    return signedIn(deps, await accounts.confirmEmail(accountsContext(deps), request.body.token, client(request)));
  },
});

const resendConfirmation = publicRoute({
  body: z.object({ email }),
  async handle(request, deps) {
    await flat(() => accounts.resendConfirmation(accountsContext(deps), request.body.email, client(request)));
    return json(202, { accepted: true });
  },
});

const login = publicRoute({
  body: z.object({ email, password }),
  async handle(request, deps) {
    return signedIn(deps, await accounts.signIn(accountsContext(deps), request.body.email, request.body.password, client(request)));
  },
});

const logout = userRoute({
  async handle(request, deps) {
    await accounts.signOut(accountsContext(deps), request.auth.userId, request.auth.sessionId);
    return noContent();
  },
});

const me = userRoute({
  async handle(request, deps) {
    return json(200, { user: await accounts.currentUser(accountsContext(deps), request.auth.userId) });
  },
});

const realtimeToken = userRoute({
  async handle(request, deps) {
    const token = issueRealtimeToken({ userId: request.auth.userId, sessionId: request.auth.sessionId }, await deps.signingKey(), deps.now());
    return json(200, { token, url: deps.config.realtime.url });
  },
});

const forgotPassword = publicRoute({
  body: z.object({ email }),
  async handle(request, deps) {
    await flat(() => accounts.requestPasswordReset(accountsContext(deps), request.body.email, client(request)));
    return json(202, { accepted: true });
  },
});

const resetPassword = publicRoute({
  body: z.object({ token, password }),
  async handle(request, deps) {
    return signedIn(deps, await accounts.resetPassword(accountsContext(deps), request.body.token, request.body.password, client(request)));
  },
});

export const createAuthHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({
    group: 'auth',
    deps,
    authenticate: authenticateSession,
    routes: {
      'POST /api/register': register,
      'POST /api/confirm': confirm,
      'POST /api/confirm/resend': resendConfirmation,
      'POST /api/login': login,
      'POST /api/logout': logout,
      'GET /api/me': me,
      'GET /api/ws': realtimeToken,
      'POST /api/forgot-password': forgotPassword,
      'POST /api/reset-password': resetPassword,
    },
  });

export const handler = createAuthHandler(depsFromEnvironment);
