// YouTube in the browser, against a local stack whose Google is the fake of test/fakes/google (OAuth consent and the
// YouTube Data API on a local port): connecting an account from the Channels page through the consent screen and
// back, the trial's one-account limit (the upgrade message, and the API's 403 in a tab that did not know yet), an
// unticked permission and a channel without live streaming (translated, with YouTube's link), a server without a
// Google client; a stream to the channel with its privacy and thumbnail chosen in the form, which the edit form
// shows back and its broadcast gets; a revoked grant as the running stream's warning and as "Reconnect" on the
// Channels page. Realtime runs under the local server's own Content-Security-Policy (no bypass). English, Russian
// and the `<html lang>` of both.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { DynamoBroadcastStore } from '../../lambdas/adapters/dynamo/youtube-stores';
import { errorCatalogue } from '../../lambdas/core/errors';
import { upkeep } from '../../lambdas/core/streams/streams';
import { streamsContext } from '../../lambdas/wiring/streams';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import type { LocalStack } from '../../local/stack';
import { YOUTUBE_SCOPES } from '../fakes/google/oauth';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { api, signedInUser } from '../helpers/accounts';
import { browserTests, recordErrors, screenshot } from '../helpers/browser';
import { makeClip, uploadWithTus, waitForItem } from '../helpers/media';
import { startTestStack } from '../helpers/stack';

type Catalogue = {
  app: { pages: { streams: { title: string }; channels: { title: string } } };
  streams: { new: string };
  channels: { listTitle: string; youtube: { connect: string } };
  errors: Record<string, string>;
};
const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;
const en = catalogue('en');
const ru = catalogue('ru');

/** A PNG of a diagonal gradient, made here so the test needs no image files. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      const t = (x / width + y / height) / 2;
      rows.set([Math.round(109 + 115 * t), Math.round(60 - 7 * t), Math.round(245 - 102 * t)], at);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const thumbnail = png(640, 360);
const avatar = png(88, 88);

let nginx: NginxRtmp;
let google: FakeGoogle;
let stack: LocalStack;
let unconfigured: LocalStack;
const e2e = browserTests({
  async start() {
    const dir = mkdtempSync(join(tmpdir(), 'loopcast-e2e-youtube-'));
    // The fake hands out this local RTMP server as YouTube's ingestion address, so the loop really publishes.
    nginx = await startNginxRtmp({ dir, rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log') });
    google = await startFakeGoogle({ ingestionAddress: nginx.rtmpUrl });
    [stack, unconfigured] = await Promise.all([
      startTestStack({
        web: true,
        google: { clientId: google.clientId, clientSecret: google.clientSecret, endpoints: google.endpoints, youtubeRootUrl: google.youtubeRootUrl },
      }),
      startTestStack({ web: true }),
    ]);
  },
  async stop() {
    await Promise.all([stack?.stop(), unconfigured?.stop()]);
    await Promise.all([google?.stop(), nginx?.stop()]);
  },
  timeoutMs: 120_000,
});
afterEach(() => {
  if (stack) stack.deps.now = () => new Date();
});

/**
 * A signed-in browser tab under the site's real Content-Security-Policy, recording page errors and console errors.
 * Channel pictures come from YouTube's image host, which this closed network cannot reach: the browser gets a local
 * picture instead. Refused requests log "Failed to load resource"; the tests provoke some on purpose and check what
 * the page shows instead.
 */
async function signedInContext(on: LocalStack, token: string, locale = 'en-US') {
  const context = await e2e.signedInContext(on, token, { locale, viewport: { width: 1280, height: 900 } });
  await context.route('https://yt3.ggpht.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: avatar }));
  const problems: string[] = [];
  const newPage = async () => {
    const page = await context.newPage();
    recordErrors(page, { console: 'except failed loads' }, problems);
    return page;
  };
  return { newPage, problems };
}

async function open(on: LocalStack, page: Page, path: string, heading: string) {
  const response = await page.goto(`${on.urls.web}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return response;
}

const destinationCard = (page: Page, name: string) => page.getByRole('list', { name: en.channels.listTitle }).getByRole('listitem').filter({ hasText: name });
const streamCard = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });

/** Connecting without a browser (for tests about what comes after): our consent URL, Google, our callback. */
async function connectThroughApi(token: string): Promise<string> {
  const started = await api<{ url: string }>(stack, 'POST', '/channels/youtube', { token, body: { language: 'en' } });
  const callback = (await fetch(started.body.url, { redirect: 'manual' })).headers.get('location')!;
  const back = await fetch(callback, { redirect: 'manual', headers: { cookie: `auth_token=${token}` } });
  const channelId = new URL(back.headers.get('location')!).searchParams.get('connected');
  if (!channelId) throw new Error(`connecting failed: ${back.headers.get('location')}`);
  return channelId;
}

describe('YouTube on the Channels page', () => {
  test("connect through Google's consent screen and back: the channel listed with its picture, announced and highlighted; then the trial's limit", async () => {
    const user = await signedInUser(stack, 'yt-connect');
    const account = google.addAccount({ channelTitle: 'Lo-fi Radio' });
    google.nextConsent({ account: account.sub });
    const browserTab = await signedInContext(stack, user.token);
    const page = await browserTab.newPage();

    const response = await open(stack, page, '/app/channels', en.app.pages.channels.title);
    // The local server's policy lets the page reach the local realtime server: live updates are on.
    expect(response!.headers()['content-security-policy']).toMatch(/connect-src 'self' ws:\/\/localhost:\* ws:\/\/127\.0\.0\.1:\*;/);
    await page.locator('.app-shell[data-realtime="open"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByText('YouTube accounts on your plan: 0 of 1').waitFor();

    // A second tab opened now still believes there is room when the first one has used it.
    const staleTab = await browserTab.newPage();
    await open(stack, staleTab, '/app/channels', en.app.pages.channels.title);
    await staleTab.getByText('YouTube accounts on your plan: 0 of 1').waitFor();

    await page.getByRole('button', { name: en.channels.youtube.connect }).click();
    const channel = destinationCard(page, 'Lo-fi Radio');
    await channel.and(page.locator('[data-highlighted="true"]')).waitFor();
    await page.getByText('The YouTube channel “Lo-fi Radio” is connected').waitFor();
    expect(google.consents.at(-1)).toMatchObject({ accessType: 'offline', prompt: 'consent', codeChallengeMethod: 'S256' });
    // The callback's answer is read and the address cleaned.
    await page.waitForFunction(() => window.location.search === '');
    expect(new URL(page.url()).pathname).toBe('/app/channels');

    await channel.locator('[data-status="connected"]').filter({ hasText: 'Connected' }).waitFor();
    await channel.getByText('YouTube account', { exact: true }).waitFor();
    expect(await channel.getByRole('link', { name: 'Open on YouTube' }).getAttribute('href')).toBe(`https://www.youtube.com/channel/${account.channel!.id}`);
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.dest-avatar')?.naturalWidth ?? 0) > 0);

    // The trial connects one account: the button is off and says why, with the way to more.
    await page.getByText('YouTube accounts on your plan: 1 of 1').waitFor();
    const connect = page.getByRole('button', { name: en.channels.youtube.connect });
    expect(await connect.isDisabled()).toBe(true);
    const upgrade = page.getByText('Your plan connects 1 YouTube account. Upgrade your plan to connect more.');
    await upgrade.waitFor();
    expect(await connect.getAttribute('aria-describedby')).toBe(await upgrade.getAttribute('id'));
    expect(await page.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/app/billing');
    await screenshot(page, 'app-channels-youtube-en');

    // The stale tab tries anyway: the API's 403, translated.
    await staleTab.getByRole('button', { name: en.channels.youtube.connect }).click();
    await staleTab.getByRole('alert').filter({ hasText: en.errors['channel limit']! }).waitFor();
    expect(new URL(staleTab.url()).origin).toBe(stack.urls.web);

    const { body } = await api(stack, 'GET', '/channels', { token: user.token });
    expect(body.channels).toEqual([
      expect.objectContaining({ kind: 'youtube', name: 'Lo-fi Radio', youtube: expect.objectContaining({ status: 'connected' }) }),
    ]);
    expect(browserTab.problems).toEqual([]);
  }, 120_000);

  test('in Russian: an unticked YouTube permission and a channel without live streaming come back as translated messages, the second with its link', async () => {
    const user = await signedInUser(stack, 'yt-refused');
    const browserTab = await signedInContext(stack, user.token, 'ru-RU');
    const page = await browserTab.newPage();
    await open(stack, page, '/ru/app/channels', ru.app.pages.channels.title);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');

    google.nextConsent({ withhold: [YOUTUBE_SCOPES.youtube] });
    await page.getByRole('button', { name: ru.channels.youtube.connect }).click();
    await page.getByRole('alert').filter({ hasText: ru.errors['youtube scope missing']! }).waitFor();
    await page.waitForFunction(() => window.location.search === '');
    expect(new URL(page.url()).pathname).toBe('/ru/app/channels');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');

    const notLive = google.addAccount({ channelTitle: 'Ещё не в эфире', liveStreamingEnabled: false });
    google.nextConsent({ account: notLive.sub });
    await page.getByRole('button', { name: ru.channels.youtube.connect }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'На этом канале YouTube не включены прямые трансляции' });
    await problem.waitFor();
    expect(await problem.textContent()).toContain(ru.errors['livestreaming not enabled']);
    const link = problem.getByRole('link', { name: 'https://www.youtube.com/features' });
    expect(await link.getAttribute('href')).toBe('https://www.youtube.com/features');
    expect(await link.getAttribute('target')).toBe('_blank');
    await page.getByText('Аккаунтов YouTube на вашем тарифе: 0 из 1').waitFor();
    await screenshot(page, 'app-channels-youtube-error-ru');

    // Nothing was saved; the message can be closed.
    expect((await api(stack, 'GET', '/channels', { token: user.token })).body.channels).toEqual([]);
    await problem.getByRole('button', { name: 'Закрыть' }).click();
    expect(await page.getByRole('alert').count()).toBe(0);

    // The stream form's YouTube settings in Russian.
    await open(stack, page, '/ru/app/streams', ru.app.pages.streams.title);
    await page.getByRole('button', { name: ru.streams.new }).click();
    await page.getByRole('group', { name: 'Для YouTube' }).waitFor();
    expect(await page.getByLabel('Доступ').locator('option').allTextContents()).toEqual(['Открытый доступ', 'Доступ по ссылке', 'Ограниченный доступ']);
    await page.getByRole('button', { name: 'Выбрать изображение' }).waitFor();
    await screenshot(page, 'app-streams-youtube-form-ru');

    // Ukrainian pages say so to the browser too ("ua" in the address, "uk" as the language tag).
    await open(stack, page, '/ua/app/channels', catalogue('ua').app.pages.channels.title);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('uk');
    expect(browserTab.problems).toEqual([]);
  }, 120_000);

  test('a server without a Google client says so, and stream keys still work', async () => {
    const user = await signedInUser(unconfigured, 'yt-none');
    const browserTab = await signedInContext(unconfigured, user.token);
    const page = await browserTab.newPage();
    await open(unconfigured, page, '/app/channels', en.app.pages.channels.title);
    await page.getByText(errorCatalogue['youtube not configured'].message).waitFor();
    expect(await page.getByRole('button', { name: en.channels.youtube.connect }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add destination' }).waitFor();
    await screenshot(page, 'app-channels-youtube-unconfigured-en');
    expect(browserTab.problems).toEqual([]);
  });
});

describe('a stream to a YouTube channel', () => {
  test('privacy and thumbnail chosen in the form reach the broadcast; a revoked grant is the running stream\'s warning and "Reconnect" on the Channels page', async () => {
    const user = await signedInUser(stack, 'yt-stream');
    const account = google.addAccount({ channelTitle: 'Study Beats' });
    google.nextConsent({ account: account.sub });
    const channelId = await connectThroughApi(user.token);
    const videoId = await uploadWithTus(stack, user.token, (await makeClip({ seconds: 4 })).bytes, {
      filename: 'study loop.mp4',
      filetype: 'video/mp4',
      kind: 'video',
    });
    const video = await waitForItem(stack, user.token, videoId);

    const browserTab = await signedInContext(stack, user.token);
    const page = await browserTab.newPage();
    await open(stack, page, '/app/streams', en.app.pages.streams.title);
    await page.getByRole('button', { name: 'New stream' }).click();
    await page.getByLabel('Title').fill('Study beats 24/7');
    await page.getByLabel('Video', { exact: true }).selectOption({ label: video.title });
    const destination = page.getByRole('checkbox', { name: /Study Beats/ });
    await destination.check();
    // YouTube destinations carry the channel's picture.
    const choice = page.locator('label').filter({ has: destination });
    await choice.getByText('YouTube channel').waitFor();
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.stream-choice__avatar')?.naturalWidth ?? 0) > 0);

    await page.getByText('Used for the broadcasts on your connected YouTube accounts; other destinations ignore these settings.').waitFor();
    expect(await page.getByLabel('Privacy').inputValue()).toBe('public');
    await page.getByLabel('Privacy').selectOption('unlisted');

    // Pictures YouTube would refuse are refused before anything is sent.
    const picker = page.locator('input[type="file"]');
    expect(await picker.getAttribute('accept')).toBe('image/jpeg,image/png');
    await picker.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([thumbnail, Buffer.alloc(2 * 1024 * 1024)]) });
    await page.getByRole('alert').filter({ hasText: en.errors['unsupported image']! }).waitFor();
    await picker.setInputFiles({ name: 'loop.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByRole('alert').filter({ hasText: en.errors['unsupported image']! }).waitFor();
    expect(await page.getByRole('img', { name: 'The chosen thumbnail' }).count()).toBe(0);

    await picker.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: thumbnail });
    const preview = page.getByRole('img', { name: 'The chosen thumbnail' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.stream-thumbnail')?.naturalWidth ?? 0) === 640);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'app-streams-youtube-form-en');

    await page.getByRole('button', { name: 'Create stream' }).click();
    const stream = streamCard(page, 'Study beats 24/7');
    await stream.locator('[data-status="stopped"]').waitFor();
    await stream.getByText('Unlisted · own thumbnail').waitFor();
    const streams = await api<{ streams: { id: string; privacy: string; hasCustomThumbnail: boolean; channelIds: string[] }[] }>(stack, 'GET', '/streams', {
      token: user.token,
    });
    const saved = streams.body.streams[0]!;
    expect(saved).toMatchObject({ privacy: 'unlisted', hasCustomThumbnail: true, channelIds: [channelId] });

    // Editing shows the stream's own thumbnail (the view's signed same-origin thumbnailUrl), with replace and remove.
    await stream.getByRole('button', { name: 'Edit' }).click();
    const editing = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Edit “Study beats 24/7”' }) });
    const current = editing.getByRole('img', { name: "The stream's thumbnail" });
    await current.waitFor();
    expect(await current.getAttribute('src')).toMatch(new RegExp(`^/api/media/${saved.id}/stream-thumbnail\\?`));
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.stream-thumbnail')?.naturalWidth ?? 0) === 640);
    expect(await editing.getByText('This stream has its own thumbnail.').count()).toBe(0);
    await editing.getByRole('button', { name: 'Choose another image' }).waitFor();
    await screenshot(page, 'app-streams-youtube-edit-thumbnail-en');
    // Removing hides it until saved; "Keep the thumbnail" brings it back.
    await editing.getByRole('button', { name: 'Remove thumbnail' }).click();
    await editing.getByText("The stream's thumbnail will be removed when you save.").waitFor();
    expect(await current.count()).toBe(0);
    await editing.getByRole('button', { name: 'Keep the thumbnail' }).click();
    await current.waitFor();
    await editing.getByRole('button', { name: 'Cancel' }).click();
    await stream.getByText('Unlisted · own thumbnail').waitFor();

    // Live: the broadcast YouTube got has the stream's privacy and picture.
    await stream.getByRole('button', { name: 'Start' }).click();
    await stream.locator('[data-status="started"]').waitFor({ timeout: 60_000 });
    const [record] = await new DynamoBroadcastStore(stack.deps.db, stack.config.tables.app).list(user.userId, saved.id);
    expect(google.broadcast(record!.broadcastId)!.status).toMatchObject({ privacyStatus: 'unlisted' });
    expect(google.broadcast(record!.broadcastId)!.snippet).toMatchObject({ title: 'Study beats 24/7' });
    const sent = google.thumbnail(record!.broadcastId);
    expect(sent?.contentType).toBe('image/png');
    expect(sent?.bytes.equals(thumbnail)).toBe(true);

    // The user removes Loopcast in their Google account; the next broadcast check (half an hour on) finds out.
    google.revokeGrant(account.sub);
    stack.deps.now = () => new Date(Date.now() + 31 * 60_000);
    await upkeep(streamsContext(stack.deps));
    stack.deps.now = () => new Date();
    expect((await api(stack, 'GET', `/streams/${saved.id}`, { token: user.token })).body).toMatchObject({
      status: 'started',
      warning: 'Google refresh token error',
    });
    await page.reload();
    const warning = stream.getByRole('status').filter({ hasText: en.errors['Google refresh token error']! });
    await warning.waitFor();
    expect(await warning.textContent()).toBe(`Warning: ${en.errors['Google refresh token error']}`);
    await stream.locator('[data-status="started"]').waitFor();
    await screenshot(page, 'app-streams-youtube-warning-en');

    const channels = await browserTab.newPage();
    await open(stack, channels, '/app/channels', en.app.pages.channels.title);
    const card = destinationCard(channels, 'Study Beats');
    await card.locator('[data-status="revoked"]').filter({ hasText: 'Access removed' }).waitFor();
    await card.getByText("Loopcast's access to this account was removed in your Google settings").waitFor();
    await card.getByRole('button', { name: 'Reconnect' }).waitFor();
    await screenshot(channels, 'app-channels-youtube-revoked-en');
    await channels.close();

    await stream.getByRole('button', { name: 'Stop' }).click();
    await stream.getByRole('dialog').getByRole('button', { name: 'Stop stream' }).click();
    await stream.locator('[data-status="stopped"]').waitFor({ timeout: 30_000 });
    expect(browserTab.problems).toEqual([]);
  }, 300_000);
});
