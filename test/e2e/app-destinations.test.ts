// The destination presets in Chromium against a local stack with its nginx-rtmp test destination and its TLS front:
// every platform of lambdas/contract/destination-presets.ts in the picker with its ingest (filled in, or where to
// find it), its RTMPS rule, limits and help link; an rtmp:// server refused for a platform that takes RTMPS only; a
// stream's video checked against its destination's platform on the form; an RTMPS server whose certificate does
// not verify refused by the stream task, the reason on the card in the page's language; a destination's platform
// changed in its edit form, with the same notes. Screenshots of the picker and of the edit form in all five
// languages, on a desktop and a phone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { destinationPresets, presetById } from '../../lambdas/contract/destination-presets';
import { api, signedInUser } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { makeClip, uploadWithTus, waitForItem } from '../helpers/media';

type Catalogue = {
  app: { pages: { streams: { title: string }; channels: { title: string } } };
  channels: {
    listTitle: string;
    rtmp: { custom: string; submit: string; name: string; platform: string };
    serverUrl: string;
    streamKey: string;
    edit: { title: string; newKey: string; newPlatformKey: string; save: string; saved: string };
  };
  streams: { new: string; status: Record<string, string>; form: { create: string } };
  platforms: { help: string; perUser: string; rtmpsOnly: string; customNote: string };
  errors: { 'platform requires rtmps': string; 'destination certificate refused': string };
};
const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;
const en = catalogue('en');

const languages = [
  { code: 'en', prefix: '', locale: 'en-US' },
  { code: 'es', prefix: '/es', locale: 'es-ES' },
  { code: 'ua', prefix: '/ua', locale: 'uk-UA' },
  { code: 'ru', prefix: '/ru', locale: 'ru-RU' },
  { code: 'hi', prefix: '/hi', locale: 'hi-IN' },
] as const;

const e2e = browserTestsOnStack({ rtmp: true }, 120_000);

async function signedInPage(token: string, locale = 'en-US', viewport = { width: 1280, height: 900 }) {
  const context = await e2e.signedInContext(e2e.stack, token, { locale, timezoneId: 'Europe/Berlin', viewport, realtime: false });
  const page = await context.newPage();
  return { page, problems: recordErrors(page, { console: 'except failed loads' }) };
}

async function open(page: Page, path: string, heading: string) {
  await page.goto(`${e2e.stack.urls.web}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
const notes = (page: Page) => page.locator('.dest-platform-notes');

/** A full-page screenshot from the top, so the sticky navigation sits where a visitor sees it. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('destination presets', () => {
  test('every platform in the picker: its server URL filled in or where to find it, RTMPS, limits and help link; RTMPS-only platforms refuse rtmp://; the stream form checks the video against the platform', async () => {
    const user = await signedInUser(e2e.stack, 'presets');
    const { page, problems } = await signedInPage(user.token);
    await open(page, '/app/channels', en.app.pages.channels.title);
    const serverUrl = page.getByLabel(en.channels.serverUrl);

    for (const preset of destinationPresets) {
      const name = preset.id === 'custom' ? en.channels.rtmp.custom : preset.name;
      await page.getByRole('radio', { name, exact: true }).check();
      await notes(page)
        .and(page.locator(`[data-platform="${preset.id}"]`))
        .waitFor();
      if (preset.ingest.kind === 'fixed') {
        expect(await serverUrl.inputValue()).toBe(preset.ingest.url);
      } else {
        expect(await serverUrl.inputValue()).toBe('');
        expect(await serverUrl.getAttribute('placeholder')).toBe(preset.ingest.example);
        if (preset.id !== 'custom')
          await notes(page)
            .getByText(fill(en.platforms.perUser, { platform: preset.name }))
            .waitFor();
      }
      expect(
        await notes(page)
          .getByText(fill(en.platforms.rtmpsOnly, { platform: preset.name }))
          .count(),
      ).toBe(preset.rtmpsRequired ? 1 : 0);
      if (preset.helpUrl)
        expect(
          await notes(page)
            .getByRole('link', { name: fill(en.platforms.help, { platform: preset.name }) })
            .getAttribute('href'),
        ).toBe(preset.helpUrl);
      else await notes(page).getByText(en.platforms.customNote).waitFor();
      if (preset.id === 'kick') {
        await notes(page).getByText('Takes at most: a 1920×1080 frame, 60 frames a second, and 8.5 Mb/s of video.').waitFor();
        await shot(page, 'app-destinations-kick-en');
      }
    }

    // Instagram Live takes RTMPS only: an rtmp:// server is refused at the field, with what to do.
    await page.getByRole('radio', { name: 'Instagram Live', exact: true }).check();
    await serverUrl.fill('rtmp://live-upload.instagram.com:80/rtmp');
    await page.getByLabel(en.channels.streamKey, { exact: true }).fill('IG-stream-key-1234');
    await page.getByRole('button', { name: en.channels.rtmp.submit }).click();
    await page.getByText(en.errors['platform requires rtmps']).waitFor();
    expect(await serverUrl.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'app-destinations-rtmps-refused-en');
    await serverUrl.fill('rtmps://live-upload.instagram.com:443/rtmp');
    await page.getByRole('button', { name: en.channels.rtmp.submit }).click();
    const card = page.getByRole('list', { name: en.channels.listTitle }).getByRole('listitem').filter({ hasText: '••••1234' });
    await card.locator('[data-preset="instagram"]').filter({ hasText: 'Instagram Live' }).waitFor();

    // The stream form: the stream-ready video (1920x1080, 30 fps) against Instagram Live's advice.
    const clip = await makeClip({ seconds: 3, size: '1920x1080' });
    const videoId = await uploadWithTus(e2e.stack, user.token, clip.bytes, { filename: 'presets loop.mp4', filetype: 'video/mp4', kind: 'video' });
    const video = await waitForItem(e2e.stack, user.token, videoId);
    expect(video).toMatchObject({ status: 'ready', width: 1920, height: 1080 });
    await open(page, '/app/streams', en.app.pages.streams.title);
    await page.getByRole('button', { name: en.streams.new }).click();
    await page.getByLabel('Video', { exact: true }).selectOption({ label: video.title });
    await page.getByRole('checkbox', { name: /Instagram Live/ }).check();
    const advice = page.locator('[data-fit="advice"]');
    await advice.filter({ hasText: /^Instagram Live recommends otherwise \(Instagram Live\): a 1920×1080 frame, above 1280×720/ }).waitFor();
    expect(await advice.textContent()).toContain('a landscape frame, where it recommends upright 9:16 video');
    expect(await page.locator('[data-fit="refusal"]').count()).toBe(0);
    await shot(page, 'app-destinations-stream-advice-en');
    expect(problems).toEqual([]);
  }, 240_000);

  test.each(languages)(
    'the picker in $code, on a desktop and on a phone',
    async ({ code, prefix, locale }) => {
      const texts = catalogue(code);
      const user = await signedInUser(e2e.stack, `presets-${code}`);
      for (const [device, viewport] of [
        ['desktop', { width: 1280, height: 900 }],
        ['mobile', { width: 390, height: 844 }],
      ] as const) {
        const { page, problems } = await signedInPage(user.token, locale, viewport);
        await open(page, `${prefix}/app/channels`, texts.app.pages.channels.title);
        await page.getByRole('radio', { name: 'Facebook', exact: true }).check();
        await notes(page)
          .getByText(fill(texts.platforms.rtmpsOnly, { platform: 'Facebook' }))
          .waitFor();
        expect(await page.getByLabel(texts.channels.serverUrl).inputValue()).toBe((presetById('facebook').ingest as { url: string }).url);
        await notes(page)
          .getByRole('link', { name: fill(texts.platforms.help, { platform: 'Facebook' }) })
          .waitFor();
        // Nothing runs past the page's width (long platform names, URLs, limits in a long language).
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await shot(page, `app-destinations-${code}-${device}`);
        expect(problems).toEqual([]);
        await page.context().close();
      }
    },
    120_000,
  );

  test("an RTMPS server whose certificate is not for its name gets nothing, and the stream's card says why (Spanish)", async () => {
    const es = catalogue('es');
    const user = await signedInUser(e2e.stack, 'presets-tls');
    const clip = await makeClip({ seconds: 3 });
    const videoId = await uploadWithTus(e2e.stack, user.token, clip.bytes, { filename: 'tls loop.mp4', filetype: 'video/mp4', kind: 'video' });
    const video = await waitForItem(e2e.stack, user.token, videoId);
    // The stack's TLS front has a certificate for 127.0.0.1; "localhost" is the same server under another name.
    const wrongName = e2e.stack.urls.rtmps!.replace('127.0.0.1', 'localhost');
    const { page, problems } = await signedInPage(user.token, 'es-ES');
    await open(page, '/es/app/channels', es.app.pages.channels.title);
    await page.getByRole('radio', { name: es.channels.rtmp.custom, exact: true }).check();
    await page.getByLabel(es.channels.rtmp.name, { exact: true }).fill('Servidor TLS');
    await page.getByLabel(es.channels.serverUrl).fill(wrongName);
    await page.getByLabel(es.channels.streamKey, { exact: true }).fill('tls-wrong-name');
    await page.getByRole('button', { name: es.channels.rtmp.submit }).click();
    await page.getByRole('list', { name: es.channels.listTitle }).getByText('Servidor TLS').waitFor();

    const channels = await api<{ channels: { id: string }[] }>(e2e.stack, 'GET', '/channels', { token: user.token });
    const stream = await api<{ id: string }>(e2e.stack, 'POST', '/streams', {
      token: user.token,
      body: { title: 'Bucle seguro', videoId: video.id, channelIds: [channels.body.channels[0]!.id], timeZone: 'Europe/Madrid' },
    });
    expect(stream.status).toBe(201);
    await open(page, '/es/app/streams', es.app.pages.streams.title);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Bucle seguro', exact: true }) });
    await card.getByRole('button', { name: 'Iniciar' }).click();
    await card.getByText(es.errors['destination certificate refused']).waitFor({ timeout: 90_000 });
    await shot(page, 'app-destinations-certificate-refused-es');
    await api(e2e.stack, 'POST', `/streams/${stream.body.id}/stop`, { token: user.token });
    expect(problems).toEqual([]);
  }, 240_000);

  test("a destination's platform changed in its edit form: the new platform's server URL, name, requirements and limits; saved; an rtmp:// server refused for an RTMPS-only platform", async () => {
    const user = await signedInUser(e2e.stack, 'presets-edit');
    const created = await api(e2e.stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Twitch', url: 'rtmp://live.twitch.tv/app', key: 'live_1234_abcdWXYZ', preset: 'twitch' },
    });
    expect(created.status).toBe(201);
    const { page, problems } = await signedInPage(user.token);
    await open(page, '/app/channels', en.app.pages.channels.title);
    await page.getByRole('button', { name: fill(en.channels.edit.title, { name: 'Twitch' }) }).click();
    const form = page.getByRole('form', { name: fill(en.channels.edit.title, { name: 'Twitch' }) });
    const platform = form.getByLabel(en.channels.rtmp.platform);
    expect(await platform.inputValue()).toBe('twitch');
    await platform.selectOption({ label: 'Kick' });
    const kick = presetById('kick');
    expect(await form.getByLabel(en.channels.serverUrl).inputValue()).toBe((kick.ingest as { url: string }).url);
    expect(await form.getByLabel(en.channels.rtmp.name, { exact: true }).inputValue()).toBe('Kick');
    await form
      .locator('.dest-platform-notes[data-platform="kick"]')
      .getByText(fill(en.platforms.rtmpsOnly, { platform: 'Kick' }))
      .waitFor();
    await form.getByText('Takes at most: a 1920×1080 frame, 60 frames a second, and 8.5 Mb/s of video.').waitFor();
    await form.getByText(fill(en.channels.edit.newPlatformKey, { platform: 'Kick', hint: '••••WXYZ' })).waitFor();
    await form.getByLabel(en.channels.edit.newKey).fill('sk_us-west-2_kickKEY9');
    await shot(page, 'app-destinations-edit-platform-en');
    await form.getByRole('button', { name: en.channels.edit.save }).click();
    await page.getByText(fill(en.channels.edit.saved, { name: 'Kick' })).waitFor();
    const { body: saved } = await api<{ channels: { id: string; preset: string; name: string; rtmpUrl: string; keyHint: string }[] }>(
      e2e.stack,
      'GET',
      '/channels',
      {
        token: user.token,
      },
    );
    expect(saved.channels).toEqual([
      expect.objectContaining({ preset: 'kick', name: 'Kick', rtmpUrl: (kick.ingest as { url: string }).url, keyHint: '••••KEY9' }),
    ]);
    const card = page.getByRole('list', { name: en.channels.listTitle }).getByRole('listitem').filter({ hasText: '••••KEY9' });
    await card.locator('[data-preset="kick"]').waitFor();

    // Instagram Live shows each creator their own server, and takes RTMPS only: an rtmp:// one is refused at the field.
    await page.getByRole('button', { name: fill(en.channels.edit.title, { name: 'Kick' }) }).click();
    const again = page.getByRole('form', { name: fill(en.channels.edit.title, { name: 'Kick' }) });
    await again.getByLabel(en.channels.rtmp.platform).selectOption({ label: 'Instagram Live' });
    const url = again.getByLabel(en.channels.serverUrl);
    expect(await url.inputValue()).toBe('');
    expect(await url.getAttribute('placeholder')).toBe((presetById('instagram').ingest as { example: string }).example);
    await url.fill('rtmp://live-upload.instagram.com:80/rtmp');
    await again.getByRole('button', { name: en.channels.edit.save }).click();
    await again.getByText(en.errors['platform requires rtmps']).waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'app-destinations-edit-rtmps-refused-en');
    const { body: unchanged } = await api<{ channels: { preset: string }[] }>(e2e.stack, 'GET', '/channels', { token: user.token });
    expect(unchanged.channels[0]!.preset).toBe('kick');
    expect(problems).toEqual([]);
  }, 240_000);

  test.each(languages)(
    'the edit form with another platform picked in $code, on a desktop and on a phone',
    async ({ code, prefix, locale }) => {
      const texts = catalogue(code);
      const user = await signedInUser(e2e.stack, `presets-edit-${code}`);
      await api(e2e.stack, 'POST', '/channels/rtmp', {
        token: user.token,
        body: { name: 'Twitch', url: 'rtmp://live.twitch.tv/app', key: 'live_1234_abcdWXYZ', preset: 'twitch' },
      });
      for (const [device, viewport] of [
        ['desktop', { width: 1280, height: 900 }],
        ['mobile', { width: 390, height: 844 }],
      ] as const) {
        const { page, problems } = await signedInPage(user.token, locale, viewport);
        await open(page, `${prefix}/app/channels`, texts.app.pages.channels.title);
        await page.getByRole('button', { name: fill(texts.channels.edit.title, { name: 'Twitch' }) }).click();
        const form = page.getByRole('form', { name: fill(texts.channels.edit.title, { name: 'Twitch' }) });
        await form.getByLabel(texts.channels.rtmp.platform).selectOption('facebook');
        await form
          .locator('.dest-platform-notes[data-platform="facebook"]')
          .getByText(fill(texts.platforms.rtmpsOnly, { platform: 'Facebook' }))
          .waitFor();
        expect(await form.getByLabel(texts.channels.serverUrl).inputValue()).toBe((presetById('facebook').ingest as { url: string }).url);
        await form.getByText(fill(texts.channels.edit.newPlatformKey, { platform: 'Facebook', hint: '••••WXYZ' })).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await shot(page, `app-destinations-edit-${code}-${device}`);
        expect(problems).toEqual([]);
        await page.context().close();
      }
    },
    120_000,
  );
});
