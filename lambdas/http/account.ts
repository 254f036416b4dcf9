// Handler group "account": the account page (issue 17, item 4). Each route parses, calls a use case of
// lambdas/core/accounts (settings.ts, closure.ts, export.ts) and maps the result. The two e-mailed links (a new
// address, closing the account) are public: they may be opened in a browser that is not signed in.
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { confirmClosure, requestClosure } from '../core/accounts/closure';
import { exportAccount } from '../core/accounts/export';
import { PASSWORD_MAX_LENGTH } from '../core/accounts/passwords';
import * as settings from '../core/accounts/settings';
import { languageCodes } from '../core/languages';
import { accountsContext } from '../wiring/accounts';
import { closureContext, exportContext } from '../wiring/account';
import { json, noContent, publicRoute, userRoute, type AuthContext } from './api';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';

const email = z
  .string({ message: 'validation.bad_email' })
  .trim()
  .max(254, { message: 'validation.bad_email' })
  .pipe(z.email({ message: 'validation.bad_email' }));
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const newPassword = z.string().min(1).max(PASSWORD_MAX_LENGTH, { message: 'weak password' });
const token = z.string().min(16).max(128);
const displayName = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[^\p{Cc}]+$/u);

const caller = (auth: AuthContext): settings.Caller => ({ userId: auth.userId, sessionId: auth.sessionId });

const account = userRoute({
  async handle(request, deps) {
    return json(200, await settings.accountView(accountsContext(deps), request.auth.userId));
  },
});

const updateProfile = userRoute({
  body: z
    .object({ displayName: displayName.optional(), language: z.enum(languageCodes).optional() })
    .refine((body) => body.displayName !== undefined || body.language !== undefined, { message: 'nothing to change' }),
  async handle(request, deps) {
    return json(200, { user: await settings.updateProfile(accountsContext(deps), request.auth.userId, request.body) });
  },
});

const changeEmail = userRoute({
  body: z.object({ email, password }),
  async handle(request, deps) {
    const pending = await settings.requestEmailChange(accountsContext(deps), caller(request.auth), request.body, {
      ip: request.sourceIp,
      userAgent: request.userAgent,
    });
    return json(202, { pendingEmail: pending });
  },
});

const confirmEmailChange = publicRoute({
  body: z.object({ token }),
  async handle(request, deps) {
    return json(200, { user: await settings.confirmEmailChange(accountsContext(deps), request.body.token) });
  },
});

const changePassword = userRoute({
  body: z.object({ currentPassword: password, newPassword }),
  async handle(request, deps) {
    return json(200, await settings.changePassword(accountsContext(deps), caller(request.auth), request.body));
  },
});

const sessions = userRoute({
  async handle(request, deps) {
    return json(200, { sessions: await settings.listDevices(accountsContext(deps), caller(request.auth)) });
  },
});

const signOutOthers = userRoute({
  async handle(request, deps) {
    return json(200, await settings.endOtherSessions(accountsContext(deps), caller(request.auth)));
  },
});

const signOutDevice = userRoute({
  async handle(request, deps) {
    await settings.endDeviceSession(accountsContext(deps), caller(request.auth), request.params.id ?? '');
    return noContent();
  },
});

const exportData = userRoute({
  async handle(request, deps) {
    const document = await exportAccount(exportContext(deps), caller(request.auth));
    const day = document.exportedAt.slice(0, 10);
    return json(200, document, { 'content-disposition': `attachment; filename="loopcast-account-${day}.json"` });
  },
});

const close = userRoute({
  body: z.object({ password }),
  async handle(request, deps) {
    return json(202, { pendingClosure: await requestClosure(await closureContext(deps), caller(request.auth), request.body.password) });
  },
});

const confirmClose = publicRoute({
  body: z.object({ token }),
  async handle(request, deps) {
    const details = await confirmClosure(await closureContext(deps), request.body.token);
    // Counts and provider ids only: what support needs to follow up (a subscription, invoices), no personal data.
    logger.info('account closed by its owner', { details });
    return json(200, { closed: true });
  },
});

export const createAccountHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({
    group: 'account',
    deps,
    authenticate: authenticateSession,
    routes: {
      'GET /api/account': account,
      'PATCH /api/account': updateProfile,
      'POST /api/account/email': changeEmail,
      'POST /api/account/email/confirm': confirmEmailChange,
      'POST /api/account/password': changePassword,
      'GET /api/account/sessions': sessions,
      'POST /api/account/sessions/sign-out-others': signOutOthers,
      'DELETE /api/account/sessions/{id}': signOutDevice,
      'GET /api/account/export': exportData,
      'POST /api/account/close': close,
      'POST /api/account/close/confirm': confirmClose,
    },
  });

export const handler = createAccountHandler(depsFromEnvironment);
