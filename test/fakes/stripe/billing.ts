// Subscription billing as Stripe runs it, for the fake account: checkout completion, renewals that pay or fail,
// recovery, cancellation at period end or at once. Each change emits the webhook events Stripe sends for it.
import { stripeErrors } from './errors';
import { changedFields, type EventLog, type RequestRef, type WebhookDelivery } from './events';
import {
  customerObject,
  invoiceObject,
  subscriptionItemObject,
  subscriptionObject,
  newId,
  type CheckoutSession,
  type Customer,
  type Invoice,
  type PauseCollection,
  type Recurrence,
  type Subscription,
} from './objects';
import { periodBoundary, type StripeState } from './state';

export interface CheckoutOutcome {
  session: CheckoutSession;
  customer: Customer;
  subscription: Subscription;
  invoice: Invoice;
  events: WebhookDelivery[];
}

export interface BillingOutcome {
  subscription: Subscription;
  invoice?: Invoice;
  events: WebhookDelivery[];
}

/** What the paying customer types into the hosted checkout page. */
export interface CheckoutDetails {
  email?: string;
  name?: string;
}

const DAY = 86_400;

export class Billing {
  constructor(
    private readonly state: StripeState,
    private readonly events: EventLog,
    private readonly now: () => number,
  ) {}

  createCustomer(fields: { email: string | null; name: string | null; metadata: Record<string, string> }): Customer {
    const customer = customerObject({ created: this.now(), ...fields });
    this.state.customers.set(customer.id, customer);
    return customer;
  }

  completeCheckout(sessionId: string, details: CheckoutDetails = {}): CheckoutOutcome {
    const session = this.state.checkoutSessions.get(sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}, not open`);
    if (session.mode !== 'subscription') throw new Error('the fake completes subscription-mode sessions only');
    const lineItem = this.state.checkoutLineItems.get(sessionId)?.[0];
    if (!lineItem?.price) throw new Error(`checkout session ${sessionId} has no price`);

    const email = details.email ?? session.customer_email ?? 'customer@example.com';
    const customer =
      (typeof session.customer === 'string' ? this.state.customers.get(session.customer) : undefined) ??
      this.createCustomer({ email, name: details.name ?? null, metadata: {} });

    const created = this.now();
    const recurrence = recurrenceOf(lineItem.price.recurring);
    const subscriptionId = newId('sub');
    const periodEnd = periodBoundary(created, recurrence, 1);
    const item = subscriptionItemObject({
      created,
      subscription: subscriptionId,
      price: lineItem.price,
      quantity: lineItem.quantity ?? 1,
      periodStart: created,
      periodEnd,
    });
    const subscription = subscriptionObject({
      id: subscriptionId,
      created,
      customer: customer.id,
      currency: lineItem.currency,
      items: [item],
      metadata: this.state.checkoutSubscriptionMetadata.get(sessionId) ?? {},
      latestInvoice: null,
    });
    // A first invoice covers no elapsed time: its own period is the creation instant.
    const firstPeriod = { start: created, end: periodEnd };
    const invoice = this.newInvoice(customer, subscription, 'subscription_create', { start: created, end: created }, firstPeriod, created);
    this.markPaid(invoice, created);
    subscription.latest_invoice = invoice.id;
    this.state.subscriptions.set(subscription.id, subscription);
    this.state.completedCycles.set(subscription.id, 0);

    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      subscription: subscription.id,
      invoice: invoice.id,
      customer_details: {
        address: null,
        business_name: null,
        email: customer.email,
        individual_name: null,
        name: customer.name ?? null,
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
      },
    } satisfies Partial<CheckoutSession>);

    const events = [
      this.events.emit('customer.subscription.created', subscription),
      this.events.emit('invoice.paid', invoice),
      this.events.emit('checkout.session.completed', session),
    ];
    return { session, customer, subscription, invoice, events };
  }

  /** The current period ends: the renewal is charged (and paid), or voided while collection is paused with
   * `void` (nothing charged, the subscription goes on), or a subscription set to cancel ends. */
  advancePeriod(subscriptionId: string): BillingOutcome {
    const subscription = this.liveSubscription(subscriptionId);
    if (subscription.cancel_at_period_end) return this.endAtPeriodEnd(subscription);
    const { invoice, previous } = this.renew(subscription, 'active');
    if (subscription.pause_collection?.behavior === 'void') {
      Object.assign(invoice, { status: 'void', status_transitions: { ...invoice.status_transitions, voided_at: invoice.created } } satisfies Partial<Invoice>);
      const events = [this.events.emit('customer.subscription.updated', subscription, previous), this.events.emit('invoice.voided', invoice)];
      return { subscription, invoice, events };
    }
    this.markPaid(invoice, invoice.created);
    const events = [this.events.emit('customer.subscription.updated', subscription, previous), this.events.emit('invoice.paid', invoice)];
    return { subscription, invoice, events };
  }

  /** The current period ends and the renewal charge is declined: the invoice stays open, the subscription is past_due. */
  failRenewal(subscriptionId: string): BillingOutcome {
    const subscription = this.liveSubscription(subscriptionId);
    if (subscription.cancel_at_period_end) throw new Error('a subscription set to cancel at period end is not renewed; use advancePeriod');
    const { invoice, previous } = this.renew(subscription, 'past_due');
    Object.assign(invoice, {
      attempted: true,
      attempt_count: 1,
      next_payment_attempt: invoice.created + 3 * DAY,
    } satisfies Partial<Invoice>);
    const events = [this.events.emit('customer.subscription.updated', subscription, previous), this.events.emit('invoice.payment_failed', invoice)];
    return { subscription, invoice, events };
  }

  /** A retry (or a new card in the portal) pays the open renewal invoice. */
  recoverPayment(subscriptionId: string): BillingOutcome {
    const subscription = this.liveSubscription(subscriptionId);
    const invoice = this.state.invoices.get(String(subscription.latest_invoice));
    if (subscription.status !== 'past_due' || invoice?.status !== 'open') {
      throw new Error(`subscription ${subscriptionId} has no failed payment to recover`);
    }
    const before = structuredClone(subscription);
    invoice.attempt_count += 1;
    this.markPaid(invoice, this.now());
    subscription.status = 'active';
    const events = [
      this.events.emit('invoice.paid', invoice),
      this.events.emit('customer.subscription.updated', subscription, changedFields(before, subscription)),
    ];
    return { subscription, invoice, events };
  }

  /**
   * `POST /v1/subscriptions/:id` (and the Customer Portal): metadata, cancellation at period end (after which
   * access continues until the period ends), and paused collection (null resumes it). One request, one
   * `customer.subscription.updated`.
   */
  updateSubscription(
    subscriptionId: string,
    change: { cancelAtPeriodEnd?: boolean; metadata?: Record<string, string> | 'clear'; pauseCollection?: PauseCollection | null },
    request?: RequestRef,
  ): BillingOutcome {
    const subscription = this.state.subscriptions.get(subscriptionId);
    if (!subscription) throw stripeErrors.noSuchObject('subscription', subscriptionId);
    if (subscription.status === 'canceled' && (change.cancelAtPeriodEnd !== undefined || change.pauseCollection !== undefined)) {
      throw stripeErrors.invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const before = structuredClone(subscription);
    if (change.metadata !== undefined) subscription.metadata = mergeMetadata(subscription.metadata, change.metadata);
    if (change.cancelAtPeriodEnd !== undefined && change.cancelAtPeriodEnd !== subscription.cancel_at_period_end) {
      const cancel = change.cancelAtPeriodEnd;
      subscription.cancel_at_period_end = cancel;
      subscription.cancel_at = cancel ? currentPeriod(subscription).end : null;
      subscription.canceled_at = cancel ? this.now() : null;
      subscription.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: cancel ? 'cancellation_requested' : null };
    }
    if (change.pauseCollection !== undefined) subscription.pause_collection = change.pauseCollection;
    const previous = changedFields(before, subscription);
    const events = Object.keys(previous).length > 0 ? [this.events.emit('customer.subscription.updated', subscription, previous, request)] : [];
    return { subscription, events };
  }

  /** Cancels at once (DELETE /v1/subscriptions/:id). */
  cancelNow(subscriptionId: string, request?: RequestRef): BillingOutcome {
    const subscription = this.state.subscriptions.get(subscriptionId);
    // A canceled subscription still retrieves, but Stripe treats it as deleted for a second cancel.
    if (!subscription || subscription.status === 'canceled') throw stripeErrors.noSuchObject('subscription', subscriptionId);
    const now = this.now();
    subscription.status = 'canceled';
    subscription.canceled_at = now;
    subscription.ended_at = now;
    subscription.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: 'cancellation_requested' };
    return { subscription, events: [this.events.emit('customer.subscription.deleted', subscription, undefined, request)] };
  }

  private endAtPeriodEnd(subscription: Subscription): BillingOutcome {
    subscription.status = 'canceled';
    subscription.ended_at = currentPeriod(subscription).end;
    return { subscription, events: [this.events.emit('customer.subscription.deleted', subscription)] };
  }

  private liveSubscription(subscriptionId: string): Subscription {
    const subscription = this.state.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    if (subscription.status === 'canceled') throw new Error(`subscription ${subscriptionId} is canceled`);
    return subscription;
  }

  /** Moves the subscription into its next period with a new (unpaid) renewal invoice dated at the boundary. */
  private renew(subscription: Subscription, status: 'active' | 'past_due'): { invoice: Invoice; previous: Record<string, unknown> } {
    const before = structuredClone(subscription);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`subscription ${subscription.id} has no items`);
    const cycles = (this.state.completedCycles.get(subscription.id) ?? 0) + 1;
    const ended = currentPeriod(subscription);
    const next = { start: ended.end, end: periodBoundary(subscription.billing_cycle_anchor, recurrenceOf(item.price.recurring), cycles + 1) };
    for (const each of subscription.items.data) {
      each.current_period_start = next.start;
      each.current_period_end = next.end;
    }
    const customer = this.state.customers.get(String(subscription.customer));
    if (!customer) throw new Error(`subscription ${subscription.id} has no customer`);
    // Stripe dates a renewal invoice at the boundary and reports the period that just ended as its own period.
    const invoice = this.newInvoice(customer, subscription, 'subscription_cycle', ended, next, ended.end);
    subscription.latest_invoice = invoice.id;
    subscription.status = status;
    this.state.completedCycles.set(subscription.id, cycles);
    return { invoice, previous: changedFields(before, subscription) };
  }

  private newInvoice(
    customer: Customer,
    subscription: Subscription,
    billingReason: 'subscription_create' | 'subscription_cycle',
    period: { start: number; end: number },
    linePeriod: { start: number; end: number },
    created: number,
  ): Invoice {
    const invoice = invoiceObject({ created, customer, subscription, billingReason, periodStart: period.start, periodEnd: period.end, linePeriod });
    customer.next_invoice_sequence = (customer.next_invoice_sequence ?? 1) + 1;
    this.state.invoices.set(invoice.id, invoice);
    return invoice;
  }

  private markPaid(invoice: Invoice, at: number): void {
    Object.assign(invoice, {
      status: 'paid',
      attempted: true,
      attempt_count: Math.max(invoice.attempt_count, 1),
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      next_payment_attempt: null,
      status_transitions: { ...invoice.status_transitions, paid_at: at },
    } satisfies Partial<Invoice>);
  }
}

export function mergeMetadata(current: Record<string, string>, change: Record<string, string> | 'clear'): Record<string, string> {
  if (change === 'clear') return {};
  const merged = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export function currentPeriod(subscription: Subscription): { start: number; end: number } {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`subscription ${subscription.id} has no items`);
  return { start: item.current_period_start, end: item.current_period_end };
}

function recurrenceOf(recurring: { interval: string; interval_count: number } | null): Recurrence {
  if (!recurring) throw new Error('subscriptions need a recurring price');
  return { interval: recurring.interval as Recurrence['interval'], intervalCount: recurring.interval_count };
}
