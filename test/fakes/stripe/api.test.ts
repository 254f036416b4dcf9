// The real stripe library against the fake: every endpoint Loopcast uses, Stripe's wire format both ways.
import Stripe from 'stripe';
import type { FakeStripe } from './server';
import { startFakeWithClient } from './test-client';

let fake: FakeStripe;
let stripe: Stripe;
beforeAll(async () => ({ fake, stripe } = await startFakeWithClient()));
afterAll(() => fake.stop());

function lastCall() {
  const call = fake.calls.at(-1);
  if (!call) throw new Error('no call recorded');
  return call;
}

describe('customers', () => {
  test('create, retrieve and update, metadata merged key by key', async () => {
    const created = await stripe.customers.create({ email: 'ada@example.com', name: 'Ada', metadata: { userId: 'u1', plan: 'trial' } });
    expect(created).toMatchObject({ object: 'customer', email: 'ada@example.com', metadata: { userId: 'u1', plan: 'trial' } });
    expect(created.id).toMatch(/^cus_[A-Za-z0-9]{14}$/);

    const retrieved = await stripe.customers.retrieve(created.id);
    expect(retrieved).toEqual(expect.objectContaining({ id: created.id, email: 'ada@example.com' }));

    const updated = await stripe.customers.update(created.id, { name: 'Ada L.', metadata: { plan: '', tier: 'pro' } });
    expect(updated.name).toBe('Ada L.');
    expect(updated.metadata).toEqual({ userId: 'u1', tier: 'pro' });
    // Sent as Stripe's bracket notation, decoded into the same nesting.
    expect(lastCall().params).toEqual({ name: 'Ada L.', metadata: { plan: '', tier: 'pro' } });
  });
});

describe('prices', () => {
  test('list by lookup keys and active flag, with the product expanded', async () => {
    const basic = fake.seedPrice({ lookupKey: 'basic_month', unitAmount: 999, productName: 'Basic' });
    fake.seedPrice({ lookupKey: 'basic_year', unitAmount: 8999, interval: 'year', productName: 'Basic' });
    fake.seedPrice({ lookupKey: 'pro_month', unitAmount: 1999, productName: 'Pro' });
    fake.seedPrice({ lookupKey: 'legacy_month', unitAmount: 500, productName: 'Legacy', active: false });

    const list = await stripe.prices.list({ lookup_keys: ['basic_month', 'pro_month', 'legacy_month'], active: true, expand: ['data.product'] });
    expect(list).toMatchObject({ object: 'list', has_more: false, url: '/v1/prices' });
    expect(list.data.map((price) => price.lookup_key).sort()).toEqual(['basic_month', 'pro_month']);
    const fetched = list.data.find((price) => price.id === basic.id);
    expect(fetched?.recurring).toMatchObject({ interval: 'month', interval_count: 1 });
    expect(fetched?.product).toMatchObject({ object: 'product', name: 'Basic' });
    // The wire carries decimals as strings; the library turns them into its Decimal type.
    expect(String(fetched?.unit_amount_decimal)).toBe('999');
    expect(lastCall().params).toMatchObject({ lookup_keys: ['basic_month', 'pro_month', 'legacy_month'], active: 'true' });
  });

  test('cursor pagination', async () => {
    const first = await stripe.prices.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const rest = await stripe.prices.list({ limit: 100, starting_after: first.data[1]?.id });
    const ids = [...first.data, ...rest.data].map((price) => price.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rest.has_more).toBe(false);
  });
});

describe('products and prices made through the API', () => {
  test('products: create with metadata, list (active filter, pagination), retrieve', async () => {
    const basic = await stripe.products.create({ name: 'Loopcast Basic', metadata: { loopcast_plan: 'basic' } });
    expect(basic).toMatchObject({ object: 'product', name: 'Loopcast Basic', active: true, metadata: { loopcast_plan: 'basic' }, type: 'service' });
    expect(basic.id).toMatch(/^prod_[A-Za-z0-9]{14}$/);
    expect(lastCall().params).toEqual({ name: 'Loopcast Basic', metadata: { loopcast_plan: 'basic' } });
    const archived = await stripe.products.create({ name: 'Old plan', active: false });
    expect(archived.active).toBe(false);

    const active = await stripe.products.list({ active: true, limit: 100 });
    expect(active).toMatchObject({ object: 'list', url: '/v1/products' });
    expect(active.data.map((product) => product.id)).toContain(basic.id);
    expect(active.data.map((product) => product.id)).not.toContain(archived.id);
    // The library's auto-pagination walks `starting_after` one page at a time.
    const all: string[] = [];
    for await (const product of stripe.products.list({ limit: 1 })) all.push(product.id);
    expect(all).toEqual(expect.arrayContaining([basic.id, archived.id]));
    expect(new Set(all).size).toBe(all.length);
    expect((await stripe.products.list({ ids: [archived.id] })).data.map((product) => product.id)).toEqual([archived.id]);

    expect(await stripe.products.retrieve(basic.id)).toMatchObject({ id: basic.id, name: 'Loopcast Basic' });
    await expect(stripe.products.create({ name: '' })).rejects.toMatchObject({ code: 'parameter_missing', param: 'name' });
    await expect(stripe.products.create({ name: 'X', shippable: true })).rejects.toMatchObject({ code: 'parameter_unknown', param: 'shippable' });
  });

  test("prices: a recurring price with lookup key, nickname and metadata, in Stripe's wire format", async () => {
    const product = await stripe.products.create({ name: 'Loopcast Pro' });
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'USD',
      unit_amount: 6747,
      recurring: { interval: 'month', interval_count: 3 },
      lookup_key: 'api_pro_3months',
      nickname: 'Loopcast Pro, every 3 months',
      metadata: { plan: 'pro', period: '3months' },
    });
    expect(lastCall().params).toEqual({
      product: product.id,
      currency: 'USD',
      unit_amount: '6747',
      recurring: { interval: 'month', interval_count: '3' },
      lookup_key: 'api_pro_3months',
      nickname: 'Loopcast Pro, every 3 months',
      metadata: { plan: 'pro', period: '3months' },
    });
    expect(price).toMatchObject({
      object: 'price',
      active: true,
      currency: 'usd',
      unit_amount: 6747,
      type: 'recurring',
      recurring: { interval: 'month', interval_count: 3, usage_type: 'licensed' },
      lookup_key: 'api_pro_3months',
      product: product.id,
      metadata: { plan: 'pro', period: '3months' },
    });
    expect(price.id).toMatch(/^price_/);
    const listed = await stripe.prices.list({ lookup_keys: ['api_pro_3months'], expand: ['data.product'] });
    expect(listed.data.map((each) => each.id)).toEqual([price.id]);
    expect(listed.data[0]?.product).toMatchObject({ object: 'product', name: 'Loopcast Pro' });
  });

  test('a lookup key names one price: taken only with transfer_lookup_key, archived holders included', async () => {
    const product = await stripe.products.create({ name: 'Keys' });
    const base = { product: product.id, currency: 'usd', recurring: { interval: 'month' as const } };
    const first = await stripe.prices.create({ ...base, unit_amount: 999, lookup_key: 'api_key_moves' });

    const refused = stripe.prices.create({ ...base, unit_amount: 899, lookup_key: 'api_key_moves' });
    await expect(refused).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(refused).rejects.toMatchObject({ statusCode: 400, param: 'lookup_key', message: `A price (\`${first.id}\`) already uses that lookup key.` });
    await stripe.prices.update(first.id, { active: false });
    await expect(stripe.prices.create({ ...base, unit_amount: 899, lookup_key: 'api_key_moves' })).rejects.toMatchObject({ param: 'lookup_key' });

    const second = await stripe.prices.create({ ...base, unit_amount: 899, lookup_key: 'api_key_moves', transfer_lookup_key: true });
    expect(second.lookup_key).toBe('api_key_moves');
    // The old price keeps everything but the key.
    expect(await stripe.prices.retrieve(first.id)).toMatchObject({ lookup_key: null, active: false, unit_amount: 999 });
    expect((await stripe.prices.list({ lookup_keys: ['api_key_moves'] })).data.map((price) => price.id)).toEqual([second.id]);
  });

  test('update: archive, metadata merged, lookup key set, moved or unset', async () => {
    const product = await stripe.products.create({ name: 'Updates' });
    const price = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 500, metadata: { plan: 'basic', keep: 'yes' } });
    expect(price).toMatchObject({ type: 'one_time', recurring: null, lookup_key: null });

    const archived = await stripe.prices.update(price.id, { active: false, metadata: { plan: '', period: 'month' }, lookup_key: 'api_updated' });
    expect(archived).toMatchObject({ active: false, metadata: { keep: 'yes', period: 'month' }, lookup_key: 'api_updated' });
    expect((await stripe.prices.list({ lookup_keys: ['api_updated'], active: true })).data).toEqual([]);

    const other = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 600 });
    await expect(stripe.prices.update(other.id, { lookup_key: 'api_updated' })).rejects.toMatchObject({ param: 'lookup_key' });
    expect(await stripe.prices.update(other.id, { lookup_key: 'api_updated', transfer_lookup_key: true })).toMatchObject({ lookup_key: 'api_updated' });
    expect((await stripe.prices.retrieve(price.id)).lookup_key).toBeNull();
    expect(await stripe.prices.update(other.id, { lookup_key: '' })).toMatchObject({ lookup_key: null });
    await expect(stripe.prices.update('price_missing', { active: false })).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  test('validation as Stripe does it', async () => {
    const product = await stripe.products.create({ name: 'Validation' });
    const base = { product: product.id, currency: 'usd', unit_amount: 100 };
    const rejects = (params: Stripe.PriceCreateParams) => expect(stripe.prices.create(params)).rejects;
    await rejects({ ...base, tax_behavior: 'exclusive' }).toMatchObject({ code: 'parameter_unknown', param: 'tax_behavior' });
    await rejects({ ...base, recurring: { interval: 'month', usage_type: 'licensed' } }).toMatchObject({
      code: 'parameter_unknown',
      param: 'recurring[usage_type]',
    });
    await rejects({ ...base, currency: '' }).toMatchObject({ code: 'parameter_missing', param: 'currency' });
    await rejects({ ...base, product: 'prod_missing' }).toMatchObject({
      code: 'resource_missing',
      param: 'product',
      message: "No such product: 'prod_missing'",
    });
    await rejects({ product: product.id, currency: 'usd' }).toMatchObject({ code: 'parameter_missing', param: 'unit_amount' });
    await rejects({ ...base, recurring: { interval: 'month', interval_count: 13 } }).toMatchObject({ param: 'recurring[interval_count]' });
    await rejects({ ...base, recurring: { interval: 'fortnight' as 'week' } }).toMatchObject({ param: 'recurring[interval]' });
    await expect(stripe.prices.create({ ...base, recurring: { interval: 'year', interval_count: 1 } })).resolves.toMatchObject({
      recurring: { interval: 'year' },
    });
    await expect(stripe.prices.list({ lookup_keys: Array.from({ length: 11 }, (_, i) => `k${i}`) })).rejects.toMatchObject({ param: 'lookup_keys' });
  });
});

describe('checkout, portal, subscriptions and invoices', () => {
  let price: ReturnType<FakeStripe['seedPrice']>;
  let customer: Stripe.Customer;

  beforeAll(async () => {
    price = fake.seedPrice({ lookupKey: 'pro_3months', unitAmount: 5397, interval: 'month', intervalCount: 3 });
    customer = await stripe.customers.create({ email: 'grace@example.com' });
  });

  test('a subscription-mode checkout session carries every parameter Loopcast sends', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: 'user-42',
      line_items: [{ price: price.id, quantity: 1 }],
      metadata: { userId: 'user-42', plan: 'pro' },
      subscription_data: { metadata: { userId: 'user-42' } },
      success_url: 'https://loopcast.test/app/billing?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://loopcast.test/app/billing',
    });
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: 'user-42',
      metadata: { userId: 'user-42', plan: 'pro' },
      amount_total: 5397,
      currency: 'usd',
      subscription: null,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${fake.url}/c/pay/${session.id}`);
    expect(lastCall().params).toMatchObject({
      line_items: [{ price: price.id, quantity: '1' }],
      subscription_data: { metadata: { userId: 'user-42' } },
    });

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items', 'customer'] });
    expect(retrieved.line_items?.data[0]).toMatchObject({ object: 'item', quantity: 1, amount_total: 5397, price: { id: price.id } });
    expect(retrieved.customer).toMatchObject({ object: 'customer', id: customer.id });
  });

  test('billing portal session', async () => {
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'https://loopcast.test/app/billing' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'https://loopcast.test/app/billing' });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal.url.startsWith(`${fake.url}/p/session/`)).toBe(true);
  });

  test('subscriptions: retrieve, list by customer, cancel at period end, cancel', async () => {
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }] });
    const { subscription } = fake.completeCheckout(session.id);

    const retrieved = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(retrieved).toMatchObject({ object: 'subscription', status: 'active', customer: customer.id, cancel_at_period_end: false });
    expect(retrieved.id).toMatch(/^sub_/);
    const item = retrieved.items.data[0];
    expect(item?.price.id).toBe(price.id);
    expect(item?.current_period_end).toBeGreaterThan(item?.current_period_start ?? Infinity);
    expect(retrieved.latest_invoice).toMatchObject({ object: 'invoice', status: 'paid', amount_paid: 5397 });

    const listed = await stripe.subscriptions.list({ customer: customer.id });
    expect(listed.data.map((sub) => sub.id)).toEqual([subscription.id]);

    const cancelling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(cancelling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: item?.current_period_end });

    const canceled = await stripe.subscriptions.cancel(subscription.id);
    expect(canceled).toMatchObject({ status: 'canceled' });
    expect(canceled.ended_at).not.toBeNull();
    // Without a status filter Stripe leaves canceled subscriptions out.
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toHaveLength(1);
  });

  test('paused collection: renewals are voided, not charged, until pause_collection is unset', async () => {
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }] });
    const { subscription } = fake.completeCheckout(session.id);

    const paused = await stripe.subscriptions.update(subscription.id, { pause_collection: { behavior: 'void' } });
    expect(paused).toMatchObject({ status: 'active', pause_collection: { behavior: 'void', resumes_at: null } });
    expect(lastCall().params).toEqual({ pause_collection: { behavior: 'void' } });
    const voided = fake.advancePeriod(subscription.id);
    expect(voided.invoice).toMatchObject({ status: 'void', amount_paid: 0 });
    expect(voided.events.map((delivery) => delivery.type)).toEqual(['customer.subscription.updated', 'invoice.voided']);

    const resumed = await stripe.subscriptions.update(subscription.id, { pause_collection: '' });
    expect(lastCall().params).toEqual({ pause_collection: '' });
    expect(resumed).toMatchObject({ status: 'active', pause_collection: null });
    expect(fake.advancePeriod(subscription.id).invoice).toMatchObject({ status: 'paid', amount_paid: 5397 });

    await expect(stripe.subscriptions.update(subscription.id, { pause_collection: { behavior: 'sometimes' as 'void' } })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'pause_collection[behavior]',
    });
  });

  test('invoices: the renewal invoice names its subscription through parent.subscription_details', async () => {
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }] });
    const { subscription } = fake.completeCheckout(session.id);
    const { invoice } = fake.advancePeriod(subscription.id);
    if (!invoice) throw new Error('a renewal makes an invoice');

    const retrieved = await stripe.invoices.retrieve(invoice.id);
    expect(retrieved).toMatchObject({
      object: 'invoice',
      status: 'paid',
      billing_reason: 'subscription_cycle',
      customer: customer.id,
      amount_paid: 5397,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
    });
    expect(retrieved.id).toMatch(/^in_/);
    expect(retrieved.lines.data[0]?.period.start).toBe(retrieved.period_end);
  });
});

describe('idempotency and versions', () => {
  test('a retried POST with the same key replays the first answer instead of acting twice', async () => {
    const first = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'signup-7' });
    const again = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'signup-7' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(fake.calls.filter((call) => call.idempotencyKey === 'signup-7').map((call) => call.replayed)).toEqual([false, true]);
  });

  test('the same key with other parameters is an idempotency error', async () => {
    await stripe.customers.create({ email: 'first@example.com' }, { idempotencyKey: 'signup-8' });
    await expect(stripe.customers.create({ email: 'second@example.com' }, { idempotencyKey: 'signup-8' })).rejects.toBeInstanceOf(
      Stripe.errors.StripeIdempotencyError,
    );
  });

  test('the library keys every POST itself, so two calls are two customers', async () => {
    const a = await stripe.customers.create({ email: 'twin@example.com' });
    const b = await stripe.customers.create({ email: 'twin@example.com' });
    expect(a.id).not.toBe(b.id);
    expect(fake.calls.at(-1)?.idempotencyKey).toMatch(/^stripe-node-retry-/);
  });

  test('Stripe-Version is accepted and echoed', async () => {
    const pinned = new Stripe(fake.apiKey, { ...fake.clientOptions, apiVersion: Stripe.API_VERSION });
    const created = await pinned.customers.create({});
    expect(lastCall().stripeVersion).toBe(Stripe.API_VERSION);
    expect(created.lastResponse.apiVersion).toBe(Stripe.API_VERSION);
  });
});
