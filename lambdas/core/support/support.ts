// The operator's support use cases (spec section 1: the operator may suspend or terminate accounts): find an
// account, suspend it, reactivate it, terminate it (its data deleted as the privacy policy says), and read its
// audit trail. Every change is written to the audit log, done or failed. The CLI is bin/support.ts; the rules
// are in docs/operations.md ("Support tool").
import { createHash } from 'node:crypto';
import { normalizeEmail } from '../accounts/email-address';
import { publicUser } from '../accounts/accounts';
import type { User } from '../accounts/ports';
import { subscriptionOverview, type BillingContext } from '../billing/billing';
import { closeAccount, eraseData, paidSubscriptionOf, shutOut, type ErasureContext } from './erasure';
import type { AuditAction, AuditEntry, AuditLog, Operator, SubscriptionControl } from './ports';

export { PAYMENT_RETENTION_YEARS } from './erasure';

export interface SupportContext extends ErasureContext {
  billing: BillingContext;
  audit: AuditLog;
  /** Absent when no payment provider is configured where the tool runs. */
  subscriptions?: SubscriptionControl;
  operator: Operator;
  now: () => Date;
}

/** The command cannot be carried out as asked; nothing was changed. */
export class SupportRefusal extends Error {
  override readonly name = 'SupportRefusal';
}

export const REASON_MAX_LENGTH = 500;

export const emailHashOf = (email: string): string => createHash('sha256').update(normalizeEmail(email)).digest('hex');

const isEmail = (query: string) => query.includes('@');

async function accountOf(context: Pick<SupportContext, 'accounts'>, query: string): Promise<User | undefined> {
  const trimmed = query.trim();
  if (!trimmed) throw new SupportRefusal('name an account by e-mail address or user id');
  return isEmail(trimmed) ? context.accounts.userByEmail(normalizeEmail(trimmed)) : context.accounts.userById(trimmed);
}

async function existingAccount(context: Pick<SupportContext, 'accounts'>, query: string): Promise<User> {
  const user = await accountOf(context, query);
  if (!user) throw new SupportRefusal(`no account matches "${query}"`);
  return user;
}

/** The audit trail of what the query names: the account's, or (account gone) the id's or the address's. */
async function historyOf(context: Pick<SupportContext, 'audit'>, query: string, user: User | undefined): Promise<AuditEntry[]> {
  if (user) return context.audit.ofUser(user.id);
  return isEmail(query) ? context.audit.ofEmailHash(emailHashOf(query)) : context.audit.ofUser(query.trim());
}

function checkedReason(reason: string | undefined, required: boolean): string | undefined {
  const trimmed = reason?.trim();
  if (!trimmed) {
    if (required) throw new SupportRefusal('give the reason (it is kept in the audit log)');
    return undefined;
  }
  if (trimmed.length > REASON_MAX_LENGTH) throw new SupportRefusal(`the reason is longer than ${REASON_MAX_LENGTH} characters`);
  return trimmed;
}

type Details = Record<string, string | number>;

/** Runs an action and writes its audit entry, also when it fails part way (then with the error, and rethrown). */
async function recorded(
  context: SupportContext,
  subject: { userId: string; emailHash: string },
  action: AuditAction,
  reason: string | undefined,
  run: () => Promise<Details>,
): Promise<AuditEntry> {
  const base = { ...subject, action, at: context.now().toISOString(), operator: context.operator, ...(reason ? { reason } : {}) };
  let details: Details;
  try {
    details = await run();
  } catch (error) {
    await context.audit.append({ ...base, outcome: 'failed', details: { error: (error as Error).message } });
    throw error;
  }
  const entry: AuditEntry = { ...base, outcome: 'done', details };
  await context.audit.append(entry);
  return entry;
}

const subjectOf = (user: User) => ({ userId: user.id, emailHash: emailHashOf(user.email) });

/** What became of the paid subscription's billing, for the audit entry: its id, or why it was not changed. The
 * account's own change is done by then and stands: a payment provider that is absent or failing is reported, for
 * the operator to finish in its dashboard, rather than undoing a suspension. */
async function withBilling(
  context: SupportContext,
  subscriptionId: string | undefined,
  change: (control: SubscriptionControl, id: string) => Promise<void>,
): Promise<string> {
  if (!subscriptionId) return 'none';
  if (!context.subscriptions) return `not changed: ${subscriptionId} is at the payment provider, which is not configured here`;
  try {
    await change(context.subscriptions, subscriptionId);
  } catch (error) {
    return `not changed: the payment provider failed for ${subscriptionId} (${(error as Error).message}); change it in its dashboard`;
  }
  return subscriptionId;
}

export interface UserReport {
  user: Pick<User, 'id' | 'email' | 'displayName' | 'language' | 'status' | 'createdAt' | 'confirmedAt'>;
  subscription: {
    plan: string;
    period?: string;
    state: string;
    active: boolean;
    cycleEnd: string;
    cancelAtPeriodEnd: boolean;
    graceEndsAt?: string;
    payments: number;
  };
  usage: {
    storageBytes: number;
    storageLimitBytes: number;
    runningStreams: number;
    concurrentStreams: number;
    uploadsThisCycle: number;
    uploadsPerCycle: number;
  };
  media: { items: number; encoding: number };
  streams: { id: string; title: string; status: string; restarts: number; startedAt?: string; lastError?: string }[];
  audit: AuditEntry[];
}

export type FindResult = { found: true; report: UserReport } | { found: false; query: string; audit: AuditEntry[] };

/** An account by e-mail or id: status, plan, usage, streams and its audit trail; for an account that is gone,
 * what the audit log knows of the id or address. */
export async function findUser(context: SupportContext, query: string): Promise<FindResult> {
  const user = await accountOf(context, query);
  if (!user) return { found: false, query, audit: await historyOf(context, query, undefined) };
  const [overview, streams, videos, audit] = await Promise.all([
    subscriptionOverview(context.billing, user.id),
    context.streams.streams.list(user.id),
    context.videos.list(user.id),
    context.audit.ofUser(user.id),
  ]);
  return {
    found: true,
    report: {
      user: { ...publicUser(user), ...(user.confirmedAt ? { confirmedAt: user.confirmedAt } : {}) },
      subscription: {
        plan: overview.plan,
        ...(overview.period ? { period: overview.period } : {}),
        state: overview.state,
        active: overview.active,
        cycleEnd: overview.cycleEnd,
        cancelAtPeriodEnd: overview.cancelAtPeriodEnd,
        ...(overview.graceEndsAt ? { graceEndsAt: overview.graceEndsAt } : {}),
        payments: overview.payments.length,
      },
      usage: {
        storageBytes: overview.usage.storageBytes,
        storageLimitBytes: overview.limits.storageBytes,
        runningStreams: overview.usage.runningStreams,
        concurrentStreams: overview.limits.concurrentStreams,
        uploadsThisCycle: overview.usage.uploadsThisCycle,
        uploadsPerCycle: overview.limits.uploadsPerCycle,
      },
      media: { items: videos.length, encoding: videos.filter((video) => video.status === 'encoding').length },
      streams: streams.map((stream) => ({
        id: stream.id,
        title: stream.title,
        status: stream.status,
        restarts: stream.restarts,
        ...(stream.startedAt ? { startedAt: stream.startedAt } : {}),
        ...(stream.lastError ? { lastError: stream.lastError } : {}),
      })),
      audit,
    },
  };
}

/** Suspension: sign-in refused ('account suspended'), sessions ended, streams stopped with their tasks, the paid
 * subscription's billing paused (renewals voided, not charged); nothing is deleted, and reactivation gives
 * everything back. A suspension is not held up by the payment provider (see withBilling). */
export async function suspendUser(context: SupportContext, query: string, reason: string | undefined): Promise<AuditEntry> {
  const why = checkedReason(reason, true);
  const user = await existingAccount(context, query);
  if (user.status === 'suspended') throw new SupportRefusal(`the account ${user.id} is already suspended`);
  if (user.status === 'terminated') throw new SupportRefusal(`the account ${user.id} is terminated`);
  const subscriptionId = await paidSubscriptionOf(context, user.id);
  return recorded(context, subjectOf(user), 'suspend', why, async () => ({
    previousStatus: user.status,
    streamsStopped: await shutOut(context, user, 'suspended'),
    billingPaused: await withBilling(context, subscriptionId, (control, id) => control.pauseBilling(id)),
  }));
}

/** Ends a suspension: the account is active again (pending if its e-mail was never confirmed), its paid
 * subscription billed again. Streams stay stopped until the user starts them. */
export async function reactivateUser(context: SupportContext, query: string, reason: string | undefined): Promise<AuditEntry> {
  const why = checkedReason(reason, false);
  const user = await existingAccount(context, query);
  if (user.status !== 'suspended') throw new SupportRefusal(`the account ${user.id} is ${user.status}, not suspended`);
  const status = user.confirmedAt ? 'active' : 'pending';
  const subscriptionId = await paidSubscriptionOf(context, user.id);
  return recorded(context, subjectOf(user), 'reactivate', why, async () => {
    await context.accounts.updateUser(user.id, { status });
    return { status, billingResumed: await withBilling(context, subscriptionId, (control, id) => control.resumeBilling(id)) };
  });
}

/**
 * Termination, as the privacy policy says (erasure.ts, closeAccount): sign-in refused, sessions ended, streams
 * stopped, the paid subscription canceled at the provider, then every object of the user and every item of the
 * account deleted (the e-mail claim too, so the address is free again). Kept: the audit log and the payment
 * records, which expire PAYMENT_RETENTION_YEARS after each payment. Running it again on a terminated id (or address) sweeps
 * again: a transcode that was running finishes later and writes its output, which the second run removes.
 */
export async function terminateUser(context: SupportContext, query: string, reason: string | undefined): Promise<AuditEntry> {
  const why = checkedReason(reason, true);
  const user = await accountOf(context, query);
  if (!user) {
    const earlier = (await historyOf(context, query, undefined)).find((entry) => entry.action === 'terminate');
    if (!earlier) throw new SupportRefusal(`no account matches "${query}"`);
    return recorded(context, { userId: earlier.userId, emailHash: earlier.emailHash }, 'terminate', why, () => eraseData(context, { id: earlier.userId }));
  }
  const toCancel = await paidSubscriptionOf(context, user.id);
  const control = context.subscriptions;
  if (toCancel && !control) {
    throw new SupportRefusal(
      `subscription ${toCancel} is paid through the payment provider, which is not configured here: configure it so the subscription can be canceled first`,
    );
  }
  return recorded(context, subjectOf(user), 'terminate', why, () => closeAccount(context, user, toCancel && control ? { id: toCancel, control } : undefined));
}

/** The audit trail of an account, or of an id or address whose account is gone. Oldest first. */
export async function auditTrail(context: SupportContext, query: string): Promise<AuditEntry[]> {
  return historyOf(context, query, await accountOf(context, query));
}
