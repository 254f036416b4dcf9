// A stream's own page in Chromium, with a real history: a stream made in the form with a one-minute attention time,
// started to a local nginx-rtmp destination that then goes down for longer than that. The reconciler (driven here,
// as it runs every minute anyway) finds it needing attention: the card and the page say so at once, amber, since
// when; the destination comes back, the badge goes, the stream is stopped; the page's timeline shows each event in
// plain words (the outage with its length and the task's own words as details, the incident and the recovery with
// theirs), newest first, and the uptime. English, Russian and Ukrainian at 1366 and 390 px; another user's stream
// and an unknown one are not found.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { reconcileStreams } from '../../lambdas/core/streams/reconcile';
import { streamsContext } from '../../lambdas/wiring/streams';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import { api, signedInUser, strongPassword } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { waitFor } from '../helpers/wait';

type Catalogue = {
  auth: { fields: { email: string; password: string }; login: { submit: string } };
  app: { pages: { streams: { title: string } } };
  streams: {
    new: string;
    attention: { badge: string };
    form: { attentionMinutes: string; attentionHelp: string; create: string };
    page: { notFoundTitle: string; allStreams: string };
    history: { uptimeTitle: string; timelineTitle: string; empty: string; event: Record<string, { title: string }> };
    card: { history: string };
    stop: { title: string; body: string; confirm: string };
  };
};
const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;
const en = catalogue('en');

const TIME_ZONE = 'Europe/Kyiv';
const desktop = { viewport: { width: 1366, height: 900 } };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const languages = [
  { code: 'en', prefix: '', locale: 'en-US' },
  { code: 'ru', prefix: '/ru', locale: 'ru-RU' },
  { code: 'ua', prefix: '/ua', locale: 'uk-UA' },
] as const;

const e2e = browserTestsOnStack({}, 120_000);

let nginx: NginxRtmp;
let rtmpPort: number;
let hlsPort: number;
const nginxDir = mkdtempSync(join(tmpdir(), 'loopcast-stream-page-rtmp-'));
const startDestination = () => startNginxRtmp({ dir: nginxDir, rtmpPort, hlsPort, logFile: join(nginxDir, 'nginx.log') });
beforeAll(async () => {
  [rtmpPort, hlsPort] = [await freePort(), await freePort()];
  nginx = await startDestination();
});
afterAll(() => nginx.stop());

const reconcile = () => reconcileStreams(streamsContext(e2e.stack.deps));

async function pageFor(token: string, language: (typeof languages)[number], size: typeof desktop | typeof phone) {
  const context = await e2e.signedInContext(e2e.stack, token, { locale: language.locale, timezoneId: TIME_ZONE, ...size });
  const page = await context.newPage();
  return { page, problems: recordErrors(page, { console: 'except failed loads' }) };
}

/** Reconciles until the page shows what the test waits for (the stack's own reconciler may get there first). */
async function reconcileUntil(page: Page, selector: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.locator(selector).count())) {
    if (Date.now() > deadline) throw new Error(`the page did not show ${selector} within ${timeoutMs} ms`);
    await reconcile();
    await page.waitForTimeout(3_000);
  }
}

const timelineKinds = (page: Page) => page.locator('.stream-event').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));

describe("a stream's page", () => {
  test('made in the form with a one-minute attention time; its destination down: needs attention on the card and the page, then recovered; the history in plain words', async () => {
    const user = await signedInUser(e2e.stack, 'history');
    const videoId = await uploadWithTus(e2e.stack, user.token, (await makeClip({ seconds: 4 })).bytes, {
      filename: 'rain.mp4',
      filetype: 'video/mp4',
      kind: 'video',
    });
    const video = await waitForItem(e2e.stack, user.token, videoId);
    expect(video).toMatchObject({ status: 'ready' });
    const key = `history-${randomBytes(4).toString('hex')}`;
    expect((await api(e2e.stack, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'Own server', url: nginx.rtmpUrl, key } })).status).toBe(201);

    const { page, problems } = await pageFor(user.token, languages[0], desktop);
    await page.goto(`${e2e.stack.urls.web}/app/streams`);
    await page.getByRole('heading', { level: 1, name: en.app.pages.streams.title }).waitFor();
    await page.getByRole('button', { name: en.streams.new }).click();
    await page.getByLabel('Title').fill('Rain at night');
    await page.getByLabel('Video', { exact: true }).selectOption({ label: video.title });
    await page.getByRole('checkbox', { name: /Own server/ }).check();
    const attention = page.getByLabel(en.streams.form.attentionMinutes);
    expect(await attention.inputValue()).toBe('5');
    expect(await attention.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByText(en.streams.form.attentionHelp).waitFor();
    await attention.fill('1');
    await page.getByRole('button', { name: en.streams.form.create }).click();

    const card = page.locator('[data-stream-id]').filter({ has: page.getByRole('heading', { level: 2, name: 'Rain at night' }) });
    await card.locator('[data-status="stopped"]').waitFor();
    const streamId = (await card.getAttribute('data-stream-id'))!;
    expect((await api(e2e.stack, 'GET', `/streams/${streamId}`, { token: user.token })).body).toMatchObject({ attentionMinutes: 1, needsAttention: false });

    await card.getByRole('button', { name: 'Start' }).click();
    await card.locator('[data-status="started"]').waitFor({ timeout: 60_000 });
    await card.locator('[data-verdict="healthy"]').waitFor({ timeout: 45_000 });
    expect(await card.locator('[data-attention]').count()).toBe(0);

    // The destination goes away for longer than the attention time.
    await nginx.stop();
    await waitForStreamStatus(e2e.stack, user.token, streamId, 'pending', 60_000);
    await reconcileUntil(page, '[data-stream-id] [data-attention]', 150_000);
    const badge = card.locator('[data-attention]');
    expect(await badge.textContent()).toBe(en.streams.attention.badge);
    // Amber, not the red of a failure.
    expect(await badge.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 231, 184)');
    const since = card.locator('.stream-attention__title');
    expect(await since.textContent()).toMatch(/^Needs attention since \d{1,2}:\d{2}\s[AP]M$/);
    await screenshot(page, 'streams-needs-attention-en-1366');

    // The card's title leads to the stream's page, where alert e-mails lead too.
    await card.getByRole('link', { name: 'Rain at night' }).click();
    await page.waitForURL(`**/app/streams/${streamId}`);
    await page.getByRole('heading', { level: 1, name: 'Rain at night' }).waitFor();
    await page.locator('[data-attention]').waitFor();
    await page.locator('.stream-event[data-kind="needs attention"][data-ongoing]').waitFor();
    expect(await page.locator('.stream-event[data-kind="needs attention"] .stream-event__length').textContent()).toBe(' · still going on');
    for (const language of languages) {
      for (const [size, width] of [
        [desktop, 1366],
        [phone, 390],
      ] as const) {
        const view = language.code === 'en' && size === desktop ? page : (await pageFor(user.token, language, size)).page;
        if (view !== page) {
          await view.goto(`${e2e.stack.urls.web}${language.prefix}/app/streams/${streamId}`);
          await view.locator('[data-attention]').waitFor();
          await view.locator('.stream-event[data-kind="needs attention"]').waitFor();
          expect(await view.locator('[data-attention]').textContent()).toBe(catalogue(language.code).streams.attention.badge);
        }
        await screenshot(view, `stream-page-attention-${language.code}-${width}`);
      }
    }

    // Back: the stream goes live again and recovers; the page follows without a reload.
    nginx = await startDestination();
    await page.locator('[data-status="started"]').waitFor({ timeout: 90_000 });
    await waitFor(
      'a healthy heartbeat',
      async () => (await api(e2e.stack, 'GET', `/streams/${streamId}`, { token: user.token })).body.verdict,
      (verdict) => verdict === 'healthy',
      60_000,
    );
    await reconcileUntil(page, '.stream-event[data-kind="recovered"]', 60_000);
    await page.locator('[data-attention]').waitFor({ state: 'detached' });
    // Stop asks first on the stream's page too (it is on air).
    await page.getByRole('button', { name: 'Stop' }).click();
    const confirm = page.getByRole('dialog', { name: en.streams.stop.title.replace('{{title}}', 'Rain at night') });
    await confirm.getByText(en.streams.stop.body).waitFor();
    await screenshot(page, 'stream-page-stop-confirm-en-1366');
    await confirm.getByRole('button', { name: en.streams.stop.confirm }).click();
    await page.locator('[data-status="stopped"]').waitFor({ timeout: 30_000 });
    await page.locator('.stream-event[data-kind="stopped"]').waitFor();

    // The timeline, newest first, in plain words.
    expect(await timelineKinds(page)).toEqual(['stopped', 'recovered', 'live', 'needs attention', 'interrupted', 'live', 'started']);
    const event = (kind: string) => page.locator(`.stream-event[data-kind="${kind}"]`);
    expect(await event('stopped').locator('.stream-event__title').textContent()).toBe(en.streams.history.event.stoppedByYou!.title);
    // Lengths as "1 min 5 sec", "24 sec": more than the one-minute attention time off air.
    const minutes = String.raw`\d+ min( \d+ sec)?`;
    expect(await event('interrupted').locator('.stream-event__title').textContent()).toMatch(new RegExp(`^Interrupted · off air for ${minutes}$`));
    expect(await event('needs attention').locator('.stream-event__title').textContent()).toMatch(
      new RegExp(`^Needs attention · lasted (${minutes}|\\d+ sec)$`),
    );
    expect(await event('recovered').locator('.stream-event__body').textContent()).toMatch(new RegExp(`^Back to normal after ${minutes} with problems`));
    // What the task said is a detail under the plain words.
    expect(await event('interrupted').locator('.stream-event__detail').textContent()).toMatch(/^Technical details: .+/);
    expect(await page.locator('.stream-event__time').first().textContent()).toMatch(/^\d{1,2}:\d{2}\s[AP]M$/);
    await page.getByRole('heading', { level: 3, name: 'Today' }).waitFor();

    // Uptime: it ran the whole time in the last day, on air for part of it.
    const day = await page.locator('[data-window="day"] .stream-uptime__value').textContent();
    expect(day).toMatch(/^\d{1,2}(\.\d)?%$/);
    expect(Number(day!.replace('%', ''))).toBeLessThan(100);
    for (const window of ['week', 'month']) expect(await page.locator(`[data-window="${window}"] .stream-uptime__value`).textContent()).toBe(day);
    const history = (await api(e2e.stack, 'GET', `/streams/${streamId}/history`, { token: user.token })).body;
    expect(day).toBe(`${Math.floor(history.uptime.day * 1000) / 10}%`);

    for (const language of languages) {
      for (const [size, width] of [
        [desktop, 1366],
        [phone, 390],
      ] as const) {
        const view = language.code === 'en' && size === desktop ? page : (await pageFor(user.token, language, size)).page;
        if (view !== page) {
          await view.goto(`${e2e.stack.urls.web}${language.prefix}/app/streams/${streamId}`);
          await view.locator('.stream-event[data-kind="recovered"]').waitFor();
          const words = catalogue(language.code).streams.history;
          expect(await view.locator('.stream-event[data-kind="stopped"] .stream-event__title').textContent()).toBe(words.event.stoppedByYou!.title);
          expect(await view.getByRole('heading', { level: 2, name: words.uptimeTitle }).count()).toBe(1);
          // No sideways scrolling.
          expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }
        await screenshot(view, `stream-page-history-${language.code}-${width}`);
      }
    }
    expect(problems).toEqual([]);
  }, 420_000);

  test("another user's stream and an unknown one are not found, with the way back to the streams", async () => {
    const owner = await signedInUser(e2e.stack, 'owner');
    const created = await api(e2e.stack, 'POST', '/streams', { token: owner.token, body: { title: 'Mine only', channelIds: [] } });
    expect(created.status).toBe(201);
    const stream = created.body;
    const other = await signedInUser(e2e.stack, 'other');
    for (const language of [languages[0], languages[2]]) {
      const { page, problems } = await pageFor(other.token, language, language.code === 'en' ? desktop : phone);
      const words = catalogue(language.code).streams.page;
      for (const id of [stream.id, 'no-such-stream']) {
        await page.goto(`${e2e.stack.urls.web}${language.prefix}/app/streams/${id}`);
        await page.getByRole('heading', { level: 1, name: words.notFoundTitle }).waitFor();
        expect(await page.getByText('Mine only').count()).toBe(0);
      }
      await screenshot(page, `stream-page-not-found-${language.code}-${language.code === 'en' ? 1366 : 390}`);
      await page.locator('[data-not-found] a').click();
      await page.waitForURL(`**${language.prefix}/app/streams`);
      expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
    }
  });

  test("an alert e-mail's link opened signed out: the login page, then the stream's page in the e-mail's language", async () => {
    const user = await signedInUser(e2e.stack, 'mailed', { language: 'ru' });
    const stream = (await api(e2e.stack, 'POST', '/streams', { token: user.token, body: { title: 'Ночной эфир', channelIds: [] } })).body;
    const ru = catalogue('ru');
    const page = await (await e2e.newContext({ locale: 'ru-RU', ...phone })).newPage();
    // The link as the alert e-mail writes it: `${publicUrl}/<lang>/app/streams/<id>`.
    await page.goto(`${e2e.stack.urls.web}/ru/app/streams/${stream.id}`);
    await page.waitForURL((at) => at.pathname === '/ru/app/auth/login');
    await page.getByLabel(ru.auth.fields.email).fill(user.email);
    await page.getByLabel(ru.auth.fields.password, { exact: true }).fill(strongPassword);
    await page.getByRole('button', { name: ru.auth.login.submit, exact: true }).click();
    await page.waitForURL((at) => at.pathname === `/ru/app/streams/${stream.id}`);
    await page.getByRole('heading', { level: 1, name: 'Ночной эфир' }).waitFor();
    await page.getByText(ru.streams.history.empty).waitFor();
  });
});
