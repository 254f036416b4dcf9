// Handler group "billing-webhook": Stripe's webhooks. Its own function and route, no session: the Stripe
// signature over the exact raw body is the only authentication.
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { countMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import * as billing from '../core/billing/billing';
import { AppError } from '../core/errors';
import { json, signedRoute } from './api';
import { billingContext } from '../wiring/billing';
import { createHttpHandler, type HttpHandler } from './handler';

/** Stripe's events are small; 1 MiB leaves room without inviting abuse. */
const MAX_EVENT_BYTES = 1024 * 1024;

const webhook = signedRoute({
  maxBodyBytes: MAX_EVENT_BYTES,
  async handle(request, deps) {
    const context = await billingContext(deps);
    if (!context.provider) throw new AppError('payment provider missing configuration');
    if (Buffer.byteLength(request.body) > MAX_EVENT_BYTES) throw new AppError('payload too large');
    let outcome: Awaited<ReturnType<typeof billing.applyBillingEvent>>;
    let event: ReturnType<typeof context.provider.verifyEvent>;
    try {
      event = context.provider.verifyEvent(request.body, request.headers['stripe-signature']);
      outcome = await billing.applyBillingEvent(context, event);
    } catch (error) {
      countMetric(metricNames.stripeWebhookFailures);
      throw error;
    }
    logger.info('billing event', { eventId: event.id, kind: event.kind, outcome });
    return json(200, { received: true, outcome });
  },
});

export const createBillingWebhookHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({ group: 'billing-webhook', deps, routes: { 'POST /api/billing/webhook': webhook } });

export const handler = createBillingWebhookHandler(depsFromEnvironment);
