// A fake Stripe API for tests: the real `stripe` library talks to it over HTTP exactly as it talks to
// api.stripe.com (`new Stripe(fake.apiKey, fake.clientOptions)`), and test-control helpers play the parts Stripe
// plays on its own: the customer paying on the hosted checkout page, renewals, declined cards, webhooks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { apiRoutes, type ApiRequest } from './api';
import { Billing, type BillingOutcome, type CheckoutDetails, type CheckoutOutcome } from './billing';
import { StripeApiError, stripeErrors } from './errors';
import { EventLog, type RequestRef, type WebhookDelivery } from './events';
import { decodeForm, type FormTree } from './form';
import { priceObject, productObject, type Price, type Recurrence } from './objects';
import { StripeState } from './state';
import { listen, readBody, redirect, sendJson, sendText } from '../shared/http';
import { randomString } from '../shared/random';

export interface FakeStripeOptions {
  /** The secret key the fake accepts; any other key is refused like a revoked one. */
  apiKey?: string;
  webhookSecret?: string;
  /** Wall clock for object timestamps, in milliseconds (default Date.now). */
  now?: () => number;
  /** When set, every event is also POSTed here, in order, like a configured webhook endpoint. */
  webhookUrl?: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  params: FormTree;
  status: number;
  requestId: string;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  replayed: boolean;
}

export interface SeedPrice {
  lookupKey: string;
  /** In the currency's smallest unit (cents). */
  unitAmount: number;
  currency?: string;
  interval?: Recurrence['interval'];
  intervalCount?: number;
  productName?: string;
  nickname?: string;
  metadata?: Record<string, string>;
  active?: boolean;
}

export interface FakeStripe {
  url: string;
  apiKey: string;
  webhookSecret: string;
  /** Options for the real client: `new Stripe(fake.apiKey, fake.clientOptions)`. */
  clientOptions: { host: string; port: number; protocol: 'http' };
  /** Every API request, in order. */
  calls: RecordedCall[];
  /** Every webhook event produced, in order (API-driven ones included). */
  events: WebhookDelivery[];
  /** Results of automatic delivery to `webhookUrl`. */
  webhookResults: { eventId: string; type: string; status: number }[];
  seedPrice(price: SeedPrice): Price;
  /** The customer pays on the hosted checkout page. */
  completeCheckout(sessionId: string, details?: CheckoutDetails): CheckoutOutcome;
  advancePeriod(subscriptionId: string): BillingOutcome;
  failRenewal(subscriptionId: string): BillingOutcome;
  recoverPayment(subscriptionId: string): BillingOutcome;
  /** As done in the Customer Portal. */
  cancelAtPeriodEnd(subscriptionId: string): BillingOutcome;
  /** A fresh `Stripe-Signature` for a payload, as Stripe signs each delivery attempt. */
  sign(payload: string, timestamp?: number): string;
  /** POSTs one event the way Stripe delivers it (freshly signed). */
  deliver(delivery: WebhookDelivery, url: string): Promise<Response>;
  /** Resolves once automatic deliveries so far have been answered. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const apiKey = options.apiKey ?? 'sk_test_loopcast_fake_0000000000000000';
  const webhookSecret = options.webhookSecret ?? `whsec_${randomString(32)}`;
  const nowSeconds = () => Math.floor((options.now ?? Date.now)() / 1000);
  const state = new StripeState();
  const calls: RecordedCall[] = [];
  const webhookResults: FakeStripe['webhookResults'] = [];
  let deliveryQueue = Promise.resolve();

  const deliver = async (delivery: WebhookDelivery, url: string): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': events.sign(delivery.payload),
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        accept: '*/*; q=0.5, application/xml',
      },
      body: delivery.payload,
    });
  const { webhookUrl } = options;
  const events = new EventLog(webhookSecret, Stripe.API_VERSION, nowSeconds, (delivery) => {
    if (webhookUrl === undefined) return;
    deliveryQueue = deliveryQueue.then(async () => {
      const response = await deliver(delivery, webhookUrl).catch(() => undefined);
      await response?.arrayBuffer();
      webhookResults.push({ eventId: delivery.event.id, type: delivery.type, status: response?.status ?? 0 });
    });
  });
  const billing = new Billing(state, events, nowSeconds);
  const routes = apiRoutes(state, billing);
  const idempotency = new Map<string, { path: string; params: string; answer: Answer; requestId: string }>();

  const server = await listen(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname.startsWith('/v1/')) return handleApi(request, response, url);
    return handleHostedPage(response, url);
  });
  const origin = server.url;

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const requestId = `req_${randomString(14)}`;
    const idempotencyKey = method === 'POST' ? header(request, 'idempotency-key') : null;
    const stripeVersion = header(request, 'stripe-version');
    const body = await readBody(request);
    const params = decodeForm(method === 'POST' ? body.toString('utf8') : url.search.slice(1));
    const call: RecordedCall = { method, path: url.pathname, params, status: 0, requestId, idempotencyKey, stripeVersion, replayed: false };
    calls.push(call);
    const errorAnswer = (error: StripeApiError): Answer => ({
      status: error.status,
      body: { error: { ...error.body, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } },
    });

    // An answer, including an error the endpoint itself raised; parameter validation errors propagate unsaved.
    const execute = (): Answer => {
      const { route, id } = findRoute(method, url.pathname);
      const apiRequest: ApiRequest = { params, request: { id: requestId, idempotencyKey } satisfies RequestRef, now: nowSeconds(), origin };
      try {
        return { status: 200, body: route.handle(apiRequest, id) };
      } catch (error) {
        if (error instanceof StripeApiError && error.savesIdempotentResult) return errorAnswer(error);
        throw error;
      }
    };
    const executeOnce = (key: string): Answer => {
      const first = idempotency.get(key);
      if (!first) {
        const answer = execute();
        idempotency.set(key, { path: url.pathname, params: JSON.stringify(params), answer, requestId });
        return answer;
      }
      if (first.path !== url.pathname) throw stripeErrors.idempotencyEndpoint(key, first.path, url.pathname);
      if (first.params !== JSON.stringify(params)) throw stripeErrors.idempotencyParams(key);
      call.replayed = true;
      return { ...first.answer, headers: { 'idempotent-replayed': 'true', 'original-request': first.requestId } };
    };

    let answer: Answer;
    try {
      authenticate(request);
      answer = idempotencyKey ? executeOnce(idempotencyKey) : execute();
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      answer = errorAnswer(error);
    }
    call.status = answer.status;
    sendJson(response, answer.status, answer.body, {
      'request-id': requestId,
      'stripe-version': stripeVersion ?? Stripe.API_VERSION,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      ...answer.headers,
    });
  }

  function authenticate(request: IncomingMessage): void {
    const authorization = header(request, 'authorization');
    if (!authorization) throw stripeErrors.noApiKey();
    const [scheme = '', credential = ''] = authorization.split(' ');
    // Stripe takes the key as a Bearer token or as the Basic-auth user name (curl -u sk_test_...:).
    const key = scheme.toLowerCase() === 'basic' ? (Buffer.from(credential, 'base64').toString('utf8').split(':')[0] ?? '') : credential;
    if (key === '') throw stripeErrors.noApiKey();
    if (key !== apiKey) throw stripeErrors.invalidApiKey(key);
  }

  function findRoute(method: string, path: string) {
    for (const route of routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (match) return { route, id: decodeURIComponent(match[1] ?? '') };
    }
    throw stripeErrors.unrecognizedUrl(method, path);
  }

  /** Stand-ins for Stripe's hosted pages, so a browser test can walk through checkout and the portal. */
  function handleHostedPage(response: ServerResponse, url: URL): void {
    const checkout = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    if (checkout?.[1]) {
      const session = state.checkoutSessions.get(checkout[1]);
      if (!session || session.status !== 'open') return sendText(response, 410, 'This Checkout Session is no longer active.');
      if (url.searchParams.get('outcome') === 'cancel') return redirect(response, 303, session.cancel_url ?? origin);
      billing.completeCheckout(session.id, { ...optional('email', url.searchParams.get('email')) });
      const target = (session.success_url ?? origin).replaceAll('{CHECKOUT_SESSION_ID}', session.id);
      return redirect(response, 303, target);
    }
    const portal = [...state.portalSessions.values()].find((session) => new URL(session.url).pathname === url.pathname);
    if (portal) {
      if (url.searchParams.get('cancel') === 'at_period_end') {
        const active = [...state.subscriptions.values()].find((sub) => sub.customer === portal.customer && sub.status !== 'canceled');
        if (active) billing.updateSubscription(active.id, { cancelAtPeriodEnd: true });
      }
      return redirect(response, 303, portal.return_url ?? origin);
    }
    sendText(response, 404, 'Not found');
  }

  return {
    url: origin,
    apiKey,
    webhookSecret,
    clientOptions: { host: server.host, port: server.port, protocol: 'http' },
    calls,
    events: events.deliveries,
    webhookResults,
    seedPrice(seed) {
      const created = nowSeconds();
      const productName = seed.productName ?? seed.lookupKey;
      let product = [...state.products.values()].find((each) => each.name === productName);
      if (!product) {
        product = productObject({ created, name: productName });
        state.products.set(product.id, product);
      }
      const price = priceObject({
        created,
        product: product.id,
        lookupKey: seed.lookupKey,
        unitAmount: seed.unitAmount,
        currency: seed.currency ?? 'usd',
        recurring: { interval: seed.interval ?? 'month', intervalCount: seed.intervalCount ?? 1 },
        nickname: seed.nickname ?? null,
        metadata: seed.metadata ?? {},
        active: seed.active ?? true,
      });
      // A lookup key names one price at a time: seeding it again moves it, like `transfer_lookup_key`.
      for (const other of state.prices.values()) if (other.lookup_key === seed.lookupKey) other.lookup_key = null;
      state.prices.set(price.id, price);
      return structuredClone(price);
    },
    // Helpers hand out copies: the stored objects keep changing as the account moves on.
    completeCheckout: (sessionId, details) => structuredClone(billing.completeCheckout(sessionId, details)),
    advancePeriod: (subscriptionId) => structuredClone(billing.advancePeriod(subscriptionId)),
    failRenewal: (subscriptionId) => structuredClone(billing.failRenewal(subscriptionId)),
    recoverPayment: (subscriptionId) => structuredClone(billing.recoverPayment(subscriptionId)),
    cancelAtPeriodEnd: (subscriptionId) => structuredClone(billing.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true })),
    sign: (payload, timestamp) => events.sign(payload, timestamp),
    deliver,
    settled: () => deliveryQueue,
    stop: () => server.stop(),
  };
}

interface Answer {
  status: number;
  body: object;
  headers?: Record<string, string>;
}

function header(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function optional<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value === null ? {} : ({ [key]: value } as Record<K, string>);
}
