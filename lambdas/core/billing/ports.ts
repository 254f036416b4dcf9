// What billing needs from the outside: the payment provider (Stripe) and storage, as small interfaces.
import type { PaymentView, Usage } from '../../contract/api/billing';
import type { BillingPeriod, PlanId } from '../plans';
import type { Subscription } from './entitlement';

/** A provider subscription reduced to what Loopcast mirrors. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** From the subscription's metadata, set at checkout. */
  userId?: string;
  plan?: PlanId;
  period?: BillingPeriod;
  status: 'active' | 'past_due' | 'canceled' | 'incomplete';
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
}

/** A paid invoice as the provider reports it: a payment as the API shows it, before its plan is known. */
export type PaidInvoice = Omit<PaymentView, 'plan'>;

/** A verified provider webhook event, reduced to what Loopcast acts on. */
export interface BillingEvent {
  id: string;
  /** Epoch seconds when the provider created the event (orders concurrent deliveries). */
  created: number;
  kind: 'checkout.completed' | 'subscription.changed' | 'invoice.paid' | 'invoice.payment_failed' | 'ignored';
  userId?: string;
  customerId?: string;
  subscriptionId?: string;
  invoice?: PaidInvoice;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

export interface CheckoutState {
  id: string;
  userId?: string;
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
}

export interface PaymentProvider {
  /** The provider's price for a plan and period, or undefined when it sells none. */
  priceFor(plan: PlanId, period: BillingPeriod): Promise<string | undefined>;
  createCustomer(user: { id: string; email: string; displayName: string }): Promise<string>;
  createCheckout(input: {
    customerId: string;
    priceId: string;
    userId: string;
    plan: PlanId;
    period: BillingPeriod;
    successUrl: string;
    cancelUrl: string;
  }): Promise<CheckoutSession>;
  /** Undefined when there is no such session. */
  checkout(sessionId: string): Promise<CheckoutState | undefined>;
  portal(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /** Verifies the signature over the exact raw body; throws AppError('wrong signature') otherwise. */
  verifyEvent(rawBody: string, signature: string | undefined): BillingEvent;
  subscription(id: string): Promise<ProviderSubscription>;
  /** Ends a subscription at once (its account is being closed); harmless when it has ended already. */
  cancelSubscription(id: string): Promise<void>;
}

export interface Payment extends PaidInvoice {
  userId: string;
  plan?: PlanId;
}

export interface BillingStore {
  subscription(userId: string): Promise<Subscription | undefined>;
  /** Saves unless a newer provider event already did (`eventCreated` orders them): 'stale' then. */
  saveSubscription(subscription: Subscription, eventCreated: number): Promise<'saved' | 'stale'>;
  customerOf(userId: string): Promise<string | undefined>;
  userOfCustomer(customerId: string): Promise<string | undefined>;
  linkCustomer(userId: string, customerId: string): Promise<void>;
  recordPayment(payment: Payment): Promise<void>;
  payments(userId: string): Promise<Payment[]>;
  isEventProcessed(eventId: string): Promise<boolean>;
  markEventProcessed(eventId: string, now: Date): Promise<void>;
  /** True for the first caller only, for one user and notice name: a notice that two webhooks applied at the same
   * moment (Stripe sends several events for one change) both want to send goes out once. */
  claimNotice(userId: string, notice: string, now: Date): Promise<boolean>;
}

export type { Usage };

export interface UsageStore {
  usage(userId: string, cycleStart: string): Promise<Usage>;
}
