// The billing use cases: the subscription overview, checkout, the customer portal and the provider's webhooks.
// Webhooks are applied by re-reading the subscription from the provider, so replays and out-of-order deliveries
// converge on the provider's current state and change nothing twice.
import type { SubscriptionOverview } from '../../contract/api/billing';
import type { RealtimePublisher } from '../../contract/realtime-events';
import type { AccountsStore, Mailer, User } from '../accounts/ports';
import { AppError } from '../errors';
import { urlPrefix, type LanguageCode } from '../languages';
import { isBillingPeriod, isPlanId, plans, type BillingPeriod, type PlanId } from '../plans';
import { paymentFailedEmail } from './emails';
import { entitlementOf, PAYMENT_GRACE_HOURS, type Entitlement, type Subscription } from './entitlement';
import type { BillingEvent, BillingStore, PaymentProvider, ProviderSubscription, UsageStore } from './ports';

export interface BillingContext {
  accounts: AccountsStore;
  billing: BillingStore;
  usage: UsageStore;
  /** Absent when no payment provider is configured: the trial still works, paying does not. */
  provider?: PaymentProvider;
  mailer: Mailer;
  realtime: RealtimePublisher;
  now: () => Date;
  publicUrl: string;
}

function providerOf(context: BillingContext): PaymentProvider {
  if (!context.provider) throw new AppError('payment provider missing configuration');
  return context.provider;
}

async function userOf(context: BillingContext, userId: string): Promise<User> {
  const user = await context.accounts.userById(userId);
  if (!user) throw new AppError('unauthorized');
  return user;
}

export async function entitlementOfUser(context: Pick<BillingContext, 'accounts' | 'billing' | 'now'>, userId: string): Promise<Entitlement> {
  const [user, subscription] = await Promise.all([context.accounts.userById(userId), context.billing.subscription(userId)]);
  if (!user) throw new AppError('unauthorized');
  return entitlementOf(user, subscription, context.now());
}

export async function subscriptionOverview(context: BillingContext, userId: string): Promise<SubscriptionOverview> {
  const [user, subscription, customer, payments] = await Promise.all([
    userOf(context, userId),
    context.billing.subscription(userId),
    context.billing.customerOf(userId),
    context.billing.payments(userId),
  ]);
  const entitlement = entitlementOf(user, subscription, context.now());
  return {
    ...entitlement,
    cancelAtPeriodEnd: subscription?.cancelAtPeriodEnd ?? false,
    usage: await context.usage.usage(userId, entitlement.cycleStart),
    billingAvailable: context.provider !== undefined,
    hasBillingAccount: customer !== undefined,
    payments: payments.map(({ userId: _owner, ...payment }) => payment),
  };
}

const billingPage = (context: BillingContext, language: LanguageCode) => `${context.publicUrl}${urlPrefix(language)}/app/billing`;

/** A checkout for a self-serve plan; a user who already pays is sent to the portal to change plans instead. */
export async function startCheckout(
  context: BillingContext,
  userId: string,
  plan: string,
  period: string,
  language?: LanguageCode,
): Promise<{ url: string; kind: 'checkout' | 'portal' }> {
  if (!isPlanId(plan) || !plans[plan].selfServe || !isBillingPeriod(period)) throw new AppError('unknown plan');
  const provider = providerOf(context);
  const user = await userOf(context, userId);
  // Back to the page in the language it was opened in.
  const returnPage = billingPage(context, language ?? user.language);
  const entitlement = entitlementOf(user, await context.billing.subscription(userId), context.now());
  let customerId = await context.billing.customerOf(userId);
  if (customerId && entitlement.plan !== 'trial' && entitlement.state !== 'expired') {
    return { url: (await provider.portal(customerId, returnPage)).url, kind: 'portal' };
  }
  const priceId = await provider.priceFor(plan, period);
  if (!priceId) throw new AppError('unknown plan');
  if (!customerId) {
    customerId = await provider.createCustomer({ id: user.id, email: user.email, displayName: user.displayName });
    await context.billing.linkCustomer(user.id, customerId);
  }
  const session = await provider.createCheckout({
    customerId,
    priceId,
    userId,
    plan,
    period,
    successUrl: `${returnPage}?checkout={CHECKOUT_SESSION_ID}`,
    cancelUrl: returnPage,
  });
  return { url: session.url, kind: 'checkout' };
}

/** The state of the user's own checkout session (the page they return to after paying shows it). */
export async function checkoutStatus(
  context: BillingContext,
  userId: string,
  sessionId: string,
): Promise<{ status: 'open' | 'complete' | 'expired'; paid: boolean }> {
  const session = await providerOf(context).checkout(sessionId);
  if (!session || session.userId !== userId) throw new AppError('wrong order id');
  return { status: session.status, paid: session.paid };
}

export async function openPortal(context: BillingContext, userId: string, language?: LanguageCode): Promise<{ url: string }> {
  const provider = providerOf(context);
  const customerId = await context.billing.customerOf(userId);
  if (!customerId) throw new AppError('no active subscription');
  return provider.portal(customerId, billingPage(context, language ?? (await userOf(context, userId)).language));
}

function mirror(remote: ProviderSubscription, userId: string, previous: Subscription | undefined, now: Date): Subscription | undefined {
  if (remote.status === 'incomplete' || !remote.plan) return undefined;
  const status = remote.status;
  return {
    userId,
    plan: remote.plan,
    ...(remote.period ? { period: remote.period as BillingPeriod } : {}),
    status,
    currentPeriodStart: remote.currentPeriodStart,
    currentPeriodEnd: remote.currentPeriodEnd,
    cancelAtPeriodEnd: remote.cancelAtPeriodEnd,
    ...(status === 'past_due' ? { paymentFailedAt: previous?.paymentFailedAt ?? now.toISOString() } : {}),
    ...(previous?.customLimits ? { customLimits: previous.customLimits } : {}),
    providerCustomerId: remote.customerId,
    providerSubscriptionId: remote.id,
  };
}

/** Applies one verified provider event. Returns what happened, for the logs. */
export async function applyBillingEvent(context: BillingContext, event: BillingEvent): Promise<'applied' | 'duplicate' | 'ignored' | 'stale'> {
  if (event.kind === 'ignored') return 'ignored';
  if (await context.billing.isEventProcessed(event.id)) return 'duplicate';
  const userId = event.userId ?? (event.customerId ? await context.billing.userOfCustomer(event.customerId) : undefined);
  if (!userId) return 'ignored'; // a customer Loopcast did not create
  if (event.kind === 'checkout.completed' && event.customerId) await context.billing.linkCustomer(userId, event.customerId);

  let outcome: 'applied' | 'stale' = 'applied';
  if (event.subscriptionId) {
    const previous = await context.billing.subscription(userId);
    const remote = await providerOf(context).subscription(event.subscriptionId);
    const next = mirror(remote, userId, previous, context.now());
    if (next) {
      outcome = (await context.billing.saveSubscription(next, event.created)) === 'saved' ? 'applied' : 'stale';
      const newlyFailed = next.status === 'past_due' && previous?.status !== 'past_due';
      // One notice per failed renewal, however many of Stripe's events for it are applied at the same moment.
      if (outcome === 'applied' && newlyFailed && (await context.billing.claimNotice(userId, `payment-failed#${next.currentPeriodStart}`, context.now()))) {
        const user = await userOf(context, userId);
        await context.mailer.send(paymentFailedEmail(user, context.publicUrl, PAYMENT_GRACE_HOURS));
      }
    }
  }
  if (event.kind === 'invoice.paid' && event.invoice) {
    const plan = (await context.billing.subscription(userId))?.plan;
    await context.billing.recordPayment({ ...event.invoice, userId, ...(plan ? { plan: plan as PlanId } : {}) });
  }
  await context.billing.markEventProcessed(event.id, context.now());
  await context.realtime.publish(userId, { type: 'subscription.changed' });
  return outcome;
}
