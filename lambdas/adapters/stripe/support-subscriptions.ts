import Stripe from 'stripe';
import type { SubscriptionCanceller } from '../../core/support/ports';
import type { StripeSettings } from './stripe-provider';

/** Cancels Stripe subscriptions at once (the support tool's termination): no further charges. Stripe's defaults
 * apply: no final invoice, no proration; a refund stays a decision under the refund policy. */
export class StripeSubscriptionCanceller implements SubscriptionCanceller {
  private readonly stripe: Stripe;

  constructor(settings: Pick<StripeSettings, 'secretKey' | 'apiUrl'>) {
    const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 15_000,
      ...(api ? { host: api.hostname, port: Number(api.port), protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {}),
    });
  }

  async cancel(subscriptionId: string): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return;
    await this.stripe.subscriptions.cancel(subscriptionId);
  }
}
