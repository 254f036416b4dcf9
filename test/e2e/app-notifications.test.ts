// The Notifications page in Chromium, against a local stack whose Telegram is the fake Bot API of
// test/fakes/telegram (its webhook set as the operator does): reached from the app's navigation (the sidebar, and the
// tab bar at 390 px); e-mail alerts turned off and on; "Link Telegram" opens the bot's one-time deep link, says how
// long it works, and the page turns "linked" by itself once the creator presses Start in Telegram (the fake delivers
// "/start <token>" to our webhook); the bot answers in the account's language; unlinking. A server without a bot
// says so and offers no button. English, Russian and Ukrainian at 1366 and 390 px.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { LocalStack } from '../../local/stack';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/server';
import { api, signedInUser } from '../helpers/accounts';
import { browserTests, recordErrors, screenshot } from '../helpers/browser';
import { startTestStack } from '../helpers/stack';

type Catalogue = {
  app: { pages: { notifications: { title: string; tab: string } } };
  notifications: {
    email: { label: string; off: string; onTo: string };
    telegram: { link: string; unlink: string; unavailable: string; openAgain: string; linkedToast: string; expires_other: string; expires_many?: string };
  };
};
const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;
const en = catalogue('en');

const TIME_ZONE = 'Europe/Kyiv';
const desktop = { viewport: { width: 1366, height: 900 } };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const webhookSecret = randomBytes(24).toString('hex');
let telegram: FakeTelegram;
let stack: LocalStack;
let plainStack: LocalStack;

const e2e = browserTests({
  start: async () => {
    telegram = await startFakeTelegram();
    [stack, plainStack] = await Promise.all([
      startTestStack({ web: true, telegram: { botToken: telegram.botToken, botUsername: telegram.botUsername, webhookSecret, apiBase: telegram.apiBase } }),
      startTestStack({ web: true }),
    ]);
    // The operator's one-time step (docs/deploy.md): the bot's webhook, with its secret.
    await fetch(`${telegram.apiBase}/bot${telegram.botToken}/setWebhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${stack.urls.api}/telegram/webhook`, secret_token: webhookSecret }),
    });
  },
  stop: async () => {
    await Promise.all([stack?.stop(), plainStack?.stop()]);
    await telegram?.stop();
  },
  timeoutMs: 120_000,
});

async function signedInPage(
  on: LocalStack,
  token: string,
  locale: string,
  size: typeof desktop | typeof phone,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await e2e.signedInContext(on, token, { locale, timezoneId: TIME_ZONE, ...size });
  const page = await context.newPage();
  return { context, page, problems: recordErrors(page, { console: 'except failed loads' }) };
}

const telegramCard = (page: Page) => page.locator('[data-channel="telegram"]');

describe('the Notifications page', () => {
  test("from the navigation: e-mail alerts off and on; Telegram linked through the bot's deep link, the page following by itself; unlinked", async () => {
    const user = await signedInUser(stack, 'alerts', { language: 'ua' });
    const { context, page, problems } = await signedInPage(stack, user.token, 'en-US', desktop);
    await page.goto(`${stack.urls.web}/app/streams`);
    await page.getByRole('navigation').getByRole('link', { name: en.app.pages.notifications.title }).click();
    await page.waitForURL('**/app/notifications');
    await page.getByRole('heading', { level: 1, name: en.app.pages.notifications.title }).waitFor();

    // E-mail alerts: on by default, to the account's address; off and on again, as the API keeps it.
    const email = page.getByRole('switch', { name: en.notifications.email.label });
    expect(await email.isChecked()).toBe(true);
    await page.getByText(en.notifications.email.onTo.replace('{{email}}', user.email)).waitFor();
    await email.click();
    await page.getByText(en.notifications.email.off).waitFor();
    expect((await api(stack, 'GET', '/notifications', { token: user.token })).body.email).toBe(false);
    await email.click();
    await page.getByText(en.notifications.email.onTo.replace('{{email}}', user.email)).waitFor();
    expect((await api(stack, 'GET', '/notifications', { token: user.token })).body.email).toBe(true);

    // Link Telegram: the deep link opens in a new tab (Telegram's app on a phone) and the page says how long it works.
    // This machine has no way out to t.me: the browser is given a stand-in page there.
    await context.route('https://t.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Telegram</title>' }));
    const opened = context.waitForEvent('page');
    await page.getByRole('button', { name: en.notifications.telegram.link }).click();
    const telegramTab = await opened;
    await telegramTab.waitForURL(/^https:\/\/t\.me\//);
    const deepLink = new URL(telegramTab.url());
    expect(`${deepLink.origin}${deepLink.pathname}`).toBe(`https://t.me/${telegram.botUsername}`);
    const startToken = deepLink.searchParams.get('start')!;
    expect(startToken).toMatch(/^[A-Za-z0-9_-]{20,64}$/);
    await telegramTab.close();
    expect(await telegramCard(page).getAttribute('data-linking')).toBe('waiting');
    await telegramCard(page)
      .getByText(/^The link works once, for 10 more minutes \(until \d{1,2}:\d{2} [AP]M\)\.$/)
      .waitFor();
    expect(await telegramCard(page).getByRole('link', { name: en.notifications.telegram.openAgain }).getAttribute('href')).toBe(deepLink.href);
    await screenshot(page, 'notifications-telegram-waiting-en-1366');

    // The creator presses Start in Telegram: the page turns linked without a reload; the bot answers in Ukrainian.
    expect(await telegram.userSends(4242, `/start ${startToken}`)).toBe(200);
    await page.getByText(en.notifications.telegram.linkedToast).waitFor({ timeout: 15_000 });
    const linked = (await api(stack, 'GET', '/notifications', { token: user.token })).body.telegram;
    expect(linked).toMatchObject({ available: true, linked: true });
    // The day the API says the chat was linked, as the page's language and time zone write it.
    const linkedDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: TIME_ZONE }).format(new Date(linked.linkedAt));
    await telegramCard(page).getByText(`Linked on ${linkedDay}: alerts also go to your Telegram chat.`, { exact: true }).waitFor();
    expect(telegram.messages.at(-1)).toEqual({ chatId: '4242', text: expect.stringContaining('Прив’язано до облікового запису Loopcast користувача alerts') });
    await screenshot(page, 'notifications-telegram-linked-en-1366');

    // Unlinking gives the button back.
    await telegramCard(page).getByRole('button', { name: en.notifications.telegram.unlink }).click();
    await telegramCard(page).getByRole('button', { name: en.notifications.telegram.link }).waitFor();
    expect((await api(stack, 'GET', '/notifications', { token: user.token })).body.telegram.linked).toBe(false);
    expect(problems).toEqual([]);
  });

  test.each([
    ['en', '', 'en-US'],
    ['ru', '/ru', 'ru-RU'],
    ['ua', '/ua', 'uk-UA'],
  ] as const)('in %s at 390 px from the tab bar, and at 1366 px, while a link waits and once linked', async (code, prefix, locale) => {
    const words = catalogue(code);
    const user = await signedInUser(stack, `alerts-${code}`, { language: code });
    const { context: phoneContext, page: phonePage, problems } = await signedInPage(stack, user.token, locale, phone);
    await phoneContext.route('https://t.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Telegram</title>' }));
    await phonePage.goto(`${stack.urls.web}${prefix}/app/streams`);
    const tab = phonePage.getByRole('link', { name: words.app.pages.notifications.title });
    expect(await tab.textContent()).toContain(words.app.pages.notifications.tab);
    // Six tabs now: every short label fits its cell, none cut off with an ellipsis.
    const cut = await phonePage
      .locator('.app-nav__tab')
      .evaluateAll((labels) => labels.filter((label) => label.scrollWidth > label.clientWidth).map((label) => label.textContent));
    expect(cut).toEqual([]);
    await tab.click();
    await phonePage.getByRole('heading', { level: 1, name: words.app.pages.notifications.title }).waitFor();
    await phonePage.getByRole('button', { name: words.notifications.telegram.link }).click();
    await telegramCard(phonePage).getByRole('link', { name: words.notifications.telegram.openAgain }).waitFor();
    const expires = (words.notifications.telegram.expires_many ?? words.notifications.telegram.expires_other).replace('{{count}}', '10').split(' (')[0]!;
    expect(await telegramCard(phonePage).textContent()).toContain(expires);
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phonePage, `notifications-telegram-waiting-${code}-390`);

    const { page: desktopPage } = await signedInPage(stack, user.token, locale, desktop);
    await desktopPage.goto(`${stack.urls.web}${prefix}/app/notifications`);
    await desktopPage.getByRole('button', { name: words.notifications.telegram.link }).waitFor();
    await screenshot(desktopPage, `notifications-${code}-1366`);

    // Linked from the phone's link: the phone page follows by polling; the desktop page when it is focused again.
    const link = new URL((await telegramCard(phonePage).getByRole('link', { name: words.notifications.telegram.openAgain }).getAttribute('href'))!);
    expect(await telegram.userSends(5000 + code.length, `/start ${link.searchParams.get('start')}`)).toBe(200);
    await telegramCard(phonePage).getByRole('button', { name: words.notifications.telegram.unlink }).waitFor({ timeout: 15_000 });
    await screenshot(phonePage, `notifications-telegram-linked-${code}-390`);
    // Coming back to the tab (react-query refetches on visibilitychange to visible).
    await desktopPage.bringToFront();
    await desktopPage.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await telegramCard(desktopPage).getByRole('button', { name: words.notifications.telegram.unlink }).waitFor({ timeout: 15_000 });
    await screenshot(desktopPage, `notifications-telegram-linked-${code}-1366`);
    expect(problems).toEqual([]);
  });

  test('a server without a Telegram bot says so and offers no button; e-mail alerts still work', async () => {
    const user = await signedInUser(plainStack, 'nobot');
    for (const [code, prefix, locale] of [
      ['en', '', 'en-US'],
      ['ru', '/ru', 'ru-RU'],
    ] as const) {
      const words = catalogue(code);
      const { page, problems } = await signedInPage(plainStack, user.token, locale, desktop);
      await page.goto(`${plainStack.urls.web}${prefix}/app/notifications`);
      await telegramCard(page).getByText(words.notifications.telegram.unavailable).waitFor();
      expect(await telegramCard(page).getByRole('button').count()).toBe(0);
      expect(await page.getByRole('switch', { name: words.notifications.email.label }).isChecked()).toBe(true);
      await screenshot(page, `notifications-no-telegram-${code}-1366`);
      expect(problems).toEqual([]);
    }
    expect((await api(plainStack, 'POST', '/notifications/telegram', { token: user.token })).body).toMatchObject({ error: 'telegram not configured' });
  });
});
