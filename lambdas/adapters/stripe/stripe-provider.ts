import Stripe from 'stripe';
import type { BillingEvent, CheckoutState, PaymentProvider, ProviderSubscription } from '../../core/billing/ports';
import { AppError } from '../../core/errors';
import { stripeClient } from './client';
import { StripeSubscriptionControl } from './support-subscriptions';
import { isBillingPeriod, isPlanId, stripeLookupKey, type BillingPeriod, type PlanId } from '../../core/plans';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (tests point the real client at a fake Stripe); Stripe's own when absent. */
  apiUrl?: string;
}

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** `loopcast_<plan>_<period>` back to plan and period (plans.ts writes it). */
function planOfLookupKey(key: string | null | undefined): { plan?: PlanId; period?: BillingPeriod } {
  const [, plan, period] = /^loopcast_([a-z]+)_([a-z0-9]+)$/.exec(key ?? '') ?? [];
  return { ...(isPlanId(plan) ? { plan } : {}), ...(isBillingPeriod(period) ? { period } : {}) };
}

function reduceStatus(status: Stripe.Subscription.Status): ProviderSubscription['status'] {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'incomplete';
  }
}

/** The subscription an invoice bills (newer API versions name it under `parent`). */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | undefined {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription ?? legacy);
}

/** PaymentProvider on Stripe: subscriptions sold by Price lookup keys, hosted Checkout and Customer Portal. */
export class StripeProvider implements PaymentProvider {
  private readonly stripe: Stripe;
  private readonly control: StripeSubscriptionControl;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = stripeClient(settings);
    this.control = new StripeSubscriptionControl(settings);
  }

  cancelSubscription(id: string): Promise<void> {
    return this.control.cancel(id);
  }

  async priceFor(plan: PlanId, period: BillingPeriod): Promise<string | undefined> {
    const prices = await this.stripe.prices.list({ lookup_keys: [stripeLookupKey(plan, period)], active: true, limit: 1 });
    return prices.data[0]?.id;
  }

  async createCustomer(user: { id: string; email: string; displayName: string }): Promise<string> {
    const customer = await this.stripe.customers.create(
      { email: user.email, name: user.displayName, metadata: { userId: user.id } },
      { idempotencyKey: `customer-${user.id}` },
    );
    return customer.id;
  }

  async createCheckout(input: {
    customerId: string;
    priceId: string;
    userId: string;
    plan: PlanId;
    period: BillingPeriod;
    successUrl: string;
    cancelUrl: string;
  }) {
    const metadata = { userId: input.userId, plan: input.plan, period: input.period };
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: input.customerId,
      client_reference_id: input.userId,
      line_items: [{ price: input.priceId, quantity: 1 }],
      metadata,
      subscription_data: { metadata },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return { id: session.id, url: session.url };
  }

  async checkout(sessionId: string): Promise<CheckoutState | undefined> {
    try {
      const session = await this.stripe.checkout.sessions.retrieve(sessionId);
      return {
        id: session.id,
        ...(session.client_reference_id ? { userId: session.client_reference_id } : {}),
        status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
        paid: session.payment_status === 'paid',
      };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return undefined;
      throw error;
    }
  }

  async portal(customerId: string, returnUrl: string): Promise<{ url: string }> {
    const session = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
    return { url: session.url };
  }

  verifyEvent(rawBody: string, signature: string | undefined): BillingEvent {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature ?? '', this.settings.webhookSecret);
    } catch {
      throw new AppError('wrong signature');
    }
    const base = { id: event.id, created: event.created };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const userId = session.client_reference_id ?? session.metadata?.userId;
        const customerId = idOf(session.customer);
        const subscriptionId = idOf(session.subscription);
        return {
          ...base,
          kind: 'checkout.completed',
          ...(userId ? { userId } : {}),
          ...(customerId ? { customerId } : {}),
          ...(subscriptionId ? { subscriptionId } : {}),
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        const userId = subscription.metadata?.userId;
        return {
          ...base,
          kind: 'subscription.changed',
          customerId: idOf(subscription.customer)!,
          subscriptionId: subscription.id,
          ...(userId ? { userId } : {}),
        };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const subscriptionId = subscriptionOfInvoice(invoice);
        const customerId = idOf(invoice.customer);
        const paidAt = invoice.status_transitions?.paid_at;
        // The billed period is the line's: the invoice's own period is the one that just ended (zero on the first).
        const billed = invoice.lines?.data[0]?.period;
        return {
          ...base,
          kind: event.type === 'invoice.paid' ? 'invoice.paid' : 'invoice.payment_failed',
          ...(customerId ? { customerId } : {}),
          ...(subscriptionId ? { subscriptionId } : {}),
          ...(event.type === 'invoice.paid' && invoice.id
            ? {
                invoice: {
                  id: invoice.id,
                  amountCents: invoice.amount_paid,
                  currency: invoice.currency,
                  paidAt: iso(paidAt ?? event.created),
                  ...(billed ? { periodStart: iso(billed.start), periodEnd: iso(billed.end) } : {}),
                },
              }
            : {}),
        };
      }
      default:
        return { ...base, kind: 'ignored' };
    }
  }

  async subscription(id: string): Promise<ProviderSubscription> {
    const subscription = await this.stripe.subscriptions.retrieve(id);
    const item = subscription.items.data[0];
    // Current API versions keep the billing period on the subscription item.
    const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
    const start = item?.current_period_start ?? legacy.current_period_start ?? subscription.start_date;
    const end = item?.current_period_end ?? legacy.current_period_end ?? subscription.start_date;
    const userId = subscription.metadata?.userId;
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer)!,
      ...(userId ? { userId } : {}),
      ...planOfLookupKey(item?.price.lookup_key),
      status: reduceStatus(subscription.status),
      currentPeriodStart: iso(start),
      currentPeriodEnd: iso(end),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
    };
  }
}
