// The account use cases: register, confirm, sign in and out, password reset. Pure orchestration over the ports;
// the HTTP handlers (lambdas/http/auth.ts) only parse requests and map results.
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import type { LanguageCode } from '../languages';
import { checkNotDisposable, normalizeEmail } from './email-address';
import { confirmationEmail, passwordResetEmail } from './emails';
import { checkPasswordPolicy, DECOY_HASH, hashPassword, verifyPassword } from './passwords';
import type { AccountsStore, Mailer, RateLimiter, Session, User } from './ports';
import { enforce } from './rate-limits';
import { CONFIRMATION_TTL_SECONDS, hashToken, newToken, PASSWORD_RESET_TTL_SECONDS, SESSION_TTL_SECONDS } from './tokens';

export interface AccountsContext {
  store: AccountsStore;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  now: () => Date;
  publicUrl: string;
}

/** Who is asking, for rate limits and the session record. */
export interface Client {
  ip: string;
  userAgent: string;
}

/** What the browser may see of a user (never the password hash). */
export interface PublicUser {
  id: string;
  email: string;
  displayName: string;
  language: LanguageCode;
  status: User['status'];
  createdAt: string;
}

export const publicUser = (user: User): PublicUser => ({
  id: user.id,
  email: user.email,
  displayName: user.displayName,
  language: user.language,
  status: user.status,
  createdAt: user.createdAt,
});

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

async function sendConfirmation(context: AccountsContext, user: User): Promise<void> {
  const token = newToken();
  await context.store.putEmailToken({
    tokenHash: hashToken(token),
    purpose: 'confirm',
    userId: user.id,
    expiresAt: epochSeconds(context.now()) + CONFIRMATION_TTL_SECONDS,
  });
  await context.mailer.send(confirmationEmail(user, context.publicUrl, token, CONFIRMATION_TTL_SECONDS));
}

async function startSession(context: AccountsContext, user: User, client: Client): Promise<{ token: string; user: PublicUser }> {
  const token = newToken();
  const now = context.now();
  const session: Session = {
    tokenHash: hashToken(token),
    userId: user.id,
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + SESSION_TTL_SECONDS,
    userAgent: client.userAgent.slice(0, 256),
    ip: client.ip,
  };
  await context.store.putSession(session);
  return { token, user: publicUser(user) };
}

export interface Registration {
  displayName: string;
  email: string;
  password: string;
  language: LanguageCode;
}

export async function register(context: AccountsContext, input: Registration, client: Client): Promise<PublicUser> {
  await enforce(context.rateLimiter, [['registerPerIp', client.ip]], context.now());
  const email = normalizeEmail(input.email);
  checkNotDisposable(email);
  checkPasswordPolicy(input.password, email);
  const now = context.now().toISOString();
  const user: User = {
    id: randomUUID(),
    email,
    displayName: input.displayName.trim(),
    language: input.language,
    status: 'pending',
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    termsAcceptedAt: now,
  };
  if ((await context.store.createUser(user)) === 'email taken') throw new AppError('already exists');
  await sendConfirmation(context, user);
  return publicUser(user);
}

/** Sends a fresh confirmation link to a pending account; answers the same for any other address. */
export async function resendConfirmation(context: AccountsContext, rawEmail: string, client: Client): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await enforce(context.rateLimiter, [['confirmationPerEmail', email], ['resetRequestPerIp', client.ip]], context.now());
  const user = await context.store.userByEmail(email);
  if (user?.status === 'pending') await sendConfirmation(context, user);
}

/** Confirms the e-mail address behind a link and signs the user in: the link proved they own the address. */
export async function confirmEmail(context: AccountsContext, token: string, client: Client): Promise<{ token: string; user: PublicUser }> {
  const record = await context.store.takeEmailToken(hashToken(token), 'confirm');
  if (!record || record.expiresAt <= epochSeconds(context.now())) throw new AppError('invalid token');
  const user = await context.store.userById(record.userId);
  if (!user || user.status === 'terminated') throw new AppError('invalid token');
  if (user.status === 'suspended') throw new AppError('account suspended');
  if (user.status === 'pending') {
    await context.store.updateUser(user.id, { status: 'active', confirmedAt: context.now().toISOString() });
    user.status = 'active';
  }
  return startSession(context, user, client);
}

export async function signIn(context: AccountsContext, rawEmail: string, password: string, client: Client): Promise<{ token: string; user: PublicUser }> {
  const email = normalizeEmail(rawEmail);
  await enforce(context.rateLimiter, [['loginPerIp', client.ip], ['loginPerEmail', email]], context.now());
  const user = await context.store.userByEmail(email);
  const passwordMatches = await verifyPassword(password, user?.passwordHash ?? (await DECOY_HASH));
  // Only someone who knows the password learns more than "wrong e-mail or password".
  if (!user || !passwordMatches || user.status === 'terminated') throw new AppError('invalid credentials');
  if (user.status === 'pending') throw new AppError('email not confirmed');
  if (user.status === 'suspended') throw new AppError('account suspended');
  return startSession(context, user, client);
}

export async function signOut(context: AccountsContext, sessionId: string): Promise<void> {
  await context.store.deleteSession(sessionId);
}

/** Sends a reset link when the address belongs to an account; the answer is the same either way. */
export async function requestPasswordReset(context: AccountsContext, rawEmail: string, client: Client): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await enforce(context.rateLimiter, [['resetRequestPerIp', client.ip], ['resetRequestPerEmail', email]], context.now());
  const user = await context.store.userByEmail(email);
  if (!user || user.status === 'terminated' || user.status === 'suspended') return;
  const token = newToken();
  await context.store.putEmailToken({
    tokenHash: hashToken(token),
    purpose: 'reset',
    userId: user.id,
    expiresAt: epochSeconds(context.now()) + PASSWORD_RESET_TTL_SECONDS,
  });
  try {
    await context.mailer.send(passwordResetEmail(user, context.publicUrl, token, PASSWORD_RESET_TTL_SECONDS));
  } catch {
    throw new AppError('password reset email failed');
  }
}

/** Sets a new password from a reset link, ends every session of the account, and signs in afresh. */
export async function resetPassword(context: AccountsContext, token: string, password: string, client: Client): Promise<{ token: string; user: PublicUser }> {
  await enforce(context.rateLimiter, [['resetPerIp', client.ip]], context.now());
  const tokenHash = hashToken(token);
  const pending = await context.store.emailToken(tokenHash, 'reset');
  const user = pending && pending.expiresAt > epochSeconds(context.now()) ? await context.store.userById(pending.userId) : undefined;
  if (!user || user.status === 'terminated' || user.status === 'suspended') throw new AppError('invalid token');
  // The policy is checked before the link is spent, so a refused password leaves the link usable.
  checkPasswordPolicy(password, user.email);
  if (!(await context.store.takeEmailToken(tokenHash, 'reset'))) throw new AppError('invalid token');
  // Following a reset link also proves the address, so a pending account becomes active.
  const changes = {
    passwordHash: await hashPassword(password),
    ...(user.status === 'pending' ? { status: 'active' as const, confirmedAt: context.now().toISOString() } : {}),
  };
  await context.store.updateUser(user.id, changes);
  await context.store.deleteSessionsOf(user.id);
  return startSession(context, { ...user, ...changes }, client);
}

export async function currentUser(context: Pick<AccountsContext, 'store'>, userId: string): Promise<PublicUser> {
  const user = await context.store.userById(userId);
  if (!user || user.status !== 'active') throw new AppError('unauthorized');
  return publicUser(user);
}
