// Every public page in every language, in Chromium against the local stack: the translated heading, the page's
// language, no console error or CSP violation, the JavaScript it ships, and screenshots of the landing page.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { webBuildDir } from '../../local/paths';
import { legalPages, translatedPages } from '../../web/src/app/site-map';
import { languages, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import { browserTestsOnStack, recordErrors, screenshot, screenshotDir } from '../helpers/browser';

type Catalogue = {
  landing: { headline: string };
  pricing: { title: string };
  soon: { title: string };
  cookie: { accept: string };
  nav: { menu: string; pricing: string };
};
const catalogue = (code: LanguageCode) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;
/** Every message's key, as i18next shows a message it does not have: `pricing.limits.quality`. */
const keysOf = (tree: object, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([name, value]) =>
    typeof value === 'object' && value ? keysOf(value, `${prefix}${name}.`) : [`${prefix}${name}`.replace(/_(zero|one|two|few|many|other)$/, '')],
  );
const catalogueKeys = keysOf(catalogue('en')).filter((key) => key.includes('.'));

const headingOf: Record<(typeof translatedPages)[number], (c: Catalogue) => string> = {
  '/': (c) => c.landing.headline,
  '/pricing': (c) => c.pricing.title,
  '/soon': (c) => c.soon.title,
};
const legalTitles: Record<(typeof legalPages)[number], string> = {
  '/terms': 'Terms of Use',
  '/privacy': 'Privacy Policy',
  '/offer': 'Public Offer Agreement',
  '/refund-policy': 'Refund Policy',
};

const e2e = browserTestsOnStack();

/** A page that records console errors, page errors and CSP violations. */
async function watchedPage(locale = 'en-US', viewport = { width: 1280, height: 800 }) {
  const context = await e2e.newContext({ locale, viewport });
  const page = await context.newPage();
  return { page, problems: recordErrors(page, { console: true }), close: () => context.close() };
}

async function expectHeading(page: Page, text: string) {
  await expect(page.locator('h1').first().textContent()).resolves.toBe(text);
}

describe('public pages', () => {
  test.each(languages.flatMap((language) => translatedPages.map((page) => [localizePath(page, language), language.code, page] as const)))(
    '%s renders its heading in its language',
    async (path, code, page) => {
      const { page: tab, problems, close } = await watchedPage();
      const response = await tab.goto(`${e2e.stack.urls.web}${path}`);
      expect(response?.status()).toBe(200);
      expect(new URL(tab.url()).pathname).toBe(path);
      await expectHeading(tab, headingOf[page](catalogue(code)));
      expect(await tab.getAttribute('html', 'lang')).toBe(languages.find((l) => l.code === code)?.htmlLang);
      // A message missing from what the page was given shows as its key ("videos.quality.profile" on the plan cards).
      const text = await tab.locator('body').innerText();
      expect(catalogueKeys.filter((key) => text.includes(key))).toEqual([]);
      expect(problems).toEqual([]);
      await close();
    },
    30_000,
  );

  test.each(legalPages.map((page) => [page] as const))(
    '%s renders its English text, also from every prefixed address',
    async (page) => {
      const { page: tab, problems, close } = await watchedPage();
      for (const language of languages) {
        const response = await tab.goto(`${e2e.stack.urls.web}${language.prefix}${page}`);
        expect(response?.status()).toBe(200);
        expect(new URL(tab.url()).pathname).toBe(page);
        await expectHeading(tab, legalTitles[page]);
      }
      expect(problems).toEqual([]);
      await close();
    },
    30_000,
  );

  test('legal texts agree on the one refund rule and the required facts', async () => {
    const { page: tab, close } = await watchedPage();
    const text = async (path: string) => {
      await tab.goto(`${e2e.stack.urls.web}${path}`);
      return (await tab.locator('main').textContent()) ?? '';
    };
    const [terms, offer, refund, privacy] = [await text('/terms'), await text('/offer'), await text('/refund-policy'), await text('/privacy')];
    for (const document of [terms, offer, refund]) {
      expect(document).toContain('within 14 calendar days of a payment');
      expect(document).toContain('within 5 business days');
      expect(document).toContain('within 7 business days of approval');
      expect(document).not.toMatch(/within 3 days|within 7 days of payment/);
    }
    expect(refund).toContain('Effective April 17, 2025');
    expect(privacy).toContain('Last updated February 26, 2025');
    expect(terms).toContain('at least 16 years old');
    expect(terms).toContain('amounts you paid us in the 12 months');
    expect(terms).toContain('US dollars (USD)');
    expect(terms).toContain('suspend or terminate');
    expect(terms).toContain('delete your uploaded content at any time');
    await close();
  }, 30_000);

  test('with no support contact configured (this build), no page shows one: no placeholder, no support section or link', async () => {
    const { page: tab, close } = await watchedPage();
    const paths = [...languages.flatMap((language) => translatedPages.map((page) => localizePath(page, language))), ...legalPages];
    for (const path of paths) {
      await tab.goto(`${e2e.stack.urls.web}${path}`);
      const html = await tab.content();
      expect({ path, placeholder: html.match(/[\w.-]*example\.(com|org|net)|loopcast_support|mailto:/g) }).toEqual({ path, placeholder: null });
      await expect(tab.locator('#support, a[href$="#support"]').count()).resolves.toBe(0);
    }
    await tab.goto(`${e2e.stack.urls.web}/ru/pricing`);
    // The Custom plan has no contact to offer: its card has no button.
    await expect(tab.locator('#plan-custom').locator('xpath=..').locator('a').count()).resolves.toBe(0);
    await close();
  }, 60_000);

  test('a public page ships no framework JavaScript: one small inline script, well under 120 kB gzip', async () => {
    const { page: tab, close } = await watchedPage();
    const scripts: string[] = [];
    tab.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    await tab.goto(e2e.stack.urls.web);
    const inline = await tab.$$eval('script:not([src])', (elements) => elements.map((e) => e.textContent ?? ''));
    const external = scripts.map((url) => readFileSync(join(webBuildDir, new URL(url).pathname)));
    const gzipBytes = [...inline.map((s) => Buffer.from(s)), ...external].reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
    expect(scripts).toEqual([]);
    expect(inline).toHaveLength(1);
    expect(gzipBytes).toBeLessThan(120 * 1024);
    await close();
  }, 30_000);

  test.each([
    ['en', 'en-US'],
    ['hi', 'hi-IN'],
  ] as const)(
    'landing page screenshots (%s): desktop and mobile',
    async (code, locale) => {
      for (const [suffix, viewport] of [
        ['desktop', { width: 1366, height: 900 }],
        ['mobile', { width: 390, height: 844 }],
      ] as const) {
        const { page: tab, problems, close } = await watchedPage(locale, viewport);
        await tab.goto(
          `${e2e.stack.urls.web}${localizePath(
            '/',
            languages.find((l) => l.code === code)!,
          )}`,
        );
        await tab.getByRole('button', { name: catalogue(code).cookie.accept }).click();
        const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBe(0); // nothing wider than the screen
        await expect(tab.locator('#cookie-banner').isVisible()).resolves.toBe(false);
        await screenshot(tab, `public-landing-${code}-${suffix}`);
        // What a visitor sees first, and the pricing section, at screen size.
        await tab.screenshot({ path: join(screenshotDir, `public-landing-${code}-${suffix}-first-screen.png`) });
        await tab.locator('#pricing').scrollIntoViewIfNeeded();
        await tab.screenshot({ path: join(screenshotDir, `public-landing-${code}-${suffix}-pricing.png`) });
        if (suffix === 'mobile') {
          // The section links sit in a menu on narrow screens.
          const pricingLink = tab.locator('header').getByRole('link', { name: catalogue(code).nav.pricing });
          await expect(pricingLink.isVisible()).resolves.toBe(false);
          await tab.locator('summary', { hasText: catalogue(code).nav.menu }).click();
          await expect(pricingLink.isVisible()).resolves.toBe(true);
          await tab.screenshot({ path: join(screenshotDir, `public-landing-${code}-mobile-menu.png`) });
        }
        expect(problems).toEqual([]);
        await close();
      }
    },
    60_000,
  );
});
