// What a creator is told, in Chromium against a local stack with its nginx-rtmp test destination (issue 17): the
// catalogue's messages as the API gives them, with what to do next beside them; limits shown before they block;
// a video or destination that streams use, protected with a warning; a stream whose video was deleted; destinations
// renamed and given a new key, duplicates refused; the sign-up's password rules. Screenshots of every state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { languageByCode, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import type { Messages } from '../../web/src/i18n/catalogue';
import { api, mailsTo, signedInUser, uniqueEmail } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { holdTranscodes, type HeldTranscodes } from '../helpers/held-transcodes';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { waitFor } from '../helpers/wait';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Messages;
const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name]));
/** A plural text as i18next picks it for `count` (the catalogue's `_one`/`_few`/... forms). */
const plural = (code: LanguageCode, forms: Record<string, string>, count: number) =>
  forms[new Intl.PluralRules(languageByCode(code).htmlLang).select(count)] ?? forms.other!;
const formsOf = (section: Record<string, unknown>, base: string) =>
  Object.fromEntries(
    Object.entries(section)
      .filter(([key]) => key.startsWith(`${base}_`))
      .map(([key, text]) => [key.slice(base.length + 1), text as string]),
  );

const e2e = browserTestsOnStack({ rtmp: true }, 120_000);
let transcodes: HeldTranscodes;
beforeAll(() => {
  transcodes = holdTranscodes(e2e.stack);
});

const desktop = { viewport: { width: 1360, height: 900 } };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function open(
  token: string,
  code: LanguageCode,
  path: string,
  heading: string,
  options: { viewport: { width: number; height: number }; isMobile?: boolean } = desktop,
) {
  const context = await e2e.signedInContext(e2e.stack, token, options);
  const page = await context.newPage();
  const problems = recordErrors(page, { console: 'except failed loads' });
  await page.goto(`${e2e.stack.urls.web}${localizePath(path, languageByCode(code))}`);
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  return { page, problems };
}

async function readyVideo(token: string, name: string): Promise<string> {
  const clip = await makeClip({ seconds: 2 });
  const videoId = await uploadWithTus(e2e.stack, token, clip.bytes, { filename: name, filetype: 'video/mp4', kind: 'video' });
  expect((await waitForItem(e2e.stack, token, videoId)).status).toBe('ready');
  return videoId;
}

const card = (page: Page, title: string) => page.locator('.stream-card').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });

describe('uploads', () => {
  test('ru: the limit shows before it blocks; used up, the zone says why and what to do; files that fail give their upload back', async () => {
    const texts = catalogue('ru');
    const user = await signedInUser(e2e.stack, 'uploads');
    transcodes.hold(user.userId);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(
          await uploadWithTus(e2e.stack, user.token, Buffer.from(`not a video ${i}`), { filename: `broken-${i}.mp4`, filetype: 'video/mp4', kind: 'video' }),
        );
      const { page, problems } = await open(user.token, 'ru', '/app/videos', texts.app.pages.videos.title);
      const uploads = page.locator('[data-limit="uploads"]');
      await uploads.locator('.usage-meter__value', { hasText: fill(texts.billing.usedOf, { used: 5, limit: 5 }) }).waitFor();
      // Used up is a warning (amber), not an alarm.
      await expect(uploads.getAttribute('class')).resolves.toContain('usage-meter--full');
      const zone = page.locator('.drop-zone--blocked[data-refusal="video upload limit"]');
      await zone.getByText(texts.errors['video upload limit']).waitFor();
      await zone.getByText(texts.videos.blocked.uploads).waitFor();
      await expect(page.getByRole('button', { name: texts.videos.upload.choose }).count()).resolves.toBe(0);
      await screenshot(page, 'next-uploads-used-up-ru');

      // The five were not videos: once they fail, the uploads come back and the zone opens again, live.
      expect((await transcodes.ended(ids[0]!)).type).toBe('failed');
      await transcodes.release(user.userId);
      await page.locator('.video-card[data-status="failed"]').nth(4).waitFor({ timeout: 60_000 });
      await uploads.locator('.usage-meter__value', { hasText: fill(texts.billing.usedOf, { used: 0, limit: 5 }) }).waitFor();
      await page.getByRole('button', { name: texts.videos.upload.choose }).waitFor();
      await page.locator('.video-card').first().getByText(texts.videos.failed.unreadable).waitFor();
      await page.locator('.video-card').first().getByText(texts.errors['uploader encode error']).waitFor();
      await screenshot(page, 'next-uploads-failed-given-back-ru');
      expect(problems).toEqual([]);
    } finally {
      await transcodes.release(user.userId);
    }
  }, 120_000);
});

describe('what streams use', () => {
  test('ua: deleting a video a stream plays says so; the stream then says its video was deleted and offers to choose one', async () => {
    const texts = catalogue('ua');
    const user = await signedInUser(e2e.stack, 'protect');
    const videoId = await readyVideo(user.token, 'Дощ.mp4');
    const channel = await api(e2e.stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Тестовий сервер', url: e2e.stack.urls.rtmp!, key: `protect-${user.userId.slice(0, 8)}` },
    });
    await api(e2e.stack, 'POST', '/streams', { token: user.token, body: { title: 'Лофі під дощ', videoId, channelIds: [channel.body.id] } });

    const { page, problems } = await open(user.token, 'ua', '/app/videos', texts.app.pages.videos.title);
    await page
      .locator('.video-card')
      .getByRole('button', { name: `${texts.videos.delete.button}: Дощ` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(fill(plural('ua', formsOf(texts.videos.delete, 'usedByStoppedVideo'), 1), { streams: '«Лофі під дощ»' })).waitFor();
    await screenshot(page, 'next-delete-video-in-use-ua');
    await dialog.getByRole('button', { name: texts.videos.delete.confirm }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    await page.getByRole('navigation', { name: texts.app.navLabel }).getByRole('link', { name: texts.app.pages.streams.title }).click();
    const stream = card(page, 'Лофі під дощ');
    await stream.getByText(texts.streams.card.videoDeleted).waitFor();
    await expect(stream.getByRole('button', { name: texts.streams.card.start }).count()).resolves.toBe(0);
    await screenshot(page, 'next-stream-video-deleted-ua');
    await stream.getByRole('button', { name: texts.streams.card.chooseVideo }).click();
    await page.getByRole('heading', { level: 2, name: fill(texts.streams.form.editTitle, { title: 'Лофі під дощ' }) }).waitFor();
    expect(problems).toEqual([]);
  }, 120_000);

  test('en: a second stream on the trial names the limit on streams at once and the running stream; a live destination keeps its key', async () => {
    const texts = catalogue('en');
    const user = await signedInUser(e2e.stack, 'limits');
    const videoId = await readyVideo(user.token, 'rain.mp4');
    const key = `limits-${user.userId.slice(0, 8)}`;
    const channel = await api(e2e.stack, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'Local test server', url: e2e.stack.urls.rtmp!, key } });
    const second = await api(e2e.stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Backup server', url: e2e.stack.urls.rtmp!, key: `${key}-b` },
    });
    const live = await api(e2e.stack, 'POST', '/streams', { token: user.token, body: { title: 'Rain radio', videoId, channelIds: [channel.body.id] } });
    await api(e2e.stack, 'POST', '/streams', { token: user.token, body: { title: 'Study beats', videoId, channelIds: [second.body.id] } });
    await api(e2e.stack, 'POST', `/streams/${live.body.id}/start`, { token: user.token });
    try {
      await waitForStreamStatus(e2e.stack, user.token, live.body.id, 'started');
      const { page, problems } = await open(user.token, 'en', '/app/streams', texts.app.pages.streams.title);
      const study = card(page, 'Study beats');
      await study.getByRole('button', { name: texts.streams.card.start }).click();
      await study.getByText(texts.errors['stream limit']).waitFor();
      await study.getByText(fill(plural('en', formsOf(texts.streams.next, 'streamLimit'), 1), { count: 1, streams: '“Rain radio”' })).waitFor();
      await screenshot(page, 'next-stream-limit-en');

      // The form shows the plan's streams at once before anything is refused.
      await page.getByRole('button', { name: texts.streams.new }).click();
      await page
        .locator('.stream-form__plan[data-full]')
        .getByText(fill(plural('en', formsOf(texts.streams.form, 'planStreams'), 1), { count: 1, running: 1 }))
        .waitFor();
      await page.getByRole('button', { name: texts.streams.form.cancel }).click();

      // The live stream's destination: renaming is fine, its server and key wait until the stream stops.
      await page.getByRole('navigation', { name: texts.app.navLabel }).getByRole('link', { name: texts.app.pages.channels.title }).click();
      const destination = page.locator('.dest-card', { has: page.getByRole('heading', { name: 'Local test server' }) });
      await destination.getByRole('button', { name: fill(texts.channels.edit.title, { name: 'Local test server' }) }).click();
      await destination.getByText(fill(plural('en', formsOf(texts.channels.edit, 'liveAddress'), 1), { streams: '“Rain radio”' })).waitFor();
      await expect(destination.getByLabel(texts.channels.edit.newKey).isDisabled()).resolves.toBe(true);
      await destination.getByLabel(texts.channels.rtmp.name).fill('Local nginx');
      await destination.getByRole('button', { name: texts.channels.edit.save }).click();
      await page.locator('.dest-card', { has: page.getByRole('heading', { name: 'Local nginx' }) }).waitFor();

      // Deleting it is held back with the stream's name.
      const renamed = page.locator('.dest-card', { has: page.getByRole('heading', { name: 'Local nginx' }) });
      await renamed.getByRole('button', { name: fill(texts.channels.deleteTitle, { name: 'Local nginx' }) }).click();
      await renamed.getByText(fill(plural('en', formsOf(texts.channels.inUse, 'live'), 1), { streams: '“Rain radio”' })).waitFor();
      await expect(renamed.getByRole('button', { name: texts.channels.deleteConfirm }).isDisabled()).resolves.toBe(true);
      await screenshot(page, 'next-destination-in-use-en');

      // Billing: one of one stream and destination used is normal, not red.
      await page.getByRole('navigation', { name: texts.app.navLabel }).getByRole('link', { name: texts.app.pages.billing.title }).click();
      await page
        .locator('[data-limit="streams"].usage-meter--ok .usage-meter__value', { hasText: fill(texts.billing.usedOf, { used: 1, limit: 1 }) })
        .waitFor();
      await page
        .locator('[data-limit="destinations"].usage-meter--ok .usage-meter__value', { hasText: fill(texts.billing.usedOf, { used: 1, limit: 1 }) })
        .waitFor();
      await expect(page.locator('.usage-meter--over').count()).resolves.toBe(0);
      await screenshot(page, 'next-billing-full-not-red-en');
      expect(problems).toEqual([]);
    } finally {
      await api(e2e.stack, 'POST', `/streams/${live.body.id}/stop`, { token: user.token });
      await waitForStreamStatus(e2e.stack, user.token, live.body.id, 'stopped');
    }
  }, 120_000);
});

describe('destinations', () => {
  test('es: rename and a new key from the card; a duplicate is refused at its field with what to do (desktop and phone)', async () => {
    const texts = catalogue('es');
    const user = await signedInUser(e2e.stack, 'dest');
    await api(e2e.stack, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'Twitch', url: 'rtmp://live.twitch.tv/app', key: 'live_1_abcdWXYZ' } });
    const { page, problems } = await open(user.token, 'es', '/app/channels', texts.app.pages.channels.title);
    const twitch = page.locator('.dest-card', { has: page.getByRole('heading', { name: 'Twitch' }) });
    await twitch.getByRole('button', { name: fill(texts.channels.edit.title, { name: 'Twitch' }) }).click();
    await twitch.getByText(fill(texts.channels.edit.keepKey, { hint: '••••WXYZ' })).waitFor();
    await twitch.getByLabel(texts.channels.rtmp.name).fill('Twitch principal');
    await twitch.getByLabel(texts.channels.edit.newKey).fill('live_2_newKEY9');
    await screenshot(page, 'next-destination-edit-es');
    await twitch.getByRole('button', { name: texts.channels.edit.save }).click();
    const saved = page.locator('.dest-card', { has: page.getByRole('heading', { name: 'Twitch principal' }) });
    await saved.getByText('••••KEY9').waitFor();

    // The same server and key again, under another name: refused at the key, with what to do.
    const form = page.locator('.dest-form').last();
    await form.getByRole('radio', { name: texts.channels.rtmp.custom }).check();
    await form.getByLabel(texts.channels.rtmp.name, { exact: true }).fill('Copia');
    await form.getByLabel(texts.channels.serverUrl).fill('rtmp://live.twitch.tv/app/');
    await form.getByLabel(texts.channels.streamKey, { exact: true }).fill('live_2_newKEY9');
    await form.getByRole('button', { name: texts.channels.rtmp.submit }).click();
    await form.getByText(texts.errors['duplicate destination']).waitFor();
    await form.getByText(texts.channels.duplicate.key).waitFor();
    await expect(form.getByLabel(texts.channels.streamKey, { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'next-destination-duplicate-es');
    expect(problems).toEqual([]);

    const small = await open(user.token, 'es', '/app/channels', texts.app.pages.channels.title, phone);
    await small.page
      .locator('.dest-card')
      .first()
      .getByRole('button', { name: fill(texts.channels.edit.title, { name: 'Twitch principal' }) })
      .click();
    await expect(small.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBe(0);
    await screenshot(small.page, 'next-destination-edit-es-phone');
  }, 120_000);
});

describe('sign-up', () => {
  test('ua: the password rule that failed, the common-password rule the server checks; an address that has an account is not revealed', async () => {
    const texts = catalogue('ua');
    const context = await e2e.newContext(desktop);
    const page = await context.newPage();
    await page.goto(`${e2e.stack.urls.web}/ua/app/auth/register`);
    const existing = await signedInUser(e2e.stack, 'taken');
    await page.locator('#displayName').fill('Лофі');
    await page.getByLabel(texts.auth.fields.email).fill(uniqueEmail('signup'));
    const password = page.getByLabel(texts.auth.fields.password, { exact: true });
    await password.fill('aaaaabbbbb');
    await page.locator('#acceptTerms').check();
    await page.locator('#ageConfirmed').check();
    const submit = page.getByRole('button', { name: texts.auth.register.submit });
    await submit.click();
    const passwordError = page.locator('#password-error');
    await passwordError.getByText(texts.errors['weak password']).waitFor();
    await passwordError.getByText(fill(texts.auth.hints.weakDistinct, { minimum: 4 })).waitFor();

    // Passes every rule the browser checks: the server's common-password rule refused it.
    await password.fill('password123');
    await submit.click();
    await passwordError.getByText(texts.auth.hints.weakCommon).waitFor();
    await screenshot(page, 'next-signup-common-password-ua');

    await password.fill('correct horse battery staple');
    await page.getByLabel(texts.auth.fields.email).fill(existing.email);
    await submit.click();
    // Nobody learns from this form whether an address has an account (security audit): the page answers as for a
    // new one, and the address's owner is told by e-mail that someone tried to sign up with it.
    await page.getByRole('heading', { name: texts.auth.checkInbox.title }).waitFor();
    await expect(page.locator('#email-error').count()).resolves.toBe(0);
    await screenshot(page, 'next-signup-existing-ua');
    const told = await waitFor(
      'the owner told of the sign-up',
      () => mailsTo(e2e.stack, existing.email),
      (mails) => mails.length > 1,
      10_000,
    );
    expect(told.at(-1)!.link).toMatch(/\/app\/auth\/login$/);
  }, 60_000);
});
