// Stripe's error objects and statuses, surfacing as the stripe library's own error classes.
import Stripe from 'stripe';
import type { FakeStripe } from './server';
import { clientFor, startFakeWithClient } from './test-client';

let fake: FakeStripe;
let stripe: Stripe;
beforeAll(async () => ({ fake, stripe } = await startFakeWithClient()));
afterAll(() => fake.stop());

async function failure(call: Promise<unknown>): Promise<InstanceType<typeof Stripe.errors.StripeError>> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof Stripe.errors.StripeError)) throw new Error(`expected a StripeError, got ${String(error)}`);
  return error;
}

test('a wrong secret key is a 401 StripeAuthenticationError', async () => {
  const wrong = clientFor(fake, 'sk_test_not_the_right_key_1234');
  const error = await failure(wrong.customers.create({}));
  expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  expect(error.statusCode).toBe(401);
  // The real API types it invalid_request_error and masks the key.
  expect(error.rawType).toBe('invalid_request_error');
  expect(error.message).toMatch(/^Invalid API Key provided: sk_test_\*+1234$/);
});

test('an unknown object in the URL is a 404 resource_missing', async () => {
  const error = await failure(stripe.subscriptions.retrieve('sub_doesnotexist'));
  expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id', message: "No such subscription: 'sub_doesnotexist'" });
  expect(error.doc_url).toBe('https://stripe.com/docs/error-codes/resource-missing');
});

test('an unknown object in a parameter is a 400 naming the parameter', async () => {
  const error = await failure(
    stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: 'price_nope', quantity: 1 }], success_url: 'https://loopcast.test/ok' }),
  );
  expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'line_items[0][price]' });
});

test('a missing required parameter and an unknown one are 400 invalid_request_error', async () => {
  const missing = await failure(stripe.checkout.sessions.create({ line_items: [] }));
  expect(missing).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'parameter_missing', param: 'mode' });

  const unknown = await failure(stripe.customers.create({ email: 'x@example.com', nickname: 'x' } as Stripe.CustomerCreateParams));
  expect(unknown).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'nickname', message: 'Received unknown parameter: nickname' });
});

test('subscription mode needs a recurring price', async () => {
  const price = fake.seedPrice({ lookupKey: 'basic_month', unitAmount: 999 });
  const inactive = fake.seedPrice({ lookupKey: 'old_month', unitAmount: 499, active: false });
  const error = await failure(stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: inactive.id, quantity: 1 }] }));
  expect(error).toMatchObject({ statusCode: 400, param: 'line_items[0][price]' });
  await expect(stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }] })).resolves.toMatchObject({
    status: 'open',
  });
});

test('a canceled subscription cannot be changed or canceled again', async () => {
  const price = fake.seedPrice({ lookupKey: 'pro_month', unitAmount: 1999 });
  const session = await stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }] });
  const { subscription } = fake.completeCheckout(session.id);
  await stripe.subscriptions.cancel(subscription.id);

  const update = await failure(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }));
  expect(update).toMatchObject({ statusCode: 400, message: 'A canceled subscription can only update its cancellation_details and metadata.' });
  // Stripe treats a canceled subscription as deleted for a second cancel, yet still retrieves it.
  const again = await failure(stripe.subscriptions.cancel(subscription.id));
  expect(again).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  await expect(stripe.subscriptions.retrieve(subscription.id)).resolves.toMatchObject({ status: 'canceled' });
});

test('a property that is not expandable', async () => {
  const customer = await stripe.customers.create({});
  const error = await failure(stripe.customers.retrieve(customer.id, { expand: ['email'] }));
  expect(error).toMatchObject({ statusCode: 400, message: 'This property cannot be expanded (email).' });
});

test('an unrecognized URL', async () => {
  const error = await failure(stripe.rawRequest('GET', '/v1/no_such_things'));
  expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  expect(error.statusCode).toBe(404);
  expect(error.message).toMatch(/^Unrecognized request URL \(GET: \/v1\/no_such_things\)/);
});

test('every error carries the request id in its log URL', async () => {
  const error = await failure(stripe.invoices.retrieve('in_missing'));
  expect(error.requestId).toMatch(/^req_/);
  expect(error.request_log_url).toBe(`https://dashboard.stripe.com/test/logs/${error.requestId}`);
});
