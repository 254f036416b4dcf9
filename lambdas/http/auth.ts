// Handler group "auth": accounts and sessions. Each route parses, calls a use case of lambdas/core/accounts,
// and maps the result; rules live in the use cases.
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../adapters/deps';
import * as accounts from '../core/accounts/accounts';
import { PASSWORD_MAX_LENGTH } from '../core/accounts/passwords';
import { languageCodes } from '../core/languages';
import { issueRealtimeToken } from '../core/realtime-token';
import { json, noContent, publicRoute, userRoute, type ApiRequest } from './api';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';
import { accountsContext } from '../wiring/accounts';
import { singleLineText } from './text-fields';


const client = (request: Pick<ApiRequest<unknown, unknown, undefined>, 'sourceIp' | 'userAgent'>): accounts.Client => ({ ip: request.sourceIp, userAgent: request.userAgent });

const email = z.string({ message: 'validation.bad_email' }).trim().max(254, { message: 'validation.bad_email' }).pipe(z.email({ message: 'validation.bad_email' }));
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
    const user = await accounts.register(accountsContext(deps), request.body, client(request));
    return json(201, { user });
  },
});

const confirm = publicRoute({
  body: z.object({ token }),
  async handle(request, deps) {
    return json(200, await accounts.confirmEmail(accountsContext(deps), request.body.token, client(request)));
  },
});

const resendConfirmation = publicRoute({
  body: z.object({ email }),
  async handle(request, deps) {
    await accounts.resendConfirmation(accountsContext(deps), request.body.email, client(request));
    return json(202, { accepted: true });
  },
});

const login = publicRoute({
  body: z.object({ email, password }),
  async handle(request, deps) {
    return json(200, await accounts.signIn(accountsContext(deps), request.body.email, request.body.password, client(request)));
  },
});

const logout = userRoute({
  async handle(request, deps) {
    await accounts.signOut(accountsContext(deps), request.auth.sessionId);
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
    const token = issueRealtimeToken(request.auth.userId, await deps.signingKey(), deps.now());
    return json(200, { token, url: deps.config.realtime.url });
  },
});

const forgotPassword = publicRoute({
  body: z.object({ email }),
  async handle(request, deps) {
    await accounts.requestPasswordReset(accountsContext(deps), request.body.email, client(request));
    return json(202, { accepted: true });
  },
});

const resetPassword = publicRoute({
  body: z.object({ token, password }),
  async handle(request, deps) {
    return json(200, await accounts.resetPassword(accountsContext(deps), request.body.token, request.body.password, client(request)));
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
