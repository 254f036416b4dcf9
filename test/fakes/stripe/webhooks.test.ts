// The subscription lifecycle driven by the control helpers, and the webhook events it produces, verified with the
// stripe library's own constructEvent exactly as Loopcast's webhook handler will verify them.
import Stripe from 'stripe';
import { listen, readBody, sendJson } from '../shared/http';
import type { WebhookDelivery } from './events';
import { startFakeStripe, type FakeStripe } from './server';
import { clientFor, startFakeWithClient } from './test-client';

let fake: FakeStripe;
let stripe: Stripe;
beforeAll(async () => ({ fake, stripe } = await startFakeWithClient()));
afterAll(() => fake.stop());

function verified(delivery: WebhookDelivery): Stripe.Event {
  return stripe.webhooks.constructEvent(delivery.payload, delivery.signature, fake.webhookSecret);
}

async function subscribe(lookupKey = 'pro_month'): Promise<ReturnType<FakeStripe['completeCheckout']>> {
  const price = fake.seedPrice({ lookupKey, unitAmount: 1999 });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    client_reference_id: 'user-7',
    customer_email: 'lin@example.com',
    line_items: [{ price: price.id, quantity: 1 }],
    subscription_data: { metadata: { userId: 'user-7' } },
    success_url: 'https://loopcast.test/ok',
  });
  return fake.completeCheckout(session.id);
}

describe('signatures', () => {
  test('every produced event verifies with the webhook secret; a tampered payload or another secret does not', async () => {
    const { events } = await subscribe();
    for (const delivery of events) expect(verified(delivery).id).toBe(delivery.event.id);

    const [first] = events;
    if (!first) throw new Error('checkout produces events');
    const tampered = first.payload.replace('"livemode": false', '"livemode": true');
    expect(() => stripe.webhooks.constructEvent(tampered, first.signature, fake.webhookSecret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(first.payload, first.signature, 'whsec_someone_else')).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  test('a re-delivery is signed afresh, and an old signature falls outside the tolerance', async () => {
    const { events } = await subscribe();
    const [delivery] = events;
    if (!delivery) throw new Error('checkout produces events');
    const stale = fake.sign(delivery.payload, Math.floor(Date.now() / 1000) - 3600);
    expect(() => stripe.webhooks.constructEvent(delivery.payload, stale, fake.webhookSecret)).toThrow(/Timestamp outside the tolerance zone/);
    expect(stripe.webhooks.constructEvent(delivery.payload, fake.sign(delivery.payload), fake.webhookSecret).id).toBe(delivery.event.id);
  });
});

describe('lifecycle events', () => {
  test('completing checkout: subscription created, first invoice paid, session completed', async () => {
    const { events, session, subscription, invoice, customer } = await subscribe();
    expect(events.map((delivery) => delivery.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    const [created, paid, completed] = events.map(verified);

    expect(completed).toMatchObject({
      type: 'checkout.session.completed',
      api_version: Stripe.API_VERSION,
      data: {
        object: {
          id: session.id,
          status: 'complete',
          payment_status: 'paid',
          client_reference_id: 'user-7',
          subscription: subscription.id,
          customer: customer.id,
        },
      },
    });
    expect(created).toMatchObject({ data: { object: { id: subscription.id, status: 'active', metadata: { userId: 'user-7' } } } });
    expect(paid).toMatchObject({
      data: { object: { id: invoice.id, status: 'paid', billing_reason: 'subscription_create', amount_paid: 1999, customer_email: 'lin@example.com' } },
    });
    // The customer the session created is real for the API too.
    await expect(stripe.customers.retrieve(customer.id)).resolves.toMatchObject({ email: 'lin@example.com' });
  });

  test('renewal: the period moves on, a new invoice is paid', async () => {
    const { subscription } = await subscribe();
    const before = subscription.items.data[0];
    const { events } = fake.advancePeriod(subscription.id);
    expect(events.map((delivery) => delivery.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    const [updated, paid] = events.map(verified);

    const previous = (updated?.data.previous_attributes ?? {}) as Partial<Stripe.Subscription>;
    expect(previous.items?.data[0]?.current_period_end).toBe(before?.current_period_end);
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.items.data[0]?.current_period_start).toBe(before?.current_period_end);
    expect(renewed.status).toBe('active');
    expect(paid?.data.object).toMatchObject({ object: 'invoice', billing_reason: 'subscription_cycle', status: 'paid', id: renewed.latest_invoice });
  });

  test('a declined renewal makes the subscription past_due until the payment is recovered', async () => {
    const { subscription } = await subscribe();
    const failed = fake.failRenewal(subscription.id);
    expect(failed.events.map((delivery) => delivery.type)).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);
    const [pastDue, paymentFailed] = failed.events.map(verified);
    expect(pastDue?.data).toMatchObject({ object: { status: 'past_due' }, previous_attributes: { status: 'active' } });
    expect(paymentFailed?.data.object).toMatchObject({ status: 'open', attempted: true, attempt_count: 1, amount_paid: 0 });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'past_due' });

    const recovered = fake.recoverPayment(subscription.id);
    expect(recovered.events.map((delivery) => delivery.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect(verified(recovered.events[1] as WebhookDelivery).data).toMatchObject({ object: { status: 'active' }, previous_attributes: { status: 'past_due' } });
    expect(await stripe.invoices.retrieve(failed.invoice?.id ?? '')).toMatchObject({ status: 'paid', attempt_count: 2 });
  });

  test('cancel at period end keeps access until the period ends, then the subscription is deleted', async () => {
    const { subscription } = await subscribe();
    const periodEnd = subscription.items.data[0]?.current_period_end;
    const requested = fake.cancelAtPeriodEnd(subscription.id);
    expect(verified(requested.events[0] as WebhookDelivery)).toMatchObject({
      type: 'customer.subscription.updated',
      data: { object: { status: 'active', cancel_at_period_end: true, cancel_at: periodEnd }, previous_attributes: { cancel_at_period_end: false } },
    });

    const ended = fake.advancePeriod(subscription.id);
    expect(ended.invoice).toBeUndefined();
    expect(verified(ended.events[0] as WebhookDelivery)).toMatchObject({
      type: 'customer.subscription.deleted',
      data: { object: { status: 'canceled', ended_at: periodEnd } },
    });
  });

  test('changes made through the API produce events that name the request', async () => {
    const { subscription } = await subscribe();
    const updated = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }, { idempotencyKey: 'cancel-1' });
    const delivery = fake.events.at(-1);
    expect(delivery?.type).toBe('customer.subscription.updated');
    expect(delivery?.event.request).toEqual({ id: updated.lastResponse.requestId, idempotency_key: 'cancel-1' });

    await stripe.subscriptions.cancel(subscription.id);
    expect(fake.events.at(-1)?.type).toBe('customer.subscription.deleted');
  });
});

test('billing periods follow the anchor day, clamped to short months', async () => {
  let now = Date.UTC(2027, 0, 31, 12);
  const clocked = await startFakeStripe({ now: () => now });
  try {
    const client = clientFor(clocked);
    const price = clocked.seedPrice({ lookupKey: 'basic_month', unitAmount: 999 });
    const session = await client.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }] });
    const { subscription } = clocked.completeCheckout(session.id);
    const ends = [subscription.items.data[0]?.current_period_end];
    for (let i = 0; i < 2; i++) {
      now += 31 * 86_400_000;
      ends.push(clocked.advancePeriod(subscription.id).subscription.items.data[0]?.current_period_end);
    }
    expect(ends.map((end) => new Date((end ?? 0) * 1000).toISOString().slice(0, 10))).toEqual(['2027-02-28', '2027-03-31', '2027-04-30']);
  } finally {
    await clocked.stop();
  }
});

test('the hosted checkout page completes the session and sends the browser to success_url; events reach webhookUrl in order', async () => {
  const received: { type: string; valid: boolean }[] = [];
  const receiver = await listen(async (request, response) => {
    const payload = (await readBody(request)).toString('utf8');
    const header = request.headers['stripe-signature'] ?? '';
    try {
      received.push({ type: stripe.webhooks.constructEvent(payload, header, secret).type, valid: true });
    } catch {
      received.push({ type: 'unverified', valid: false });
    }
    sendJson(response, 200, { received: true });
  });
  const delivering = await startFakeStripe({ webhookUrl: `${receiver.url}/api/billing/webhook` });
  const secret = delivering.webhookSecret;
  try {
    const client = clientFor(delivering);
    const price = delivering.seedPrice({ lookupKey: 'pro_month', unitAmount: 1999 });
    const session = await client.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'https://loopcast.test/app/billing?session={CHECKOUT_SESSION_ID}',
    });
    const response = await fetch(session.url ?? '', { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`https://loopcast.test/app/billing?session=${session.id}`);
    await expect(client.checkout.sessions.retrieve(session.id)).resolves.toMatchObject({ status: 'complete' });

    await delivering.settled();
    expect(received).toEqual([
      { type: 'customer.subscription.created', valid: true },
      { type: 'invoice.paid', valid: true },
      { type: 'checkout.session.completed', valid: true },
    ]);
    expect(delivering.webhookResults.map((result) => result.status)).toEqual([200, 200, 200]);
  } finally {
    await delivering.stop();
    await receiver.stop();
  }
});
