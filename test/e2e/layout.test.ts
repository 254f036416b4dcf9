// Layouts that broke in some languages or on phones (issue 17): the pricing grid in Russian and Ukrainian at
// laptop and desktop widths (the Custom card was cut off and the page scrolled sideways), and the app on a phone,
// whose navigation took a quarter of every screen with "Sign out" as its loudest control.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { languageByCode, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import type { Messages } from '../../web/src/i18n/catalogue';
import { signedInUser } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot, screenshotDir } from '../helpers/browser';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Messages;

const e2e = browserTestsOnStack();

/** How far the page, and each plan card's content, reach past their boxes (0 when everything fits). */
const overflows = (page: Page) =>
  page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    cards: [...document.querySelectorAll<HTMLElement>('.plan')].map((card) => card.scrollWidth - card.clientWidth),
    cardsOutside: [...document.querySelectorAll<HTMLElement>('.plan')].filter(
      (card) => card.getBoundingClientRect().right > document.documentElement.clientWidth,
    ).length,
  }));

describe.each(['ru', 'ua'] as const)('pricing in %s', (code) => {
  test.each([1024, 1280, 1536])(
    'at %i px the four plans fit, side by side or two by two, with their rows aligned',
    async (width) => {
      const context = await e2e.newContext({ viewport: { width, height: 900 }, locale: languageByCode(code).htmlLang });
      const page = await context.newPage();
      const problems = recordErrors(page, { console: true });
      for (const path of ['/pricing', '/']) {
        await page.goto(`${e2e.stack.urls.web}${localizePath(path, languageByCode(code))}`);
        await page.evaluate(() => {
          document.getElementById('cookie-banner')?.remove();
          // The sticky header would cover the top of the section's screenshot.
          document.querySelector<HTMLElement>('.site-header')?.style.setProperty('position', 'static');
        });
        expect(await overflows(page)).toEqual({ page: 0, cards: [0, 0, 0, 0], cardsOutside: 0 });
        const custom = await page.locator('.plan', { has: page.locator('#plan-custom') }).boundingBox();
        expect(custom!.x + custom!.width).toBeLessThanOrEqual(width);
        // Cards in one row share their rows: the actions and the limits start at the same height.
        const tops = await page.$$eval('.plan', (cards) =>
          cards.map((card) => ({
            card: Math.round(card.getBoundingClientRect().top),
            action: Math.round(card.querySelector('.plan__action')!.getBoundingClientRect().top),
            limits: Math.round(card.querySelector('.plan__limits')!.getBoundingClientRect().top),
          })),
        );
        const perRow = width >= 1200 ? 4 : 2;
        expect(new Set(tops.map((top) => top.card)).size).toBe(4 / perRow);
        for (let row = 0; row < 4; row += perRow) {
          const cards = tops.slice(row, row + perRow);
          expect(new Set(cards.map((top) => top.action)).size).toBe(1);
          expect(new Set(cards.map((top) => top.limits)).size).toBe(1);
        }
        // What every plan has is listed once, under the cards.
        await expect(page.locator('.plans-shared').getByText(catalogue(code).pricing.everyPlanIncludes).isVisible()).resolves.toBe(true);
        await expect(page.locator('.plan .plan__feature').count()).resolves.toBe(4);
        await page.locator('.pricing').screenshot({ path: join(screenshotDir, `pricing-${code}-${path === '/' ? 'landing' : 'page'}-${width}.png`) });
      }
      expect(problems).toEqual([]);
    },
    60_000,
  );
});

describe('the app on a phone (390 px)', () => {
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

  test.each(['ru', 'en'] as const)(
    '%s: a slim top bar, the pages as a bottom tab bar, the account behind the avatar',
    async (code) => {
      const texts = catalogue(code);
      const language = languageByCode(code);
      const user = await signedInUser(e2e.stack, 'Phone');
      const context = await e2e.signedInContext(e2e.stack, user.token, phone);
      const page = await context.newPage();
      const problems = recordErrors(page);
      await page.goto(`${e2e.stack.urls.web}${localizePath('/app/streams', language)}`);
      const title = page.getByRole('heading', { level: 1, name: texts.app.pages.streams.title });
      await title.waitFor();

      // The page starts right under a bar of at most 64 px; the tab bar sits at the bottom edge of the screen.
      const bar = (await page.locator('.app-shell__sidebar').boundingBox())!;
      expect(bar.height).toBeLessThanOrEqual(64);
      expect((await title.boundingBox())!.y).toBeLessThan(bar.height + 40);
      const tabs = page.getByRole('navigation', { name: texts.app.navLabel });
      const tabsBox = (await tabs.boundingBox())!;
      expect(Math.round(tabsBox.y + tabsBox.height)).toBe(844);
      expect(tabsBox.height).toBeLessThanOrEqual(72);
      for (const page_ of ['dashboard', 'streams', 'channels', 'videos', 'billing', 'notifications'] as const) {
        // Named by the full title for screen readers, showing the short tab label.
        await expect(tabs.getByRole('link', { name: texts.app.pages[page_].title }).isVisible()).resolves.toBe(true);
        await expect(tabs.locator('.app-nav__tab', { hasText: texts.app.pages[page_].tab }).first().isVisible()).resolves.toBe(true);
      }
      const current = await tabs.getByRole('link', { name: texts.app.pages.streams.title }).getAttribute('aria-current');
      expect(current).toBe('page');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

      // Signing out is in the account panel, not on the page.
      const signOut = page.getByRole('button', { name: texts.auth.signOut });
      await expect(signOut.isVisible()).resolves.toBe(false);
      await screenshot(page, `app-mobile-${code}-streams`);
      const avatar = page.getByRole('button', { name: texts.app.accountMenu });
      await avatar.click();
      await expect(avatar.getAttribute('aria-expanded')).resolves.toBe('true');
      await page.getByText(user.email).waitFor();
      await expect(signOut.isVisible()).resolves.toBe(true);
      await page.screenshot({ path: join(screenshotDir, `app-mobile-${code}-account-open.png`) });
      await page.keyboard.press('Escape');
      await expect(signOut.isVisible()).resolves.toBe(false);
      await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).resolves.toBe('app-account');

      // A tab opens its page (and an open panel closes on the way).
      await avatar.click();
      await tabs.getByRole('link', { name: texts.app.pages.channels.title }).tap();
      await page.getByRole('heading', { level: 1, name: texts.app.pages.channels.title }).waitFor();
      await expect(signOut.isVisible()).resolves.toBe(false);
      expect(new URL(page.url()).pathname).toBe(localizePath('/app/channels', language));
      await screenshot(page, `app-mobile-${code}-channels`);
      expect(problems).toEqual([]);
    },
    60_000,
  );

  test('on a desktop the sidebar is unchanged: full titles, who is signed in and "Sign out" in view, no avatar button', async () => {
    const texts = catalogue('ua');
    const user = await signedInUser(e2e.stack, 'Desk');
    const context = await e2e.signedInContext(e2e.stack, user.token, { viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${e2e.stack.urls.web}/ua/app/dashboard`);
    await page.getByText(user.email).waitFor();
    await expect(page.getByRole('button', { name: texts.auth.signOut }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: texts.app.accountMenu }).isVisible()).resolves.toBe(false);
    await expect(
      page.getByRole('navigation', { name: texts.app.navLabel }).getByText(texts.app.pages.billing.title, { exact: true }).isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, 'app-desktop-ua-dashboard');
    // Another language from the sidebar: the same page, translated by that language's i18next instance, in place.
    await page.evaluate(() => ((window as { samePage?: boolean }).samePage = true));
    await page.locator('select[data-language-switcher]').selectOption('ru');
    await page.getByRole('heading', { level: 1, name: catalogue('ru').dashboard.greeting.replace('{{name}}', 'Desk') }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ru/app/dashboard');
    await expect(page.getAttribute('html', 'lang')).resolves.toBe('ru');
    await expect(page.evaluate(() => (window as { samePage?: boolean }).samePage)).resolves.toBe(true);
  }, 60_000);
});
