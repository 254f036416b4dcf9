// The account page's use cases (issue 17, item 4): name and language, a new e-mail address confirmed by a link
// sent to it (the old address told), a new password (the current one asked; every other session ends), and the
// signed-in devices with "sign out everywhere else". Closing the account and its data export: closure.ts,
// export.ts. The HTTP routes: lambdas/http/account.ts.
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import type { LanguageCode } from '../languages';
import type { AccountView, DeviceView, PublicUser } from '../../contract/api/account';
import { publicUser, type AccountsContext, type Client } from './accounts';
import { checkNotDisposable, normalizeEmail } from './email-address';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords';
import type { EmailToken, Session, User } from './ports';
import { enforce } from './rate-limits';
import { emailChangedEmail, emailChangeEmail, emailInUseEmail, passwordChangedEmail } from './settings-emails';
import { hashToken, newToken } from './tokens';
import { summarizeUserAgent } from './user-agent';

/** A link to a new address works this long: as the confirmation of a new account. */
export const EMAIL_CHANGE_TTL_SECONDS = 48 * 3600;

/** The signed-in caller: the user and the session the request came with (its token's hash). */
export interface Caller {
  userId: string;
  sessionId: string;
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The signed-in user's account as it stands; only active accounts have sessions that reach here. */
export async function activeUser(context: Pick<AccountsContext, 'store'>, userId: string): Promise<User> {
  const user = await context.store.userById(userId);
  if (!user || user.status !== 'active') throw new AppError('unauthorized');
  return user;
}

/**
 * Asks for the current password before a change that a stolen session must not make on its own. Guesses count
 * per account (the session is already the caller's), so a session cannot be used to find the password.
 */
export async function checkCurrentPassword(context: AccountsContext, user: User, password: string): Promise<void> {
  await enforce(context.rateLimiter, [['passwordCheckPerUser', user.id]], context.now());
  if (!(await verifyPassword(password, user.passwordHash))) throw new AppError('wrong password');
}

export async function accountView(context: AccountsContext, userId: string): Promise<AccountView> {
  const user = await activeUser(context, userId);
  const now = epochSeconds(context.now());
  const pending = (await context.store.emailTokensOf(userId))
    .filter((token): token is EmailToken & { newEmail: string } => token.purpose === 'email-change' && token.expiresAt > now && token.newEmail !== undefined)
    .sort((a, b) => b.expiresAt - a.expiresAt)[0];
  return {
    user: publicUser(user),
    ...(pending ? { pendingEmail: { email: pending.newEmail, expiresAt: new Date(pending.expiresAt * 1000).toISOString() } } : {}),
  };
}

/** The display name and the language of e-mails (and of the app's links in them). */
export async function updateProfile(context: AccountsContext, userId: string, changes: { displayName?: string; language?: LanguageCode }): Promise<PublicUser> {
  const user = await activeUser(context, userId);
  const displayName = changes.displayName?.trim();
  const update = { ...(displayName ? { displayName } : {}), ...(changes.language ? { language: changes.language } : {}) };
  await context.store.updateUser(userId, update);
  return publicUser({ ...user, ...update });
}

/**
 * Sends a link to the new address; the account moves there when it is followed (confirmEmailChange). The answer
 * (and the account page afterwards) is the same whether the address is free or taken, so no one learns from it
 * who has an account: a taken address gets a note instead of the link. A newer request replaces an older link.
 */
export async function requestEmailChange(
  context: AccountsContext,
  caller: Caller,
  input: { email: string; password: string },
  client: Client,
): Promise<{ email: string; expiresAt: string }> {
  const user = await activeUser(context, caller.userId);
  const email = normalizeEmail(input.email);
  await enforce(
    context.rateLimiter,
    [
      ['emailChangePerUser', user.id],
      ['emailChangePerIp', client.ip],
    ],
    context.now(),
  );
  await checkCurrentPassword(context, user, input.password);
  if (email === user.email) throw new AppError('same email');
  await checkNotDisposable(email);
  await context.store.deleteEmailTokensOf(user.id, 'email-change');
  const expiresAt = epochSeconds(context.now()) + EMAIL_CHANGE_TTL_SECONDS;
  // Stored either way, so the account page shows the same waiting address for a free and a taken one.
  const token = newToken();
  await context.store.putEmailToken({ tokenHash: hashToken(token), purpose: 'email-change', userId: user.id, expiresAt, newEmail: email });
  if (await context.store.userByEmail(email)) await context.mailer.send(emailInUseEmail(user.language, email, context.publicUrl));
  else await context.mailer.send(emailChangeEmail(user, email, context.publicUrl, token, EMAIL_CHANGE_TTL_SECONDS));
  return { email, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/**
 * Follows a link sent to a new address: the account moves there (the claim on the address in one transaction with
 * the user, so the address never belongs to two accounts), and the old address is told. Opening it signed out is
 * fine: the link itself proves the new mailbox, and the account's sessions stay as they are.
 */
export async function confirmEmailChange(context: AccountsContext, token: string): Promise<PublicUser> {
  const record = await context.store.takeEmailToken(hashToken(token), 'email-change');
  if (!record?.newEmail || record.expiresAt <= epochSeconds(context.now())) throw new AppError('invalid token');
  const user = await context.store.userById(record.userId);
  if (!user || user.status !== 'active') throw new AppError('invalid token');
  if (user.email !== record.newEmail) {
    if ((await context.store.changeEmail(user.id, user.email, record.newEmail)) === 'email taken') throw new AppError('email taken');
    await context.mailer.send(emailChangedEmail(user, user.email, record.newEmail, context.publicUrl));
  }
  return publicUser({ ...user, email: record.newEmail });
}

/** Sets a new password after checking the current one; every other session ends with its realtime sockets, this
 * one stays. */
export async function changePassword(
  context: AccountsContext,
  caller: Caller,
  input: { currentPassword: string; newPassword: string },
): Promise<{ sessionsEnded: number }> {
  const user = await activeUser(context, caller.userId);
  await checkCurrentPassword(context, user, input.currentPassword);
  if (input.currentPassword === input.newPassword) throw new AppError('same password');
  await checkPasswordPolicy(input.newPassword, user.email);
  // passwordChangedAt: reset links sent before now stop working (accounts.ts, as after a reset).
  await context.store.updateUser(user.id, {
    passwordHash: await hashPassword(input.newPassword, context.passwordCost),
    passwordChangedAt: context.now().toISOString(),
  });
  const sessionsEnded = await context.store.deleteSessionsOf(user.id, caller.sessionId);
  await context.connections.closeAllBut(user.id, caller.sessionId);
  await context.mailer.send(passwordChangedEmail(user, context.publicUrl));
  return { sessionsEnded };
}

/** A signed-in device as the account page lists it. `id` names it for "sign out" without being its key. */
const deviceId = (session: Pick<Session, 'tokenHash'>) => createHash('sha256').update(`device:${session.tokenHash}`).digest('base64url').slice(0, 22);

/** The account's open sessions, the caller's first, then the most recently used. */
export async function listDevices(context: AccountsContext, caller: Caller): Promise<DeviceView[]> {
  await activeUser(context, caller.userId);
  const now = epochSeconds(context.now());
  const lastSeen = (session: Session) => session.lastUsedAt ?? session.createdAt;
  return (await context.store.sessionsOf(caller.userId))
    .filter((session) => session.expiresAt > now)
    .map((session) => ({
      id: deviceId(session),
      current: session.tokenHash === caller.sessionId,
      createdAt: session.createdAt,
      ...(session.lastUsedAt ? { lastUsedAt: session.lastUsedAt } : {}),
      device: summarizeUserAgent(session.userAgent),
      ip: session.ip,
      seen: lastSeen(session),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.seen.localeCompare(a.seen))
    .map(({ seen: _seen, ...view }) => view);
}

/** "Sign out everywhere else": every session but the caller's ends. */
export async function endOtherSessions(context: AccountsContext, caller: Caller): Promise<{ sessionsEnded: number }> {
  await activeUser(context, caller.userId);
  const sessionsEnded = await context.store.deleteSessionsOf(caller.userId, caller.sessionId);
  await context.connections.closeAllBut(caller.userId, caller.sessionId);
  return { sessionsEnded };
}

/** Signs one device out (the caller's own too: that is signing out). */
export async function endDeviceSession(context: AccountsContext, caller: Caller, id: string): Promise<void> {
  await activeUser(context, caller.userId);
  const session = (await context.store.sessionsOf(caller.userId)).find((candidate) => deviceId(candidate) === id);
  if (!session) throw new AppError('not found');
  await context.store.deleteSession(session.tokenHash);
  await context.connections.close(caller.userId, session.tokenHash);
}

/** How often a session's `lastUsedAt` is written: one write per session and hour at most, whatever the traffic. */
export const LAST_USED_RESOLUTION_SECONDS = 3600;

/** Whether a request with this session should record its use now. */
export function lastUseDue(session: Pick<Session, 'createdAt' | 'lastUsedAt'>, now: Date): boolean {
  const last = Date.parse(session.lastUsedAt ?? session.createdAt);
  return !(now.getTime() - last < LAST_USED_RESOLUTION_SECONDS * 1000);
}
