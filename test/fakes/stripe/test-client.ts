// The real stripe library pointed at the fake, as the fake's own tests use it.
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe, type FakeStripeOptions } from './server';

/** The real client for `fake`, with its key or `apiKey`; no retries, so what the fake answers is what a test sees. */
export function clientFor(fake: FakeStripe, apiKey = fake.apiKey): Stripe {
  return new Stripe(apiKey, { ...fake.clientOptions, maxNetworkRetries: 0 });
}

/** A fake started with `options`, and a client for it. */
export async function startFakeWithClient(options?: FakeStripeOptions): Promise<{ fake: FakeStripe; stripe: Stripe }> {
  const fake = await startFakeStripe(options);
  return { fake, stripe: clientFor(fake) };
}
