// The plan page in Chromium against local stacks: the free trial with its usage against every limit on a server
// without payments, and with a fake Stripe: choosing a plan goes through Checkout and back, the result shows, and
// the plan changes on the open page when Stripe's webhook arrives (realtime, or polling while realtime is down).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { billingPeriods, periodPriceCents, plans, stripeLookupKey } from '../../lambdas/core/plans';
import type { LocalStack } from '../../local/stack';
import { languageByCode, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import type { Messages } from '../../web/src/i18n/catalogue';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe/server';
import { signedInUser } from '../helpers/accounts';
import { browserTests, recordErrors, screenshot } from '../helpers/browser';
import { startTestStack } from '../helpers/stack';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Messages;
const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name]));

let fake: FakeStripe;
let paying: LocalStack;
let unconfigured: LocalStack;
const e2e = browserTests({
  async start() {
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
    [paying, unconfigured] = await Promise.all([
      startTestStack({ web: true, stripe: { secretKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url } }),
      startTestStack({ web: true }),
    ]);
  },
  async stop() {
    await Promise.all([paying?.stop(), unconfigured?.stop()]);
    await fake?.stop();
  },
  timeoutMs: 60_000,
});

/** A signed-in page, under the local server's real Content-Security-Policy; `realtime: false` refuses /api/ws. */
async function signedInPage(stack: LocalStack, options: { realtime: boolean }) {
  const user = await signedInUser(stack, 'payer');
  const context = await e2e.signedInContext(stack, user.token, { viewport: { width: 1360, height: 900 }, realtime: options.realtime });
  const page = await context.newPage();
  return { user, page, pageErrors: recordErrors(page) };
}

const meterValue = (page: Page, limit: string) => page.locator(`[data-limit="${limit}"] .usage-meter__value`).textContent();

describe.each(['en', 'es'] as const)('the plan page on a server without payments, in %s', (code) => {
  const texts = catalogue(code);
  test('shows the free trial, its end, usage against every limit, and that payments are not set up', async () => {
    const { page, pageErrors } = await signedInPage(unconfigured, { realtime: false });
    await page.goto(`${unconfigured.urls.web}${localizePath('/app/billing', languageByCode(code))}`);
    await page.getByRole('heading', { level: 1, name: texts.app.pages.billing.title, exact: true }).waitFor();
    await page.locator('.billing[data-plan="trial"][data-state="trial"]').waitFor();
    await page.getByText(texts.billing.states.trial, { exact: true }).first().waitFor();
    await page.getByText(texts.billing.unavailable).waitFor();
    for (const limit of ['storage', 'streams', 'uploads', 'destinations', 'youtubeAccounts'] as const) {
      await page.getByText(texts.billing.limits[limit], { exact: true }).waitFor();
    }
    const used = (value: string, limit: string) => fill(texts.billing.usedOf, { used: value, limit });
    const bytes = (unit: 'kilobyte' | 'gigabyte', count: number) => new Intl.NumberFormat(languageByCode(code).htmlLang, { style: 'unit', unit }).format(count);
    await expect(meterValue(page, 'storage')).resolves.toBe(used(bytes('kilobyte', 0), bytes('gigabyte', 5)));
    await expect(meterValue(page, 'streams')).resolves.toBe(used('0', '1'));
    await expect(meterValue(page, 'uploads')).resolves.toBe(used('0', '5'));
    await page.locator('[data-limit="youtubeAccounts"] .usage-meter__value', { hasText: used('0', '1') }).waitFor();
    // Plans on sale, with the period switch and savings; buying is not possible here.
    const choosePro = page.getByRole('button', { name: fill(texts.billing.offers.choose, { plan: texts.pricing.plans.pro.name }) });
    await expect(choosePro.isDisabled()).resolves.toBe(true);
    await page.getByText(texts.pricing.periods.year).click();
    await page
      .getByText(
        fill(texts.pricing.youSave, { amount: new Intl.NumberFormat(languageByCode(code).htmlLang, { style: 'currency', currency: 'USD' }).format(74.97) }),
      )
      .waitFor();
    await page.getByText(texts.billing.payments.empty).waitFor();
    await screenshot(page, `app-billing-trial-${code}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `app-billing-trial-${code}-phone`);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

describe('the plan page with Stripe', () => {
  const texts = catalogue('en');
  const proName = texts.pricing.plans.pro.name;

  /** Chooses Pro monthly, pays on the fake's hosted checkout page and comes back; returns Stripe's events. */
  async function buyPro(page: Page) {
    const before = fake.events.length;
    await page.goto(`${paying.urls.web}/app/billing`);
    await page.locator('.billing[data-state="trial"]').waitFor();
    await page.getByRole('button', { name: fill(texts.billing.offers.choose, { plan: proName }) }).click();
    await page.waitForURL((at) => at.pathname === '/app/billing' && at.searchParams.has('checkout'));
    await page.getByText(texts.billing.checkout.paid).waitFor();
    return fake.events.slice(before);
  }

  async function deliver(events: FakeStripe['events']) {
    for (const event of events) expect((await fake.deliver(event, `${paying.urls.api}/billing/webhook`)).status).toBe(200);
  }

  test('checkout and back; the webhook changes the open page live; payments; Manage billing opens the portal and returns', async () => {
    const { page, pageErrors } = await signedInPage(paying, { realtime: true });
    const events = await buyPro(page);
    await page.locator('.app-shell[data-realtime="open"]').waitFor();
    await page.evaluate(() => ((window as { stillTheSamePage?: boolean }).stillTheSamePage = true));
    await deliver(events);

    await page.locator('.billing[data-plan="pro"][data-state="active"]').waitFor();
    await page.getByText(fill(texts.billing.checkout.active, { plan: proName })).waitFor();
    await page.getByText(texts.billing.offers.current).waitFor();
    await page.locator('.payments tbody tr').first().waitFor();
    await expect(page.locator('.payments tbody tr').first().textContent()).resolves.toContain('$24.99');
    await expect(meterValue(page, 'streams')).resolves.toBe(fill(texts.billing.usedOf, { used: '0', limit: '5' }));
    await expect(page.evaluate(() => (window as { stillTheSamePage?: boolean }).stillTheSamePage)).resolves.toBe(true);
    await screenshot(page, 'app-billing-pro-en');

    await page.getByRole('button', { name: texts.billing.checkout.dismiss }).click();
    expect(new URL(page.url()).searchParams.has('checkout')).toBe(false);
    await page.getByRole('button', { name: texts.billing.manage }).click();
    await page.waitForURL((at) => at.origin === new URL(paying.urls.web).origin && at.pathname === '/app/billing');
    await page.locator('.billing[data-plan="pro"]').waitFor();
    expect(pageErrors).toEqual([]);
  }, 90_000);

  test('while realtime is down the page polls, and still shows the new plan', async () => {
    const { page } = await signedInPage(paying, { realtime: true });
    await page.route('**/api/ws', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"service unavailable","message":"down"}' }),
    );
    const events = await buyPro(page);
    await page.locator('.app-shell[data-realtime="down"]').waitFor({ timeout: 30_000 });
    await page.getByText(texts.realtime.polling).waitFor();
    await deliver(events);
    await page.locator('.billing[data-plan="pro"][data-state="active"]').waitFor({ timeout: 30_000 });
  }, 90_000);
});
