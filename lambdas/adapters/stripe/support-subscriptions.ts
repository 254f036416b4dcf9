import Stripe from 'stripe';
import type { SubscriptionControl } from '../../core/support/ports';
import { stripeClient, type StripeConnection } from './client';

const ended = (subscription: Stripe.Subscription) => subscription.status === 'canceled' || subscription.status === 'incomplete_expired';

/** The support tool's hold on Stripe subscriptions. Cancel ends one at once with Stripe's defaults (no final
 * invoice, no proration; a refund stays a decision under the refund policy). Pausing uses Stripe's
 * pause_collection with `void`: each renewal invoice is voided, nothing is charged, the subscription stays. */
export class StripeSubscriptionControl implements SubscriptionControl {
  private readonly stripe: Stripe;

  constructor(connection: StripeConnection) {
    this.stripe = stripeClient(connection);
  }

  async cancel(subscriptionId: string): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (ended(subscription)) return;
    await this.stripe.subscriptions.cancel(subscriptionId);
  }

  async pauseBilling(subscriptionId: string): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (ended(subscription) || subscription.pause_collection?.behavior === 'void') return;
    await this.stripe.subscriptions.update(subscriptionId, { pause_collection: { behavior: 'void' } });
  }

  async resumeBilling(subscriptionId: string): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (ended(subscription) || !subscription.pause_collection) return;
    // An empty value unsets the field in Stripe's form encoding.
    await this.stripe.subscriptions.update(subscriptionId, { pause_collection: '' });
  }
}
