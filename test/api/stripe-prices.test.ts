// `npm run stripe:prices` end to end against the fake Stripe: bin/stripe-prices.ts as a child process (dry run,
// --apply, exit codes, missing keys, the cost check against the data plane), the adapter and domain in process for a
// drifted price, and checkout through the API's own StripeProvider on prices made this way.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type Stripe from 'stripe';
import { stripeClient } from '../../lambdas/adapters/stripe/client';
import { StripePriceSync } from '../../lambdas/adapters/stripe/price-sync';
import { StripeProvider } from '../../lambdas/adapters/stripe/stripe-provider';
import { priceCatalog } from '../../lambdas/core/billing/price-catalog';
import { repoRoot } from '../../local/paths';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe/server';
import { clientFor } from '../fakes/stripe/test-client';
import { jest } from '@jest/globals';

// Each run of the tool is a fresh Node process compiling TypeScript with tsx: 1-2 s on an idle machine, up to ten
// times that while the rest of the suite loads both cores, and some tests run it five times.
jest.setTimeout(120_000);

const execFileAsync = promisify(execFile);

let fake: FakeStripe;
let stripe: Stripe;
beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = clientFor(fake);
});
afterAll(() => fake?.stop());

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run stripe:prices -- ...` as a child process; `env` replaces every STRIPE_* variable of ours. */
async function stripePrices(args: string[], env: Record<string, string> = { STRIPE_SECRET_KEY: fake.apiKey, STRIPE_API_URL: fake.url }): Promise<CliResult> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STRIPE_')));
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', join(repoRoot, 'bin', 'stripe-prices.ts'), ...args], {
      cwd: repoRoot,
      env: { ...inherited, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const lookupKeys = priceCatalog().map((price) => price.lookupKey);
const pricesByKey = async () => new Map((await stripe.prices.list({ lookup_keys: lookupKeys, limit: 100 })).data.map((price) => [price.lookup_key, price]));

/** The cost check passes on the external data plane with a fleet of 200 (docs/costs.md); Pro still loses money at
 * full use there, which is a warning only. */
const profitable = ['--plane', 'external', '--streams', '200'];
const fullUseWarning =
  'stripe:prices: WARNING: 4 prices lose money when every destination and the whole storage allowance are used on the external data plane: loopcast_pro_month, loopcast_pro_3months, loopcast_pro_6months, loopcast_pro_year\n';

describe('the cost check against the data plane', () => {
  test('on Fargate (the default) every price is below cost: the dry run warns loudly and goes on', async () => {
    const result = await stripePrices(['--local']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Cost check on the fargate data plane: a fleet of 25 streams at 6 Mbit/s');
    expect(result.stdout).toMatch(/^loopcast_basic_month\s+8\.99\s+0\.76\s+\d+\.\d\d\s+-\d+\.\d\d\s+-\d+\.\d\d\s+BELOW COST$/m);
    expect(result.stderr).toContain("stripe:prices: WARNING: 8 of 8 prices are below their plan's cost on the fargate data plane: loopcast_basic_month,");
    expect(result.stderr).toContain('--apply will refuse them.');
    expect(result.stdout).toContain('8 prices: 0 ok, 8 to create, 0 to replace.');
  });

  test('--apply refuses prices below cost with exit 4, before asking Stripe anything', async () => {
    const before = fake.calls.length;
    const result = await stripePrices(['--local', '--apply']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("stripe:prices: refusing to apply: 8 of 8 prices are below their plan's cost on the fargate data plane");
    expect(result.stderr).toContain('pass --allow-below-cost to sell at a loss knowingly');
    expect(result.stdout).not.toContain('Stripe prices for');
    expect(fake.calls.length).toBe(before);
  });

  test("the data plane and the fleet are the operator's to give; a wrong one is a usage error", async () => {
    const small = await stripePrices(['--local', '--plane', 'external', '--streams', '1']);
    expect(small.stdout).toContain('Cost check on the external data plane: a fleet of 1 streams at 6 Mbit/s');
    expect(small.stderr).toContain("8 of 8 prices are below their plan's cost on the external data plane");
    const wrongPlane = await stripePrices(['--local', '--plane', 'ec2']);
    expect(wrongPlane.code).toBe(2);
    expect(wrongPlane.stderr).toContain('--plane "ec2" is not one of fargate, external');
    const wrongFleet = await stripePrices(['--local', '--streams', 'many']);
    expect(wrongFleet.code).toBe(2);
    expect(wrongFleet.stderr).toContain('--streams "many" is not a whole number of at least 1');
  });
});

describe('npm run stripe:prices', () => {
  test('an empty account: the dry run lists eight prices to create and exits 1, changing nothing', async () => {
    const result = await stripePrices(['--local', ...profitable]);
    expect(result).toMatchObject({ code: 1, stderr: fullUseWarning });
    expect(result.stdout).toMatch(/^loopcast_pro_year\s.*below cost at full use$/m);
    expect(result.stdout).toContain(`Stripe prices for --local (${fake.url}), test mode key, dry run:`);
    expect(result.stdout).toMatch(/^loopcast_basic_month\s+8\.99 USD\s+every 1 month\s+create$/m);
    expect(result.stdout).toMatch(/^loopcast_pro_year\s+224\.91 USD\s+every 1 year\s+create$/m);
    expect(result.stdout).toContain('8 prices: 0 ok, 8 to create, 0 to replace.');
    expect(fake.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  test('--apply creates the eight prices under two products; a second run finds nothing to do', async () => {
    const applied = await stripePrices(['--local', '--apply', ...profitable]);
    expect(applied.stderr).toBe(fullUseWarning);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^created product prod_\w+ \(Loopcast Basic, loopcast_plan=basic\)$/m);
    expect(applied.stdout).toMatch(/^created loopcast_pro_6months: price_\w+ on prod_\w+$/m);
    expect(applied.stdout).toContain('Done: 8 of 8 prices changed.');

    const products = (await stripe.products.list({ limit: 100 })).data;
    expect(products.map((product) => [product.name, product.metadata]).sort()).toEqual([
      ['Loopcast Basic', { loopcast_plan: 'basic' }],
      ['Loopcast Pro', { loopcast_plan: 'pro' }],
    ]);
    const prices = await pricesByKey();
    expect(prices.size).toBe(8);
    for (const wanted of priceCatalog()) {
      const price = prices.get(wanted.lookupKey);
      const product = products.find((each) => each.metadata.loopcast_plan === wanted.plan);
      expect(price).toMatchObject({
        active: true,
        currency: 'usd',
        unit_amount: wanted.unitAmount,
        recurring: { interval: wanted.recurring.interval, interval_count: wanted.recurring.intervalCount },
        product: product?.id,
        metadata: { plan: wanted.plan, period: wanted.period },
      });
    }
    expect(prices.get('loopcast_pro_3months')?.nickname).toBe('Loopcast Pro, every 3 months');

    const again = await stripePrices(['--local', ...profitable]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('8 prices: all match lambdas/core/plans.ts.');
    // Selling at a loss on purpose (a test-mode account on Fargate): applied, with the warning.
    const applyAgain = await stripePrices(['--local', '--apply', '--allow-below-cost']);
    expect(applyAgain.code).toBe(0);
    expect(applyAgain.stderr).toContain("8 of 8 prices are below their plan's cost on the fargate data plane");
    expect(applyAgain.stderr).toContain('(applied anyway: --allow-below-cost)');
    expect((await stripe.products.list({ limit: 100 })).data).toHaveLength(2);
    expect((await stripe.prices.list({ limit: 100 })).data).toHaveLength(8);
  });

  test('a price with the wrong amount is replaced: the lookup key moves to the new price, the old one is archived', async () => {
    // Made by hand in the dashboard, on a product of its own: seeding takes the lookup key over.
    const drifted = fake.seedPrice({ lookupKey: 'loopcast_basic_month', unitAmount: 999, productName: 'Basic (by hand)' });
    const sync = new StripePriceSync(stripeClient({ secretKey: fake.apiKey, apiUrl: fake.url }));

    const plan = await sync.plan();
    expect(plan.filter((action) => action.kind !== 'ok')).toEqual([
      expect.objectContaining({ kind: 'replace', existing: expect.objectContaining({ id: drifted.id }), differences: ['amount 9.99 USD → 8.99 USD'] }),
    ]);
    const dryRun = await stripePrices(['--local', ...profitable]);
    expect(dryRun.code).toBe(1);
    expect(dryRun.stdout).toMatch(
      new RegExp(`^loopcast_basic_month\\s+8\\.99 USD\\s+every 1 month\\s+replace ${drifted.id}: amount 9\\.99 USD → 8\\.99 USD$`, 'm'),
    );

    const result = await sync.apply(plan);
    expect(result.createdProducts).toEqual([]);
    const replaced = result.actions.find((action) => action.kind === 'replaced');
    expect(replaced).toMatchObject({ lookupKey: 'loopcast_basic_month', oldPriceId: drifted.id, oldDeactivated: true });
    const basicProduct = (await stripe.products.list({ limit: 100 })).data.find((product) => product.metadata.loopcast_plan === 'basic');
    expect((await pricesByKey()).get('loopcast_basic_month')).toMatchObject({
      id: replaced?.priceId,
      unit_amount: 899,
      active: true,
      product: basicProduct?.id,
    });
    expect(await stripe.prices.retrieve(drifted.id)).toMatchObject({ active: false, lookup_key: null, unit_amount: 999 });
    expect(fake.calls.filter((call) => call.method === 'POST').slice(-2)).toEqual([
      expect.objectContaining({ path: '/v1/prices', params: expect.objectContaining({ lookup_key: 'loopcast_basic_month', transfer_lookup_key: 'true' }) }),
      expect.objectContaining({ path: `/v1/prices/${drifted.id}`, params: { active: 'false' } }),
    ]);
    expect((await sync.plan()).map((action) => action.kind)).toEqual(Array(8).fill('ok'));
  });

  test("checkout through the API's StripeProvider sells the prices the tool made", async () => {
    const provider = new StripeProvider({ secretKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url });
    const priceId = await provider.priceFor('pro', '3months');
    expect(priceId).toBe((await pricesByKey()).get('loopcast_pro_3months')?.id);
    const customerId = await provider.createCustomer({ id: 'user-prices', email: 'prices@example.com', displayName: 'Prices' });
    const checkout = await provider.createCheckout({
      customerId,
      priceId: priceId!,
      userId: 'user-prices',
      plan: 'pro',
      period: '3months',
      successUrl: 'https://loopcast.test/app/billing?session={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://loopcast.test/app/billing',
    });
    const { subscription, invoice } = fake.completeCheckout(checkout.id);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 6747 });
    const mirrored = await provider.subscription(subscription.id);
    expect(mirrored).toMatchObject({ plan: 'pro', period: '3months', status: 'active' });
    const months = (Date.parse(mirrored.currentPeriodEnd) - Date.parse(mirrored.currentPeriodStart)) / (30.44 * 86_400_000);
    expect(Math.round(months)).toBe(3);
  });

  test('usage and key errors exit 2 with a clear message; a refused key exits 3', async () => {
    const noKey = await stripePrices(['--local'], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('STRIPE_SECRET_KEY is not set');
    const noTarget = await stripePrices(['--apply']);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('give either --stage <stage> or --local');
    expect(noTarget.stderr).toContain('Usage: npm run stripe:prices');
    const both = await stripePrices(['--local', '--stage', 'prod']);
    expect(both.code).toBe(2);
    const unknown = await stripePrices(['--local', '--force']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--force'");
    const wrongKey = await stripePrices(['--local'], { STRIPE_SECRET_KEY: 'sk_test_not_the_fakes_key_000000', STRIPE_API_URL: fake.url });
    expect(wrongKey.code).toBe(3);
    expect(wrongKey.stderr).toContain('Stripe refused the key: Invalid API Key provided');
  });
});
