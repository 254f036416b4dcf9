// The one way Loopcast makes a Stripe client: the API, the support tool and the prices tool alike.
import Stripe from 'stripe';

export interface StripeConnection {
  secretKey: string;
  /** Another API host (tests and `--local` point the real client at a fake Stripe); Stripe's own when absent. */
  apiUrl?: string;
}

export function stripeClient({ secretKey, apiUrl }: StripeConnection): Stripe {
  const api = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(api ? { host: api.hostname, port: Number(api.port), protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
}
