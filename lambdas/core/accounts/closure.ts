// Closing an account by its owner (issue 17, item 4; the terms: "You may close your account at any time"): asked
// for on the account page with the current password, confirmed by a link e-mailed to the account's address, then
// done as the operator's termination does it (lambdas/core/support/erasure.ts): streams stopped, the paid
// subscription canceled, media, destinations with their stored keys and every other item deleted. Kept: payment
// records the law requires (they carry amounts and dates, no contact data).
import { AppError } from '../errors';
import { closeAccount, paidSubscriptionOf, type ErasureContext, type ErasureDetails } from '../support/erasure';
import type { SubscriptionControl } from '../support/ports';
import type { AccountsContext } from './accounts';
import type { Caller } from './settings';
import { activeUser, checkCurrentPassword } from './settings';
import { accountClosedEmail, closeAccountEmail } from './settings-emails';
import { enforce } from './rate-limits';
import { hashToken, newToken } from './tokens';

/** A closure link works this long: a day to read the e-mail, not a week for a forgotten link to lie around. */
export const CLOSURE_TTL_SECONDS = 24 * 3600;

export interface ClosureContext {
  accounts: AccountsContext;
  erasure: ErasureContext;
  /** Ends a paid subscription at the payment provider; absent where payments are not configured. */
  subscriptions?: Pick<SubscriptionControl, 'cancel'>;
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** E-mails the link that closes the account, after checking the current password. A newer link replaces an older one. */
export async function requestClosure(context: ClosureContext, caller: Caller, password: string): Promise<{ email: string; expiresAt: string }> {
  const { accounts } = context;
  const user = await activeUser(accounts, caller.userId);
  await enforce(accounts.rateLimiter, [['closurePerUser', user.id]], accounts.now());
  await checkCurrentPassword(accounts, user, password);
  await accounts.store.deleteEmailTokensOf(user.id, 'close');
  const token = newToken();
  const expiresAt = epochSeconds(accounts.now()) + CLOSURE_TTL_SECONDS;
  await accounts.store.putEmailToken({ tokenHash: hashToken(token), purpose: 'close', userId: user.id, expiresAt });
  await accounts.mailer.send(closeAccountEmail(user, accounts.publicUrl, token, CLOSURE_TTL_SECONDS));
  return { email: user.email, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/**
 * Follows the e-mailed link: the account is closed and its data erased, then a goodbye goes to its address. The
 * link is spent by the erasure itself (it deletes the account's links last of all), so a closure interrupted part
 * way (a dependency down) is finished by following the same link again.
 */
export async function confirmClosure(context: ClosureContext, token: string): Promise<ErasureDetails> {
  const { accounts, erasure } = context;
  const record = await accounts.store.emailToken(hashToken(token), 'close');
  if (!record || record.expiresAt <= epochSeconds(accounts.now())) throw new AppError('invalid token');
  const user = await accounts.store.userById(record.userId);
  if (!user) throw new AppError('invalid token');
  if (user.status === 'suspended') throw new AppError('account suspended');
  const paid = await paidSubscriptionOf(erasure, user.id);
  // Nothing is changed unless the subscription can be ended too: closing must never leave a subscription charging.
  if (paid && !context.subscriptions) throw new AppError('payment provider missing configuration');
  const details = await closeAccount(erasure, user, paid && context.subscriptions ? { id: paid, control: context.subscriptions } : undefined);
  try {
    await accounts.mailer.send(accountClosedEmail(user, accounts.publicUrl));
  } catch {
    // The account is closed either way; the goodbye is a courtesy.
    return { ...details, goodbyeEmail: 'failed' };
  }
  return details;
}
