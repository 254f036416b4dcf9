// The dashboard as the live overview and the account page (issue 17, items 3 and 4), in headless Chromium against
// a local stack with nginx-rtmp: the way to a first stream ticked off, a live stream's health and uptime updating
// without a reload, Stop and Start from the dashboard; the account page's name and language, e-mail, password,
// devices, data download and closing the account through its e-mailed link. Screenshots on a desktop (1366 px) and
// a phone (390 px) in English, Russian and Ukrainian.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import type { Messages } from '../../web/src/i18n/catalogue';
import { languageByCode, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import { DynamoStreamHistory } from '../../lambdas/adapters/dynamo/stream-history-store';
import type { StreamEvent } from '../../lambdas/core/streams/history';
import { api, mailsTo, signedInUser, strongPassword, uniqueEmail } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { createStream, creatorWithDestination, type Creator } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { waitFor } from '../helpers/wait';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Messages;
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

const e2e = browserTestsOnStack({ rtmp: true }, 120_000);

const desktop: BrowserContextOptions = { viewport: { width: 1366, height: 900 } };
const phone: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const screens = [
  ['desktop', desktop],
  ['phone', phone],
] as const;

async function open(token: string, code: LanguageCode, path: string, options: BrowserContextOptions = desktop): Promise<Page> {
  const context = await e2e.signedInContext(e2e.stack, token, { ...options, locale: languageByCode(code).htmlLang });
  const page = await context.newPage();
  await page.goto(`${e2e.stack.urls.web}${localizePath(path, languageByCode(code))}`);
  return page;
}

/** Events in a stream's history as the lifecycle, the task API and the reconciler write them (through the same
 * store), so the dashboard has a week of incidents to show without a destination failing for real here (the API
 * tests of notifications do that). */
const remember = (userId: string, streamId: string, event: Omit<StreamEvent, 'at'>, minutesAgo: number) =>
  new DynamoStreamHistory(e2e.stack.deps.db, e2e.stack.config.tables.app).record(userId, streamId, {
    ...event,
    at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  });

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the dashboard', () => {
  test.each(['en', 'ru', 'ua'] as const)(
    '%s: a new creator sees the way to a first stream, with the next step as a button',
    async (code) => {
      const texts = catalogue(code);
      const user = await signedInUser(e2e.stack, `new-${code}`);
      for (const [screen, options] of screens) {
        const page = await open(user.token, code, '/app/dashboard', options);
        const problems = recordErrors(page, { console: true });
        await page.getByRole('heading', { level: 2, name: texts.dashboard.live.title }).waitFor();
        await page.getByText(texts.dashboard.incidents.none).waitFor();
        const empty = page.locator('.live-empty');
        await empty.getByText(texts.dashboard.live.emptyTitle).waitFor();
        await expect(empty.getAttribute('data-next')).resolves.toBe('video');
        const steps = empty.getByRole('list', { name: texts.dashboard.next.label }).getByRole('listitem');
        await expect(steps.allInnerTexts()).resolves.toEqual([
          texts.dashboard.next.video.title,
          texts.dashboard.next.destination.title,
          texts.dashboard.next.stream.title,
          texts.dashboard.next.start.title,
        ]);
        await page.locator('.plan-summary .usage-meter').nth(2).waitFor();
        await expect(page.locator('.plan-summary .usage-meter').count()).resolves.toBe(3);
        expect(await noSidewaysScroll(page)).toBe(0);
        await screenshot(page, `dashboard-empty-${code}-${screen}`);
        if (screen === 'desktop') {
          await page.getByRole('link', { name: texts.dashboard.next.video.action }).click();
          await page.getByRole('heading', { level: 1, name: texts.app.pages.videos.title }).waitFor();
        }
        expect(problems).toEqual([]);
      }
    },
    60_000,
  );

  describe('with a stream on air', () => {
    let ana: Creator;
    let streamId: string;
    beforeAll(async () => {
      ana = await creatorWithDestination(e2e.stack, 'ana');
      const stream = await createStream(e2e.stack, ana, { title: 'Lo-fi rain radio 24/7' });
      streamId = stream.body.id;
      await createStream(e2e.stack, ana, { title: 'Night drive synthwave' });
      expect((await api(e2e.stack, 'POST', `/streams/${streamId}/start`, { token: ana.token })).status).toBe(200);
      await waitForStreamStatus(e2e.stack, ana.token, streamId, 'started', 90_000);
      // Last night: media stopped reaching the destination for 6 minutes, the stream needed attention, recovered.
      await remember(ana.userId, streamId, { kind: 'interrupted', reason: 'service unavailable' }, 9 * 60);
      await remember(ana.userId, streamId, { kind: 'needs attention', reason: 'service unavailable' }, 9 * 60 - 5);
      await remember(ana.userId, streamId, { kind: 'live' }, 9 * 60 - 6);
      await remember(ana.userId, streamId, { kind: 'recovered', durationSeconds: 6 * 60 }, 9 * 60 - 6);
    }, 180_000);

    test.each(['en', 'ru', 'ua'] as const)(
      '%s: its health and uptime, live; a stopped one to start; no sideways scrolling',
      async (code) => {
        const texts = catalogue(code);
        for (const [screen, options] of screens) {
          const page = await open(ana.token, code, '/app/dashboard', options);
          const problems = recordErrors(page, { console: true });
          const row = page.locator(`.live-row[data-stream-id="${streamId}"]`);
          await row.getByRole('link', { name: 'Lo-fi rain radio 24/7', exact: true }).waitFor();
          await row.locator('[data-status="started"]').waitFor();
          await row.getByText(texts.streams.verdict.healthy).waitFor();
          // The uptime counts up on its own.
          const uptime = row.locator('[data-stat="uptime"]');
          const before = await uptime.innerText();
          await page.waitForFunction(([selector, was]) => document.querySelector(selector)?.textContent !== was, [
            `.live-row[data-stream-id="${streamId}"] [data-stat="uptime"]`,
            before,
          ] as const);
          await expect(page.locator('.stopped-row').getByText('Night drive synthwave').isVisible()).resolves.toBe(true);
          // The week's incidents, newest first, each with its length.
          const incidents = page.getByRole('list', { name: texts.dashboard.incidents.title }).getByRole('listitem');
          await incidents.first().waitFor();
          await expect(incidents.first().innerText()).resolves.toContain(texts.dashboard.incidents.kind.recovered);
          await expect(incidents.last().innerText()).resolves.toContain(texts.dashboard.incidents.kind.interrupted);
          await expect(incidents.last().innerText()).resolves.toContain(texts.errors['service unavailable']);
          expect(await noSidewaysScroll(page)).toBe(0);
          await screenshot(page, `dashboard-live-${code}-${screen}`);
          expect(problems).toEqual([]);
        }
      },
      90_000,
    );

    test('stopping elsewhere reaches the dashboard without a reload; Stop and Start work from it; Open shows the stream', async () => {
      const texts = catalogue('en');
      const page = await open(ana.token, 'en', '/app/dashboard');
      const problems = recordErrors(page, { console: true });
      const row = page.locator(`.live-row[data-stream-id="${streamId}"]`);
      await row.locator('[data-status="started"]').waitFor();
      await page.locator('[data-realtime="open"]').waitFor();
      // "Your plan": the streams running now follow starts and stops without a reload, as the live card does.
      const running = page.locator('.plan-summary [data-limit="streams"] .usage-meter__value');
      const runningNow = (used: number) =>
        waitFor(
          "the plan card's streams running now",
          () => running.innerText(),
          (text) => text === fill(texts.billing.usedOf, { used, limit: 1 }),
          10_000,
        );
      await runningNow(1);

      // A restart just now, then another device stops the stream: the realtime event moves it to the stopped ones
      // and brings the restart into the incidents, without a reload.
      const incidents = page.getByRole('list', { name: texts.dashboard.incidents.title }).getByRole('listitem');
      await incidents.first().waitFor();
      const before = await incidents.count();
      await remember(ana.userId, streamId, { kind: 'restarted' }, 0);
      expect((await api(e2e.stack, 'POST', `/streams/${streamId}/stop`, { token: ana.token })).status).toBe(200);
      await row.waitFor({ state: 'detached', timeout: 10_000 });
      await page.locator('.live-empty[data-next="start"]').waitFor();
      await runningNow(0);
      await waitFor(
        'the restart among the incidents',
        () => incidents.count(),
        (count) => count === before + 1,
        10_000,
      );
      await expect(incidents.first().innerText()).resolves.toContain(texts.dashboard.incidents.kind.restarted);

      // Start from the dashboard: it goes live here.
      await page.getByRole('button', { name: fill(texts.dashboard.live.startOne, { title: 'Lo-fi rain radio 24/7' }) }).click();
      await row.locator('[data-status="started"]').waitFor({ timeout: 60_000 });
      await row.getByText(texts.streams.verdict.healthy).waitFor({ timeout: 60_000 });
      await runningNow(1);

      // Open: the Streams page with its card in view.
      await row.getByRole('link', { name: fill(texts.dashboard.live.openOne, { title: 'Lo-fi rain radio 24/7' }) }).click();
      const card = page.locator(`#stream-${streamId}`);
      await card.waitFor();
      await page.waitForFunction((id) => document.activeElement?.id === id, `stream-${streamId}`);
      await expect(card.isVisible()).resolves.toBe(true);

      // Stop asks first, here in Russian on a phone: Escape keeps it on air.
      const ru = catalogue('ru');
      const phonePage = await open(ana.token, 'ru', '/app/dashboard', phone);
      await phonePage.getByRole('button', { name: fill(ru.dashboard.live.stopOne, { title: 'Lo-fi rain radio 24/7' }) }).click();
      const question = phonePage.getByRole('dialog', { name: fill(ru.streams.stop.title, { title: 'Lo-fi rain radio 24/7' }) });
      await question.getByText(ru.streams.stop.body).waitFor();
      expect(await noSidewaysScroll(phonePage)).toBe(0);
      await screenshot(phonePage, 'dashboard-stop-confirm-ru-phone');
      await phonePage.keyboard.press('Escape');
      await question.waitFor({ state: 'hidden' });
      expect((await api(e2e.stack, 'GET', `/streams/${streamId}`, { token: ana.token })).body.status).toBe('started');
      await phonePage.close();

      // And Stop from the dashboard, by keyboard: the dialog opens on "Keep streaming"; Tab, Enter stops.
      await page.goBack();
      const stopButton = page.getByRole('button', { name: fill(texts.dashboard.live.stopOne, { title: 'Lo-fi rain radio 24/7' }) });
      await stopButton.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: fill(texts.streams.stop.title, { title: 'Lo-fi rain radio 24/7' }) });
      await dialog.waitFor();
      await screenshot(page, 'dashboard-stop-confirm-en-desktop');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(texts.streams.stop.keep);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(texts.streams.stop.confirm);
      await page.keyboard.press('Enter');
      await row.waitFor({ state: 'detached', timeout: 15_000 });
      await runningNow(0);
      await waitForStreamStatus(e2e.stack, ana.token, streamId, 'stopped');
      expect(problems).toEqual([]);
    }, 120_000);
  });
});

describe('the account page', () => {
  test.each(['en', 'ru', 'ua'] as const)(
    '%s: every section, on a desktop and a phone',
    async (code) => {
      const texts = catalogue(code);
      const user = await signedInUser(e2e.stack, `lofi-${code}`);
      await api(e2e.stack, 'POST', '/login', {
        body: { email: user.email, password: strongPassword },
        headers: {
          'user-agent':
            'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        },
      });
      await api(e2e.stack, 'PATCH', '/account', { token: user.token, body: { displayName: 'Lofi Radio', language: code } });
      for (const [screen, options] of screens) {
        const page = await open(user.token, code, '/app/account', options);
        const problems = recordErrors(page, { console: true });
        await page.getByRole('heading', { level: 1, name: texts.app.pages.account.title }).waitFor();
        for (const title of [
          texts.account.profile.title,
          texts.account.email.title,
          texts.account.password.title,
          texts.account.devices.title,
          texts.account.data.title,
          texts.account.close.title,
        ]) {
          await page.getByRole('heading', { level: 2, name: title }).waitFor();
        }
        // The devices list is its own query: the section's heading shows before its rows do.
        const devices = page.locator('.device');
        await devices.nth(1).waitFor();
        await expect(devices.count()).resolves.toBe(2);
        await expect(devices.first().getByText(texts.account.devices.current).isVisible()).resolves.toBe(true);
        await expect(page.getByText(fill(texts.account.devices.browserOn, { browser: 'Safari', os: 'iOS' })).isVisible()).resolves.toBe(true);
        expect(await noSidewaysScroll(page)).toBe(0);
        await screenshot(page, `account-${code}-${screen}`);
        expect(problems).toEqual([]);
      }
    },
    60_000,
  );

  test('ua: a wrong current password is shown at its field; then the password changes and the other device is signed out', async () => {
    const texts = catalogue('ua');
    const user = await signedInUser(e2e.stack, 'olya');
    const other = (await api(e2e.stack, 'POST', '/login', { body: { email: user.email, password: strongPassword } })).body.token as string;
    const page = await open(user.token, 'ua', '/app/account');
    const problems = recordErrors(page, { console: 'except failed loads' });
    const section = page.locator('[data-section="password"]');
    await section.getByLabel(texts.account.currentPassword).fill('not my password at all');
    await section.getByLabel(texts.auth.fields.newPassword).fill('a much better passphrase 42');
    await section.getByRole('button', { name: texts.account.password.submit }).click();
    await section.getByText(texts.errors['wrong password']).waitFor();
    await expect(section.getByLabel(texts.account.currentPassword).getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'account-ua-wrong-password');

    await section.getByLabel(texts.account.currentPassword).fill(strongPassword);
    await section.getByRole('button', { name: texts.account.password.submit }).click();
    await section.getByText(fill(texts.account.password.changed_one, { count: 1 })).waitFor();
    expect((await api(e2e.stack, 'GET', '/me', { token: other })).status).toBe(401);
    expect((await api(e2e.stack, 'GET', '/me', { token: user.token })).status).toBe(200);
    // The other session's row leaves when the list is fetched again.
    await page.locator('.device').nth(1).waitFor({ state: 'detached' });
    await expect(page.locator('.device').count()).resolves.toBe(1);
    expect(problems).toEqual([]);
  }, 60_000);

  test('en: name and language saved (the page follows the language); sign out everywhere else; a new address waits for its link; the data downloads', async () => {
    const texts = catalogue('en');
    const user = await signedInUser(e2e.stack, 'rename');
    const other = (await api(e2e.stack, 'POST', '/login', { body: { email: user.email, password: strongPassword } })).body.token as string;
    const page = await open(user.token, 'en', '/app/account');
    const problems = recordErrors(page, { console: true });

    await page.getByRole('button', { name: texts.account.devices.signOutOthers }).click();
    await page.getByText(fill(texts.account.devices.othersSignedOut_one, { count: 1 })).waitFor();
    expect((await api(e2e.stack, 'GET', '/me', { token: other })).status).toBe(401);

    const newAddress = uniqueEmail('moved');
    const email = page.locator('[data-section="email"]');
    await email.getByLabel(texts.account.email.new).fill(newAddress);
    await email.getByLabel(texts.account.currentPassword).fill(strongPassword);
    await email.getByRole('button', { name: texts.account.email.submit }).click();
    await email.getByText(fill(texts.account.email.pendingStays, { email: user.email })).waitFor();
    expect((await mailsTo(e2e.stack, newAddress)).at(-1)?.link).toContain('/app/auth/change-email?token=');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: texts.account.data.download }).click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: string; account: { email: string } };
    expect(exported).toMatchObject({ format: 'loopcast-account-export/1', account: { email: user.email } });

    const profile = page.locator('[data-section="profile"]');
    await profile.getByLabel(texts.account.profile.name).fill('Lofi Girl');
    await profile.getByLabel(texts.account.profile.language).selectOption('ru');
    await profile.getByRole('button', { name: texts.account.profile.submit }).click();
    const ru = catalogue('ru');
    await page.getByRole('heading', { level: 1, name: ru.app.pages.account.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ru/app/account');
    await page.getByText(ru.account.profile.saved).waitFor();
    await expect(page.locator('.account-menu__name').first().innerText()).resolves.toBe('Lofi Girl');
    expect((await api(e2e.stack, 'GET', '/me', { token: user.token })).body.user).toMatchObject({ displayName: 'Lofi Girl', language: 'ru' });
    expect(problems).toEqual([]);
  }, 60_000);

  test('ru: the link to a new address switches the account, signed out too', async () => {
    const texts = catalogue('ru');
    const user = await signedInUser(e2e.stack, 'pereezd');
    await api(e2e.stack, 'PATCH', '/account', { token: user.token, body: { language: 'ru' } });
    const newAddress = uniqueEmail('pereezd');
    await api(e2e.stack, 'POST', '/account/email', { token: user.token, body: { email: newAddress, password: strongPassword } });
    const link = (await mailsTo(e2e.stack, newAddress)).at(-1)!.link;
    expect(new URL(link).pathname).toBe('/ru/app/auth/change-email');
    for (const [screen, options] of screens) {
      const context = await e2e.newContext({ ...options, locale: 'ru' });
      const page = await context.newPage();
      await page.goto(link.replace(new URL(link).origin, e2e.stack.urls.web));
      if (screen === 'desktop') await page.getByText(fill(texts.auth.changeEmail.done, { email: newAddress })).waitFor();
      else await page.getByText(texts.errors['invalid token']).waitFor();
      await screenshot(page, `account-ru-change-email-${screen === 'desktop' ? 'done' : 'used-link'}-${screen}`);
    }
    expect((await api(e2e.stack, 'GET', '/me', { token: user.token })).body.user.email).toBe(newAddress);
  }, 60_000);

  test('ua: closing the account: the e-mail, then the link page, then nothing is left and this browser is signed out', async () => {
    const texts = catalogue('ua');
    const user = await creatorWithDestination(e2e.stack, 'closer');
    await api(e2e.stack, 'PATCH', '/account', { token: user.token, body: { language: 'ua' } });
    const page = await open(user.token, 'ua', '/app/account');
    const problems = recordErrors(page, { console: true });
    const close = page.locator('[data-section="close"]');
    await close.getByLabel(texts.account.currentPassword).fill(strongPassword);
    await close.getByRole('button', { name: texts.account.close.submit }).click();
    await close.getByText(fill(texts.account.close.sent, { email: user.email })).waitFor();
    await screenshot(page, 'account-ua-close-requested');
    // Asking changed nothing yet.
    expect((await api(e2e.stack, 'GET', '/videos', { token: user.token })).body.videos).toHaveLength(1);

    const link = (await mailsTo(e2e.stack, user.email)).at(-1)!.link;
    expect(new URL(link).pathname).toBe('/ua/app/auth/close-account');
    await page.goto(link.replace(new URL(link).origin, e2e.stack.urls.web));
    await page.getByRole('heading', { level: 1, name: texts.auth.closeAccount.title }).waitFor();
    await screenshot(page, 'account-ua-close-link');
    await page.getByRole('button', { name: texts.auth.closeAccount.submit }).click();
    await page.getByText(texts.auth.closeAccount.done).waitFor();
    await screenshot(page, 'account-ua-closed');
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'auth_token')).toBeUndefined();
    expect((await api(e2e.stack, 'GET', '/me', { token: user.token })).status).toBe(401);
    expect((await api(e2e.stack, 'POST', '/login', { body: { email: user.email, password: strongPassword } })).body.error).toBe('invalid credentials');
    expect(problems).toEqual([]);
  }, 90_000);
});
