// The /v1 endpoints Loopcast uses, each reading its parameters the way Stripe validates them.
import { mergeMetadata, type Billing } from './billing';
import { stripeErrors } from './errors';
import type { RequestRef } from './events';
import { expand } from './expand';
import type { FormTree } from './form';
import {
  checkoutSessionObject,
  lineItemObject,
  listOf,
  newId,
  portalSessionObject,
  priceObject,
  productObject,
  type List,
  type PauseCollection,
  type Recurrence,
} from './objects';
import { Params } from './params';
import type { StripeState } from './state';
import { randomString } from '../shared/random';

export interface ApiRequest {
  params: FormTree;
  request: RequestRef;
  now: number;
  /** The fake's own origin: hosted checkout and portal pages live there. */
  origin: string;
}

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  handle(request: ApiRequest, id: string): object;
}

export function apiRoutes(state: StripeState, billing: Billing): Route[] {
  const customer = (id: string) => state.customers.get(id) ?? notFound('customer', id);
  const subscription = (id: string) => state.subscriptions.get(id) ?? notFound('subscription', id);
  const priceById = (id: string) => state.prices.get(id) ?? notFound('price', id);

  /** A lookup key names one price at a time, archived ones included; `transfer_lookup_key` takes it from its holder.
   * Called once the request is otherwise valid, so a refused request leaves the holder its key. */
  const claimLookupKey = (key: string, transfer: boolean, owner?: string) => {
    const holder = [...state.prices.values()].find((each) => each.lookup_key === key && each.id !== owner);
    if (!holder) return;
    if (!transfer) throw stripeErrors.invalidValue('lookup_key', `A price (\`${holder.id}\`) already uses that lookup key.`);
    holder.lookup_key = null;
  };

  return [
    {
      method: 'POST',
      pattern: /^\/v1\/customers$/,
      handle({ params }) {
        const p = Params.of(params, ['email', 'name', 'metadata']);
        const metadata = p.metadata();
        const created = billing.createCustomer({
          email: p.string('email') ?? null,
          name: p.string('name') ?? null,
          metadata: metadata === 'clear' || metadata === undefined ? {} : metadata,
        });
        return expand(created, p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/customers\/([^/]+)$/,
      handle: ({ params }, id) => expand(customer(id), Params.of(params, []).expand(), state),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/customers\/([^/]+)$/,
      handle({ params }, id) {
        const p = Params.of(params, ['email', 'name', 'metadata']);
        const found = customer(id);
        const email = p.string('email');
        const name = p.string('name');
        const metadata = p.metadata();
        if (email !== undefined) found.email = email === '' ? null : email;
        if (name !== undefined) found.name = name === '' ? null : name;
        if (metadata !== undefined) found.metadata = mergeMetadata(found.metadata, metadata);
        return expand(found, p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/prices$/,
      handle({ params }) {
        const p = Params.of(params, ['lookup_keys', 'active', 'product', 'type', 'limit', 'starting_after', 'ending_before']);
        const lookupKeys = p.strings('lookup_keys');
        if (lookupKeys && lookupKeys.length > 10) throw stripeErrors.invalidValue('lookup_keys', 'You can specify up to 10 lookup_keys.');
        const active = p.boolean('active');
        const product = p.string('product');
        const type = p.oneOf('type', ['one_time', 'recurring'] as const);
        const prices = [...state.prices.values()].filter(
          (price) =>
            (lookupKeys === undefined || (price.lookup_key !== null && lookupKeys.includes(price.lookup_key))) &&
            (active === undefined || price.active === active) &&
            (product === undefined || price.product === product) &&
            (type === undefined || price.type === type),
        );
        return expand(page(prices, p, '/v1/prices', 'price'), p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/prices\/([^/]+)$/,
      handle: ({ params }, id) => expand(priceById(id), Params.of(params, []).expand(), state),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/prices$/,
      handle({ params, now }) {
        const p = Params.of(params, ['product', 'currency', 'unit_amount', 'recurring', 'lookup_key', 'transfer_lookup_key', 'metadata', 'nickname', 'active']);
        const currency = currencyParam(p);
        const productId = p.string('product');
        // Stripe also takes `product_data` (a product made on the fly); the fake does not model it.
        if (productId === undefined) throw stripeErrors.missingParam('product');
        if (!state.products.has(productId)) throw stripeErrors.noSuchParamObject('product', productId, 'product');
        const unitAmount = p.integer('unit_amount');
        if (unitAmount === undefined) throw stripeErrors.missingParam('unit_amount');
        if (unitAmount < 0) throw stripeErrors.invalidValue('unit_amount', 'This value must be greater than or equal to 0.');
        const recurring = recurringParam(p);
        const lookupKey = lookupKeyParam(p);
        const transfer = p.boolean('transfer_lookup_key') ?? false;
        const metadata = p.metadata();
        const nickname = p.string('nickname');
        const active = p.boolean('active') ?? true;
        if (lookupKey) claimLookupKey(lookupKey, transfer);
        const created = priceObject({
          created: now,
          product: productId,
          lookupKey: lookupKey || null,
          unitAmount,
          currency,
          recurring: recurring ?? null,
          nickname: nickname || null,
          metadata: metadata === 'clear' || metadata === undefined ? {} : metadata,
          active,
        });
        state.prices.set(created.id, created);
        return expand(created, p.expand(), state);
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/prices\/([^/]+)$/,
      handle({ params }, id) {
        const p = Params.of(params, ['active', 'metadata', 'lookup_key', 'transfer_lookup_key', 'nickname']);
        const found = priceById(id);
        const active = p.boolean('active');
        const metadata = p.metadata();
        const lookupKey = lookupKeyParam(p);
        const transfer = p.boolean('transfer_lookup_key') ?? false;
        const nickname = p.string('nickname');
        // `lookup_key=` unsets the key.
        if (lookupKey) claimLookupKey(lookupKey, transfer, found.id);
        if (lookupKey !== undefined) found.lookup_key = lookupKey === '' ? null : lookupKey;
        if (active !== undefined) found.active = active;
        if (metadata !== undefined) found.metadata = mergeMetadata(found.metadata, metadata);
        if (nickname !== undefined) found.nickname = nickname === '' ? null : nickname;
        return expand(found, p.expand(), state);
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/products$/,
      handle({ params, now }) {
        const p = Params.of(params, ['name', 'active', 'description', 'metadata']);
        const name = p.requiredString('name');
        const metadata = p.metadata();
        const description = p.string('description');
        const created = productObject({
          created: now,
          name,
          description: description || null,
          metadata: metadata === 'clear' || metadata === undefined ? {} : metadata,
          active: p.boolean('active') ?? true,
        });
        state.products.set(created.id, created);
        return expand(created, p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/products$/,
      handle({ params }) {
        const p = Params.of(params, ['active', 'ids', 'limit', 'starting_after', 'ending_before']);
        const active = p.boolean('active');
        const ids = p.strings('ids');
        const products = [...state.products.values()].filter(
          (product) => (active === undefined || product.active === active) && (ids === undefined || ids.includes(product.id)),
        );
        return expand(page(products, p, '/v1/products', 'product'), p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/products\/([^/]+)$/,
      handle: ({ params }, id) => expand(state.products.get(id) ?? notFound('product', id), Params.of(params, []).expand(), state),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/checkout\/sessions$/,
      handle({ params, now, origin }) {
        const p = Params.of(params, [
          'mode',
          'line_items',
          'customer',
          'customer_email',
          'client_reference_id',
          'metadata',
          'subscription_data',
          'success_url',
          'cancel_url',
          'locale',
          'allow_promotion_codes',
        ]);
        const mode = p.oneOf('mode', ['payment', 'setup', 'subscription'] as const);
        if (mode === undefined) throw stripeErrors.missingParam('mode');
        if (mode !== 'subscription') throw stripeErrors.invalidRequest(`[fake Stripe] mode=${mode} is not modelled; only subscription mode is.`);
        const customerId = p.string('customer');
        const customerEmail = p.string('customer_email');
        if (customerId !== undefined && customerEmail !== undefined) {
          throw stripeErrors.invalidRequest('You may only specify one of these parameters: customer, customer_email.');
        }
        if (customerId !== undefined && !state.customers.has(customerId)) throw stripeErrors.noSuchParamObject('customer', customerId, 'customer');
        const items = p.hashes('line_items', ['price', 'quantity']);
        if (!items || items.length === 0) throw stripeErrors.missingParam('line_items');
        const lineItems = items.map((item, i) => {
          const priceId = item.requiredString('price');
          const price = state.prices.get(priceId);
          if (!price) throw stripeErrors.noSuchParamObject('price', priceId, `line_items[${i}][price]`);
          if (!price.active) {
            throw stripeErrors.invalidValue(`line_items[${i}][price]`, 'The price specified is inactive. This field only accepts active prices.');
          }
          const quantity = item.integer('quantity');
          if (quantity === undefined) throw stripeErrors.missingParam(`line_items[${i}][quantity]`);
          return lineItemObject(price, quantity);
        });
        if (!lineItems.some((item) => item.price?.type === 'recurring')) {
          throw stripeErrors.invalidRequest('You must provide at least one recurring price in `subscription` mode when using prices.');
        }
        const subscriptionData = p.hash('subscription_data', ['metadata', 'description']);
        const clientReferenceId = p.string('client_reference_id');
        if (clientReferenceId !== undefined && clientReferenceId.length > 200) {
          throw stripeErrors.invalidValue('client_reference_id', 'client_reference_id must be at most 200 characters.');
        }
        const id = newId('cs_test', 58);
        const metadata = p.metadata();
        const session = checkoutSessionObject({
          id,
          url: `${origin}/c/pay/${id}`,
          created: now,
          mode,
          lineItems,
          customer: customerId ?? null,
          customerEmail: customerEmail ?? null,
          clientReferenceId: clientReferenceId ?? null,
          metadata: metadata === 'clear' || metadata === undefined ? {} : metadata,
          successUrl: urlParam(p, 'success_url'),
          cancelUrl: urlParam(p, 'cancel_url'),
          locale: p.string('locale') ?? null,
          allowPromotionCodes: p.boolean('allow_promotion_codes') ?? null,
        });
        state.checkoutSessions.set(id, session);
        state.checkoutLineItems.set(id, lineItems);
        const subscriptionMetadata = subscriptionData?.metadata();
        if (subscriptionMetadata && subscriptionMetadata !== 'clear') state.checkoutSubscriptionMetadata.set(id, subscriptionMetadata);
        return expand(session, p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
      handle: ({ params }, id) => expand(state.checkoutSessions.get(id) ?? notFound('checkout.session', id), Params.of(params, []).expand(), state),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/billing_portal\/sessions$/,
      handle({ params, now, origin }) {
        const p = Params.of(params, ['customer', 'return_url', 'locale']);
        const customerId = p.requiredString('customer');
        if (!state.customers.has(customerId)) throw stripeErrors.noSuchParamObject('customer', customerId, 'customer');
        const session = portalSessionObject({
          id: newId('bps'),
          url: `${origin}/p/session/test_${randomString(40)}`,
          created: now,
          customer: customerId,
          returnUrl: urlParam(p, 'return_url'),
          locale: p.string('locale') ?? null,
        });
        state.portalSessions.set(session.id, session);
        return expand(session, p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions$/,
      handle({ params }) {
        const p = Params.of(params, ['customer', 'price', 'status', 'limit', 'starting_after', 'ending_before']);
        const customerId = p.string('customer');
        const priceId = p.string('price');
        const status = p.oneOf('status', [
          'active',
          'all',
          'canceled',
          'ended',
          'incomplete',
          'incomplete_expired',
          'past_due',
          'paused',
          'trialing',
          'unpaid',
        ] as const);
        const matches = [...state.subscriptions.values()].filter(
          (sub) =>
            (customerId === undefined || sub.customer === customerId) &&
            (priceId === undefined || sub.items.data.some((item) => item.price.id === priceId)) &&
            // Without a status filter Stripe lists every subscription that is not canceled.
            (status === 'all' ||
              (status === undefined && sub.status !== 'canceled') ||
              (status === 'ended' && sub.status === 'canceled') ||
              sub.status === status),
        );
        return expand(page(matches, p, '/v1/subscriptions', 'subscription'), p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: ({ params }, id) => expand(subscription(id), Params.of(params, []).expand(), state),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle({ params, request }, id) {
        const p = Params.of(params, ['cancel_at_period_end', 'metadata', 'pause_collection']);
        const cancelAtPeriodEnd = p.boolean('cancel_at_period_end');
        const metadata = p.metadata();
        const pauseCollection = pauseCollectionParam(p);
        const { subscription: updated } = billing.updateSubscription(
          id,
          {
            ...(cancelAtPeriodEnd === undefined ? {} : { cancelAtPeriodEnd }),
            ...(metadata === undefined ? {} : { metadata }),
            ...(pauseCollection === undefined ? {} : { pauseCollection }),
          },
          request,
        );
        return expand(updated, p.expand(), state);
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle({ params, request }, id) {
        const p = Params.of(params, []);
        return expand(billing.cancelNow(id, request).subscription, p.expand(), state);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/invoices\/([^/]+)$/,
      handle: ({ params }, id) => expand(state.invoices.get(id) ?? notFound('invoice', id), Params.of(params, []).expand(), state),
    },
  ];
}

function notFound(objectName: string, id: string): never {
  throw stripeErrors.noSuchObject(objectName, id);
}

/** `pause_collection[behavior]=void` pauses collection; `pause_collection=` (empty) resumes it. */
function pauseCollectionParam(p: Params): PauseCollection | null | undefined {
  const pause = p.emptyableHash('pause_collection', ['behavior', 'resumes_at']);
  if (!pause) return pause;
  const behavior = pause.oneOf('behavior', ['keep_as_draft', 'mark_uncollectible', 'void'] as const);
  if (!behavior) throw stripeErrors.missingParam('pause_collection[behavior]');
  return { behavior, resumes_at: pause.integer('resumes_at') ?? null };
}

/** A three-letter ISO code; Stripe takes any case and answers in lower case. */
function currencyParam(p: Params): string {
  const currency = p.requiredString('currency').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw stripeErrors.invalidValue('currency', `Invalid currency: ${currency}`);
  return currency;
}

/** Longest interval per unit: Stripe bills at most yearly (1 year, 12 months, 52 weeks, 365 days). */
const MAX_INTERVAL_COUNT: Record<Recurrence['interval'], number> = { day: 365, week: 52, month: 12, year: 1 };

function recurringParam(p: Params): Recurrence | undefined {
  const recurring = p.hash('recurring', ['interval', 'interval_count']);
  if (!recurring) return undefined;
  const interval = recurring.oneOf('interval', ['day', 'week', 'month', 'year'] as const);
  if (interval === undefined) throw stripeErrors.missingParam('recurring[interval]');
  const intervalCount = recurring.integer('interval_count') ?? 1;
  if (intervalCount < 1 || intervalCount > MAX_INTERVAL_COUNT[interval]) {
    throw stripeErrors.invalidValue(
      'recurring[interval_count]',
      'Invalid recurring[interval_count]: the maximum billing interval is one year (1 year, 12 months, 52 weeks or 365 days).',
    );
  }
  return { interval, intervalCount };
}

/** A lookup key (at most 200 characters); `''` when the request unsets it. */
function lookupKeyParam(p: Params): string | undefined {
  const key = p.string('lookup_key');
  if (key !== undefined && key.length > 200) throw stripeErrors.invalidValue('lookup_key', 'lookup_key must be at most 200 characters.');
  return key;
}

function urlParam(p: Params, key: string): string | null {
  const value = p.string(key);
  if (value === undefined) return null;
  // Stripe keeps the {CHECKOUT_SESSION_ID} template as is; it must still parse as a URL.
  if (!URL.canParse(value)) throw stripeErrors.invalidValue(key, 'Not a valid URL');
  return value;
}

/** Stripe's cursor pagination over a list ordered newest first. */
function page<T extends { id: string; created: number }>(items: T[], p: Params, url: string, objectName: string): List<T> {
  const limit = p.integer('limit') ?? 10;
  if (limit < 1 || limit > 100) throw stripeErrors.invalidValue('limit', 'This value must be between 1 and 100 (inclusive).');
  const ordered = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
    .map(({ item }) => item);
  const after = p.string('starting_after');
  const before = p.string('ending_before');
  const position = (cursor: string, param: string) => {
    const index = ordered.findIndex((item) => item.id === cursor);
    if (index < 0) throw stripeErrors.noSuchParamObject(objectName, cursor, param);
    return index;
  };
  if (before !== undefined) {
    const end = position(before, 'ending_before');
    const start = Math.max(0, end - limit);
    return listOf(ordered.slice(start, end), url, start > 0);
  }
  const start = after === undefined ? 0 : position(after, 'starting_after') + 1;
  return listOf(ordered.slice(start, start + limit), url, start + limit < ordered.length);
}
