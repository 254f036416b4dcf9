// The webhook events the fake account produces: Stripe's event envelope around a snapshot of the object, the exact
// JSON payload Stripe would POST, and a Stripe-Signature header made by the stripe library's own test helper.
import Stripe from 'stripe';
import { newId, type Event } from './objects';

export type WebhookEventType =
  | 'checkout.session.completed'
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted'
  | 'invoice.paid'
  | 'invoice.payment_failed'
  | 'invoice.voided';

export interface WebhookDelivery {
  type: WebhookEventType;
  event: Event;
  /** The request body Stripe sends, byte for byte. */
  payload: string;
  /** `Stripe-Signature` as signed when the event was produced. */
  signature: string;
}

/** The API request that caused an event; automatic changes (renewals, payment retries) have none. */
export interface RequestRef {
  id: string;
  idempotencyKey: string | null;
}

export class EventLog {
  readonly deliveries: WebhookDelivery[] = [];

  constructor(
    private readonly secret: string,
    private readonly apiVersion: string,
    private readonly now: () => number,
    private readonly onEmit: (delivery: WebhookDelivery) => void,
  ) {}

  emit(type: WebhookEventType, object: object, previousAttributes?: Record<string, unknown>, request?: RequestRef): WebhookDelivery {
    const envelope = {
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: this.now(),
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: request?.id ?? null, idempotency_key: request?.idempotencyKey ?? null },
      type,
    };
    const payload = JSON.stringify(envelope, null, 2);
    const delivery: WebhookDelivery = { type, event: JSON.parse(payload) as Event, payload, signature: this.sign(payload) };
    this.deliveries.push(delivery);
    this.onEmit(delivery);
    return delivery;
  }

  /** Stripe signs every delivery attempt afresh; `timestamp` (seconds) defaults to the wall clock. */
  sign(payload: string, timestamp?: number): string {
    return Stripe.webhooks.generateTestHeaderString({ payload, secret: this.secret, ...(timestamp === undefined ? {} : { timestamp }) });
  }
}

/** Top-level fields of `before` whose values `after` changed: Stripe's `previous_attributes`. */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const key of Object.keys(now)) {
    if (JSON.stringify(old[key]) !== JSON.stringify(now[key])) previous[key] = old[key];
  }
  return previous;
}
