// Plans and billing through the real HTTP API and the real stripe client, pointed at the fake Stripe, with
// webhooks delivered signed by the stripe library's own helper: trial, checkout, renewal, failure and recovery,
// cancellation, replays and out-of-order deliveries, wrong signatures, and a stack without Stripe.
import { DynamoBillingStore } from '../../lambdas/adapters/dynamo/billing-store';
import { billingPeriods, periodPriceCents, plans, stripeLookupKey } from '../../lambdas/core/plans';
import type { LocalStack } from '../../local/stack';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe/server';
import type { WebhookDelivery } from '../fakes/stripe/events';
import { api, mailsTo, signedInUser, strongPassword } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let fake: FakeStripe;
let stack: LocalStack;
let unconfigured: LocalStack;

beforeAll(async () => {
  fake = await startFakeStripe();
  for (const plan of ['basic', 'pro'] as const) {
    for (const period of billingPeriods) {
      fake.seedPrice({
        lookupKey: stripeLookupKey(plan, period),
        unitAmount: periodPriceCents(plans[plan], period)!,
        productName: plan,
        interval: period === 'year' ? 'year' : 'month',
        intervalCount: { month: 1, '3months': 3, '6months': 6, year: 1 }[period],
      });
    }
  }
  [stack, unconfigured] = await Promise.all([
    startTestStack({ stripe: { secretKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url } }),
    startTestStack(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), unconfigured?.stop()]);
  await fake?.stop();
});
afterEach(() => {
  stack.deps.now = () => new Date();
});

const webhookUrl = () => `${stack.urls.api}/billing/webhook`;

async function deliverAll(events: WebhookDelivery[]): Promise<Record<string, unknown>[]> {
  const answers = [];
  for (const delivery of events) {
    const response = await fake.deliver(delivery, webhookUrl());
    expect(response.status).toBe(200);
    answers.push((await response.json()) as Record<string, unknown>);
  }
  return answers;
}

async function subscribe(token: string, plan = 'basic', period = 'month') {
  const started = await api(stack, 'POST', '/billing/checkout', { token, body: { plan, period } });
  expect(started.status).toBe(200);
  expect(started.body.kind).toBe('checkout');
  const sessionId = /cs_test_[A-Za-z0-9]+/.exec(started.body.url)![0];
  const outcome = fake.completeCheckout(sessionId);
  await deliverAll(outcome.events);
  return { sessionId, outcome };
}

describe('plans', () => {
  test('GET /plans lists every plan with prices and savings from the one definition', async () => {
    const { status, body } = await api(stack, 'GET', '/plans');
    expect(status).toBe(200);
    expect(body.plans.map((p: { id: string }) => p.id)).toEqual(['trial', 'basic', 'pro', 'custom']);
    const basic = body.plans.find((p: { id: string }) => p.id === 'basic');
    expect(basic.prices.find((p: { period: string }) => p.period === 'year')).toEqual({ period: 'year', months: 12, cents: 8091, savingCents: 2697 });
    expect(body.plans.find((p: { id: string }) => p.id === 'custom').prices).toEqual([]);
  });
});

describe('subscriptions', () => {
  test('a new user is on the 3-day trial, which then expires', async () => {
    const user = await signedInUser(stack);
    const trial = await api(stack, 'GET', '/subscription', { token: user.token });
    expect(trial.body).toMatchObject({
      plan: 'trial',
      state: 'trial',
      active: true,
      billingAvailable: true,
      hasBillingAccount: false,
      usage: { storageBytes: 0, runningStreams: 0, uploadsThisCycle: 0 },
    });
    stack.deps.now = () => new Date(Date.now() + 73 * 3600_000);
    const expired = await api(stack, 'GET', '/subscription', { token: user.token });
    expect(expired.body).toMatchObject({ plan: 'trial', state: 'expired', active: false, blockedBy: 'no active subscription' });
  });

  test('checkout, renewal, failed payment with grace and notice, recovery, cancellation at period end', async () => {
    const user = await signedInUser(stack, 'payer');
    const { outcome } = await subscribe(user.token, 'pro', 'month');
    const subscriptionId = outcome.subscription.id;
    let view = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    expect(view).toMatchObject({ plan: 'pro', period: 'month', state: 'active', active: true, hasBillingAccount: true });
    expect(view.payments).toHaveLength(1);
    expect(view.payments[0]).toMatchObject({ amountCents: 2499, currency: 'usd' });

    await deliverAll(fake.advancePeriod(subscriptionId).events);
    view = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    expect(view.payments).toHaveLength(2);
    expect(view.state).toBe('active');

    await deliverAll(fake.failRenewal(subscriptionId).events);
    view = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    expect(view).toMatchObject({ state: 'payment-failed', active: false, blockedBy: 'no valid payment' });
    expect(new Date(view.graceEndsAt).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect((await mailsTo(stack, user.email)).at(-1)?.subject).toBe('Your Loopcast payment failed');

    await deliverAll(fake.recoverPayment(subscriptionId).events);
    view = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    expect(view).toMatchObject({ state: 'active', active: true });
    expect(view.graceEndsAt).toBeUndefined();

    await deliverAll(fake.cancelAtPeriodEnd(subscriptionId).events);
    view = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    expect(view).toMatchObject({ state: 'canceling', active: true, cancelAtPeriodEnd: true });
    stack.deps.now = () => new Date(new Date(view.cycleEnd).getTime() + 1000);
    // Months later: the old session has expired too, so sign in again.
    const later = await api(stack, 'POST', '/login', { body: { email: user.email, password: strongPassword } });
    view = (await api(stack, 'GET', '/subscription', { token: later.body.token })).body;
    expect(view).toMatchObject({ state: 'expired', active: false, blockedBy: 'no active subscription' });
  });

  test('replayed and out-of-order webhooks change nothing twice', async () => {
    const user = await signedInUser(stack, 'replay');
    const { outcome } = await subscribe(user.token);
    const failed = fake.failRenewal(outcome.subscription.id);
    await deliverAll(failed.events);
    const before = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    const mailsBefore = (await mailsTo(stack, user.email)).length;

    // Every event again, oldest first: all duplicates.
    const answers = await deliverAll([...outcome.events, ...failed.events]);
    expect(answers.every((a) => a.outcome === 'duplicate')).toBe(true);
    // The original checkout's subscription.created, re-sent with a new id (Stripe retries can look new): the
    // state comes from Stripe's current subscription, so it stays past_due.
    const created = outcome.events.find((d) => d.type === 'customer.subscription.created')!;
    const resent = JSON.stringify({ ...created.event, id: `${created.event.id}_retry` });
    const response = await fetch(webhookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': fake.sign(resent) },
      body: resent,
    });
    expect(response.status).toBe(200);
    const after = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    expect(after).toEqual(before);
    expect((await mailsTo(stack, user.email)).length).toBe(mailsBefore);
  });

  test("a failed renewal's events delivered at the same moment, newest first, send one notice and agree on the state", async () => {
    const user = await signedInUser(stack, 'concurrent');
    const { outcome } = await subscribe(user.token);
    const mailsBefore = (await mailsTo(stack, user.email)).length;
    const failed = fake.failRenewal(outcome.subscription.id);
    expect(failed.events.map((d) => d.type)).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);
    const answers = await Promise.all([...failed.events].reverse().map((delivery) => fake.deliver(delivery, webhookUrl())));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const view = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
    expect(view).toMatchObject({ state: 'payment-failed', active: false, blockedBy: 'no valid payment' });
    const notices = (await mailsTo(stack, user.email)).slice(mailsBefore).filter((mail) => mail.subject === 'Your Loopcast payment failed');
    expect(notices).toHaveLength(1);
    // What makes it one whatever the timing: of concurrent claims on a notice, exactly one wins.
    const store = new DynamoBillingStore(stack.deps.db, stack.config.tables.app);
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claimNotice(user.userId, 'payment-failed#race', new Date())));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  test('a paying user is sent to the portal instead of a second checkout', async () => {
    const user = await signedInUser(stack, 'switcher');
    await subscribe(user.token);
    const again = await api(stack, 'POST', '/billing/checkout', { token: user.token, body: { plan: 'pro', period: 'year' } });
    expect(again.body.kind).toBe('portal');
    expect((await api(stack, 'POST', '/billing/portal', { token: user.token })).body.url).toMatch(/^http/);
  });
});

describe('refusals', () => {
  test('unknown plans, Custom and unknown periods are "The selected subscription plan is not available"', async () => {
    const user = await signedInUser(stack);
    for (const body of [{ plan: 'gold' }, { plan: 'custom' }, { plan: 'trial' }, { plan: 'basic', period: 'week' }]) {
      const response = await api(stack, 'POST', '/billing/checkout', { token: user.token, body });
      expect(response).toMatchObject({ status: 422, body: { error: 'unknown plan', message: 'The selected subscription plan is not available' } });
    }
  });

  test("another user's checkout session is 'Invalid payment order'", async () => {
    const owner = await signedInUser(stack, 'owner');
    const other = await signedInUser(stack, 'other');
    const started = await api(stack, 'POST', '/billing/checkout', { token: owner.token, body: { plan: 'basic' } });
    const sessionId = /cs_test_[A-Za-z0-9]+/.exec(started.body.url)![0];
    expect((await api(stack, 'GET', `/billing/checkout/${sessionId}`, { token: owner.token })).body).toEqual({ status: 'open', paid: false });
    expect(await api(stack, 'GET', `/billing/checkout/${sessionId}`, { token: other.token })).toMatchObject({ status: 403, body: { error: 'wrong order id' } });
    expect((await api(stack, 'GET', '/billing/checkout/cs_test_doesnotexist', { token: owner.token })).body.error).toBe('wrong order id');
  });

  test('a webhook with a wrong or missing signature is refused and changes nothing', async () => {
    const payload = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'customer.subscription.deleted', data: { object: {} } });
    const forged = await fetch(webhookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=deadbeef' },
      body: payload,
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: 'wrong signature', message: 'Payment verification failed. Please try again' });
    const unsigned = await fetch(webhookUrl(), { method: 'POST', body: payload });
    expect(unsigned.status).toBe(400);
  });

  test('the portal needs a billing account', async () => {
    const user = await signedInUser(stack);
    expect((await api(stack, 'POST', '/billing/portal', { token: user.token })).body.error).toBe('no active subscription');
  });

  test('without Stripe keys, paying says so and the trial still works', async () => {
    const user = await signedInUser(unconfigured);
    expect((await api(unconfigured, 'GET', '/subscription', { token: user.token })).body).toMatchObject({ state: 'trial', billingAvailable: false });
    const checkout = await api(unconfigured, 'POST', '/billing/checkout', { token: user.token, body: { plan: 'basic' } });
    expect(checkout).toMatchObject({
      status: 503,
      body: { error: 'payment provider missing configuration', message: 'Payment system configuration error. Please contact support' },
    });
    const webhook = await fetch(`${unconfigured.urls.api}/billing/webhook`, { method: 'POST', body: '{}' });
    expect(webhook.status).toBe(503);
  });
});
