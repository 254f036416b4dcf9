// The account use cases: register, confirm, sign in and out, password reset. Pure orchestration over the ports;
// the HTTP handlers (lambdas/http/auth.ts) only parse requests and map results.
import { randomUUID } from 'node:crypto';
import type { PublicUser } from '../../contract/api/account';
import { AppError } from '../errors';
import type { LanguageCode } from '../languages';
import { checkNotDisposable, normalizeEmail } from './email-address';
import { issueDeviceToken, trustedDevice } from './devices';
import { accountExistsEmail, confirmationEmail, passwordResetEmail } from './emails';
import { checkPasswordPolicy, decoyHash, hashPassword, verifyPassword, type ScryptCost } from './passwords';
import type { AccountsStore, Mailer, OpenConnections, RateLimiter, Session, User } from './ports';
import { enforce, withinLimit } from './rate-limits';
import { CONFIRMATION_TTL_SECONDS, hashToken, newToken, PASSWORD_RESET_TTL_SECONDS, SESSION_TTL_SECONDS } from './tokens';

export interface AccountsContext {
  store: AccountsStore;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** The user's realtime WebSockets, closed when their session ends. */
  connections: OpenConnections;
  /** The HMAC key of device tokens (devices.ts). */
  signingKey: () => Promise<string>;
  now: () => Date;
  publicUrl: string;
  /** The cost new password hashes are made with (PASSWORD_COST but in the test suite's stacks). */
  passwordCost: ScryptCost;
}

/** Who is asking, for rate limits and the session record. */
export interface Client {
  ip: string;
  userAgent: string;
  /** The browser's device token (a cookie), when it has one. */
  deviceToken?: string;
}

/** A signed-in browser: its session token, the user, and a device token for its next sign-ins (devices.ts). */
export interface SignedIn {
  token: string;
  user: PublicUser;
  deviceToken: string;
}

/** What the browser may see of a user (never the password hash). */
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
    issuedAt: context.now().toISOString(),
  });
  await context.mailer.send(confirmationEmail(user, context.publicUrl, token, CONFIRMATION_TTL_SECONDS));
}

async function startSession(context: AccountsContext, user: User, client: Client): Promise<SignedIn> {
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
  return { token, user: publicUser(user), deviceToken: issueDeviceToken(user.email, await context.signingKey()) };
}

export interface Registration {
  displayName: string;
  email: string;
  password: string;
  language: LanguageCode;
}

/** Registers a pending account and e-mails its confirmation link. The answer is the same whether the address was
 * free or not (no one learns from it who has an account): the owner of a taken address gets an e-mail instead, a
 * fresh confirmation link while the account is unconfirmed, else a link to sign in. */
export async function register(context: AccountsContext, input: Registration, client: Client): Promise<{ email: string }> {
  await enforce(context.rateLimiter, [['registerPerIp', client.ip]], context.now());
  const email = normalizeEmail(input.email);
  await checkNotDisposable(email);
  await checkPasswordPolicy(input.password, email);
  const now = context.now().toISOString();
  const user: User = {
    id: randomUUID(),
    email,
    displayName: input.displayName.trim(),
    language: input.language,
    status: 'pending',
    passwordHash: await hashPassword(input.password, context.passwordCost),
    createdAt: now,
    termsAcceptedAt: now,
  };
  if ((await context.store.createUser(user)) === 'created') await sendConfirmation(context, user);
  else await tellOwnerOfTakenAddress(context, email);
  return { email };
}

async function tellOwnerOfTakenAddress(context: AccountsContext, email: string): Promise<void> {
  // Anyone can send these: met silently over the limit, so they cannot flood the owner's inbox.
  if (!(await withinLimit(context.rateLimiter, 'confirmationPerEmail', email, context.now()))) return;
  const owner = await context.store.userByEmail(email);
  if (!owner || owner.status === 'terminated') return;
  if (owner.status === 'pending') await sendConfirmation(context, owner);
  else await context.mailer.send(accountExistsEmail(owner, context.publicUrl));
}

/** Sends a fresh confirmation link to a pending account; answers the same for any other address, and the same
 * when the address's own limit is reached (then nothing is sent: no stranger can make its owner see a refusal). */
export async function resendConfirmation(context: AccountsContext, rawEmail: string, client: Client): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await enforce(context.rateLimiter, [['resetRequestPerIp', client.ip]], context.now());
  if (!(await withinLimit(context.rateLimiter, 'confirmationPerEmail', email, context.now()))) return;
  const user = await context.store.userByEmail(email);
  if (user?.status === 'pending') await sendConfirmation(context, user);
}

/** Confirms the e-mail address behind a link and signs the user in: the link proved they own the address. */
export async function confirmEmail(context: AccountsContext, token: string, client: Client): Promise<SignedIn> {
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

/** Signs in. Attempts count per IP; then a browser this account signed in on before (its device token) has its own
 * budget, and every other browser shares the address's budgets (per IP, and from anywhere), which strangers can
 * spend without ever blocking the owner's own browsers. */
export async function signIn(context: AccountsContext, rawEmail: string, password: string, client: Client): Promise<SignedIn> {
  const email = normalizeEmail(rawEmail);
  const device = trustedDevice(client.deviceToken, email, await context.signingKey());
  await enforce(
    context.rateLimiter,
    device
      ? [
          ['loginPerIp', client.ip],
          ['loginPerDevice', device],
        ]
      : [
          ['loginPerIp', client.ip],
          ['loginPerEmailAndIp', `${email}\u0000${client.ip}`],
          ['loginPerEmail', email],
        ],
    context.now(),
  );
  const user = await context.store.userByEmail(email);
  const passwordMatches = await verifyPassword(password, user?.passwordHash ?? decoyHash(context.passwordCost));
  // Only someone who knows the password learns more than "wrong e-mail or password".
  if (!user || !passwordMatches || user.status === 'terminated') throw new AppError('invalid credentials');
  if (user.status === 'pending') throw new AppError('email not confirmed');
  if (user.status === 'suspended') throw new AppError('account suspended');
  return startSession(context, user, client);
}

/** Ends this session and the realtime connections opened with it. */
export async function signOut(context: AccountsContext, userId: string, sessionId: string): Promise<void> {
  await context.store.deleteSession(sessionId);
  await context.connections.close(userId, sessionId);
}

/** Sends a reset link when the address belongs to an account; the answer is the same either way, and the same
 * when the address's own limit is reached: then nothing is sent, and the owner still has the links already sent. */
export async function requestPasswordReset(context: AccountsContext, rawEmail: string, client: Client): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await enforce(context.rateLimiter, [['resetRequestPerIp', client.ip]], context.now());
  if (!(await withinLimit(context.rateLimiter, 'resetRequestPerEmail', email, context.now()))) return;
  const user = await context.store.userByEmail(email);
  if (!user || user.status === 'terminated' || user.status === 'suspended') return;
  const token = newToken();
  await context.store.putEmailToken({
    tokenHash: hashToken(token),
    purpose: 'reset',
    userId: user.id,
    expiresAt: epochSeconds(context.now()) + PASSWORD_RESET_TTL_SECONDS,
    issuedAt: context.now().toISOString(),
  });
  try {
    await context.mailer.send(passwordResetEmail(user, context.publicUrl, token, PASSWORD_RESET_TTL_SECONDS));
  } catch {
    throw new AppError('password reset email failed');
  }
}

/** Links made before the password last changed: a reset link used ends every older one (security audit M5). */
const issuedBeforeLastChange = (token: { issuedAt?: string }, user: User) =>
  user.passwordChangedAt !== undefined && !(token.issuedAt !== undefined && token.issuedAt > user.passwordChangedAt);

/** Sets a new password from a reset link, ends every session of the account (and its realtime connections), and
 * signs in afresh. Links issued before it stop working. */
export async function resetPassword(context: AccountsContext, token: string, password: string, client: Client): Promise<SignedIn> {
  await enforce(context.rateLimiter, [['resetPerIp', client.ip]], context.now());
  const tokenHash = hashToken(token);
  const pending = await context.store.emailToken(tokenHash, 'reset');
  const user = pending && pending.expiresAt > epochSeconds(context.now()) ? await context.store.userById(pending.userId) : undefined;
  if (!user || user.status === 'terminated' || user.status === 'suspended' || issuedBeforeLastChange(pending!, user)) throw new AppError('invalid token');
  // The policy is checked before the link is spent, so a refused password leaves the link usable.
  await checkPasswordPolicy(password, user.email);
  if (!(await context.store.takeEmailToken(tokenHash, 'reset'))) throw new AppError('invalid token');
  // Following a reset link also proves the address, so a pending account becomes active.
  const changes = {
    passwordHash: await hashPassword(password, context.passwordCost),
    passwordChangedAt: context.now().toISOString(),
    ...(user.status === 'pending' ? { status: 'active' as const, confirmedAt: context.now().toISOString() } : {}),
  };
  await context.store.updateUser(user.id, changes);
  await context.store.deleteSessionsOf(user.id);
  await context.connections.close(user.id);
  return startSession(context, { ...user, ...changes }, client);
}

export async function currentUser(context: Pick<AccountsContext, 'store'>, userId: string): Promise<PublicUser> {
  const user = await context.store.userById(userId);
  if (!user || user.status !== 'active') throw new AppError('unauthorized');
  return publicUser(user);
}
