// Everything the fake Stripe account holds, by id.
import type { CheckoutSession, Customer, Invoice, LineItem, PortalSession, Price, Product, Recurrence, Subscription } from './objects';

export class StripeState {
  readonly products = new Map<string, Product>();
  readonly prices = new Map<string, Price>();
  readonly customers = new Map<string, Customer>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly invoices = new Map<string, Invoice>();
  readonly checkoutSessions = new Map<string, CheckoutSession>();
  /** Line items are not part of a session object; they are fetched with `expand[]=line_items`. */
  readonly checkoutLineItems = new Map<string, LineItem[]>();
  /** `subscription_data[metadata]` of a session, copied onto the subscription its completion creates. */
  readonly checkoutSubscriptionMetadata = new Map<string, Record<string, string>>();
  readonly portalSessions = new Map<string, PortalSession>();
  /** Renewals counted from the billing cycle anchor, so month ends do not drift (31 Jan → 28 Feb → 31 Mar). */
  readonly completedCycles = new Map<string, number>();

  /** Any stored object by id, for expansion. */
  find(id: string): object | undefined {
    for (const map of [this.customers, this.prices, this.products, this.subscriptions, this.invoices, this.checkoutSessions]) {
      const found = map.get(id);
      if (found) return found;
    }
    return undefined;
  }
}

/** `anchor` plus `cycles` billing intervals, with Stripe's clamping to the end of shorter months. */
export function periodBoundary(anchor: number, recurrence: Recurrence, cycles: number): number {
  const start = new Date(anchor * 1000);
  const count = recurrence.intervalCount * cycles;
  if (recurrence.interval === 'day' || recurrence.interval === 'week') {
    const days = recurrence.interval === 'day' ? count : count * 7;
    return anchor + days * 86_400;
  }
  const months = recurrence.interval === 'year' ? count * 12 : count;
  const target = new Date(start);
  target.setUTCDate(1);
  target.setUTCMonth(start.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}
