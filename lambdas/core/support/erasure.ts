// Ending an account and erasing its data, as the privacy policy says: one implementation for the operator's
// `terminate` (support.ts) and the owner's own closure (lambdas/core/accounts/closure.ts).
import type { AccountsStore, OpenConnections, User } from '../accounts/ports';
import type { BillingContext } from '../billing/billing';
import type { VideoStore } from '../media/ports';
import { stopStream, type StreamsContext } from '../streams/streams';
import type { SubscriptionControl, UserObjects, UserRecords } from './ports';
import { userObjectPrefixes } from '../../contract/buckets';

export interface ErasureContext {
  accounts: AccountsStore;
  /** The account's realtime WebSockets, closed with its sessions. */
  connections: OpenConnections;
  streams: StreamsContext;
  billing: Pick<BillingContext, 'billing'>;
  videos: Pick<VideoStore, 'list'>;
  records: UserRecords;
  objects: UserObjects;
}

/** What an erasure did, for the audit entry (support) or the log (closure). */
export type ErasureDetails = Record<string, string | number>;

/** Payment records outlive a closed account this long after each payment (accounting records; the privacy
 * policy: "except records we must keep by law, such as invoices"), then DynamoDB's TTL removes them. */
export const PAYMENT_RETENTION_YEARS = 10;

/** Stops every stream of the user that is not stopped, with its task; the reason shows on the stream. */
async function stopAllStreams(context: ErasureContext, userId: string, reason: 'account suspended' | undefined): Promise<number> {
  const running = (await context.streams.streams.list(userId)).filter((stream) => stream.status !== 'stopped');
  for (const stream of running) await stopStream(context.streams, userId, stream.id, reason);
  return running.length;
}

/** Sign-in is refused from now on (status first), the open sessions and their realtime sockets end, then the
 * streams stop. */
export async function shutOut(context: ErasureContext, user: User, status: 'suspended' | 'terminated'): Promise<number> {
  await context.accounts.updateUser(user.id, { status });
  await context.accounts.deleteSessionsOf(user.id);
  await context.connections.close(user.id);
  return stopAllStreams(context, user.id, status === 'suspended' ? 'account suspended' : undefined);
}

/** The user's subscription paid through the payment provider and not ended, if any. */
export async function paidSubscriptionOf(context: Pick<ErasureContext, 'billing'>, userId: string): Promise<string | undefined> {
  const subscription = await context.billing.billing.subscription(userId);
  return subscription?.providerSubscriptionId && subscription.status !== 'canceled' ? subscription.providerSubscriptionId : undefined;
}

function retainPaymentUntil(paidAt: string): Date {
  const until = new Date(paidAt);
  until.setUTCFullYear(until.getUTCFullYear() + PAYMENT_RETENTION_YEARS);
  return until;
}

/** Every object of the user, then every item (the e-mail claim too, when the address is given). Safe to run again. */
export async function eraseData(context: Pick<ErasureContext, 'objects' | 'records'>, user: { id: string; email?: string }): Promise<ErasureDetails> {
  const objects = await context.objects.erase(userObjectPrefixes(user.id));
  const records = await context.records.erase(user, retainPaymentUntil);
  return { ...objects, ...records };
}

/**
 * Closes the account: sign-in refused, sessions ended, streams stopped, the paid subscription `toCancel` canceled
 * at the provider (the caller checked it can be), then every object and every item of the account deleted. Kept:
 * the payment records, which expire PAYMENT_RETENTION_YEARS after each payment. A transcode still running writes
 * its output later; the library removes output whose item is gone (lambdas/core/media/library.ts).
 */
export async function closeAccount(
  context: ErasureContext,
  user: User,
  toCancel: { id: string; control: Pick<SubscriptionControl, 'cancel'> } | undefined,
): Promise<ErasureDetails> {
  const streamsStopped = await shutOut(context, user, 'terminated');
  if (toCancel) await toCancel.control.cancel(toCancel.id);
  const customer = await context.billing.billing.customerOf(user.id);
  const transcodesInFlight = (await context.videos.list(user.id)).filter((video) => video.status === 'encoding').length;
  return {
    previousStatus: user.status,
    streamsStopped,
    subscriptionCanceled: toCancel?.id ?? 'none',
    // Where the invoices are, for refunds and accounting after the account is gone.
    paymentCustomer: customer ?? 'none',
    transcodesInFlight,
    ...(await eraseData(context, user)),
  };
}
