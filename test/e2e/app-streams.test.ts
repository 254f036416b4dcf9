// The Channels and Streams pages in Chromium against a local stack with its nginx-rtmp test destination: add an RTMP
// destination, create a stream, start it, watch it go live on the page with a playing HLS preview, stop it; the
// form's refusals (duplicate restart times, the plan's destination limit); editing locked while live; both pages
// in English and Russian, with screenshots.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { errorCatalogue } from '../../lambdas/core/errors';
import { api, signedInUser } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { makeClip, uploadWithTus, waitForItem } from '../helpers/media';

type Catalogue = {
  app: { pages: { streams: { title: string }; channels: { title: string } } };
  streams: {
    status: Record<string, string>;
    verdict: Record<string, string>;
    new: string;
    emptyTitle: string;
    empty: Record<'needsVideo' | 'needsDestination' | 'ready' | 'addDestination' | 'create', string>;
    form: { cancel: string };
    card: { lockedLive: string };
  };
  channels: { listTitle: string; rtmp: { keyHelp: string } };
};
const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;
const en = catalogue('en');

const TIME_ZONE = 'Europe/Berlin';

const e2e = browserTestsOnStack({ rtmp: true }, 120_000);

/** A confirmed user with one ready video, uploaded through the API for speed. */
async function creatorWithVideo(label: string): Promise<{ token: string; videoTitle: string }> {
  const user = await signedInUser(e2e.stack, label);
  const clip = await makeClip({ seconds: 4 });
  const videoId = await uploadWithTus(e2e.stack, user.token, clip.bytes, { filename: `${label} loop.mp4`, filetype: 'video/mp4', kind: 'video' });
  const video = await waitForItem(e2e.stack, user.token, videoId);
  expect(video.status).toBe('ready');
  return { token: user.token, videoTitle: video.title };
}

/**
 * A signed-in browser page that records page errors and console errors. The browser logs every refused request
 * ("Failed to load resource"); the tests provoke some on purpose and check what the page shows instead. Realtime
 * connects under the local server's own Content-Security-Policy, which allows the local realtime server's port;
 * without `realtime` the page gets no realtime ticket and must poll.
 */
async function signedInPage(token: string, options: { locale?: string; realtime: boolean }) {
  const context = await e2e.signedInContext(e2e.stack, token, {
    locale: options.locale ?? 'en-US',
    timezoneId: TIME_ZONE,
    viewport: { width: 1280, height: 900 },
    realtime: options.realtime,
  });
  const page = await context.newPage();
  return { page, problems: recordErrors(page, { console: 'except failed loads' }) };
}

async function open(page: Page, path: string, heading: string) {
  await page.goto(`${e2e.stack.urls.web}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const card = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });

describe('Streams and Channels pages', () => {
  test.each([
    ['realtime', true],
    ['polling while realtime is blocked', false],
  ])(
    'add an RTMP destination, create a stream, start it, watch it go live with a playing preview, stop it (%s)',
    async (_mode, realtime) => {
      const { token, videoTitle } = await creatorWithVideo('live');
      const { page, problems } = await signedInPage(token, { realtime });

      // No stream yet, a video but no destination: the Streams page asks for the destination only, with its button.
      if (realtime) {
        await open(page, '/app/streams', en.app.pages.streams.title);
        await page.getByText(en.streams.empty.needsDestination).waitFor();
        expect(await page.locator('.empty-state a').allTextContents()).toEqual([en.streams.empty.addDestination]);
        await screenshot(page, 'app-streams-empty-en');
        await page.getByRole('link', { name: en.streams.empty.addDestination }).click();
        await page.getByRole('heading', { level: 1, name: en.app.pages.channels.title }).waitFor();
      } else {
        await open(page, '/app/channels', en.app.pages.channels.title);
      }
      // Channels: the local nginx-rtmp server as a custom RTMP destination.
      if (realtime) await page.locator('.app-shell[data-realtime="open"]').waitFor();
      const streamKey = `e2e-${randomBytes(6).toString('hex')}`;
      await page.getByRole('radio', { name: 'Other server' }).check();
      await page.getByLabel('Name', { exact: true }).fill('Local test server');
      await page.getByLabel('Server URL').fill(e2e.stack.urls.rtmp!);
      const keyInput = page.getByLabel('Stream key', { exact: true });
      await keyInput.fill(streamKey);
      expect(await keyInput.getAttribute('type')).toBe('password');
      await page.getByRole('button', { name: 'Show key' }).click();
      expect(await keyInput.getAttribute('type')).toBe('text');
      await page.getByRole('button', { name: 'Add destination' }).click();
      const destination = page.getByRole('list', { name: en.channels.listTitle }).getByRole('listitem').filter({ hasText: 'Local test server' });
      await destination.getByText(`••••${streamKey.slice(-4)}`).waitFor();
      await destination.getByText(e2e.stack.urls.rtmp!).waitFor();
      expect(await keyInput.inputValue()).toBe('');
      if (realtime) await screenshot(page, 'app-channels-en');

      // Streams: create.
      await page.getByRole('link', { name: en.app.pages.streams.title, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: en.app.pages.streams.title }).waitFor();
      await page.getByRole('button', { name: en.streams.new }).click();
      await page.getByLabel('Title').fill('Lo-fi around the clock');
      await page.getByLabel('Video', { exact: true }).selectOption({ label: videoTitle });
      // The only destination is ticked already.
      expect(await page.getByRole('checkbox', { name: /Local test server/ }).isChecked()).toBe(true);
      expect(await page.getByLabel('Time zone').inputValue()).toBe(TIME_ZONE);
      await page.getByRole('button', { name: 'Create stream' }).click();
      const stream = card(page, 'Lo-fi around the clock');
      await stream.locator('[data-status="stopped"]').waitFor();
      await stream.getByText('Local test server').waitFor();
      await stream.getByText(videoTitle).waitFor();

      // Start: the page follows pending -> started by itself.
      await stream.getByRole('button', { name: 'Start' }).click();
      await stream.locator('[data-status="started"]').waitFor({ timeout: 60_000 });
      expect(await stream.locator('[data-status]').textContent()).toContain(en.streams.status.started);
      expect(await stream.getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
      await stream.getByText(en.streams.card.lockedLive).waitFor();

      // The preview plays: the <video>'s time moves on.
      const video = stream.locator('video');
      await video.waitFor({ timeout: 30_000 });
      const playedTo = (seconds: number) =>
        page.waitForFunction(
          ({ selector, at }) => ((document.querySelector(selector) as HTMLVideoElement | null)?.currentTime ?? 0) > at,
          { selector: `[data-stream-id] video`, at: seconds },
          { timeout: 45_000 },
        );
      await playedTo(0.5);
      const first = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
      await playedTo(first + 1);

      // The heartbeat's figures arrive.
      await stream.locator('[data-stat="bitrate"] dd').filter({ hasText: /kb\/s/ }).waitFor({ timeout: 45_000 });
      await stream.locator('[data-verdict="healthy"]').waitFor({ timeout: 30_000 });
      await screenshot(page, `app-streams-live-en-${realtime ? 'realtime' : 'polling'}`);

      // A destination a live stream uses is not deleted: the page names the stream to stop first, and the API
      // would answer 409 'stream started' anyway.
      const channelsTab = await page.context().newPage();
      await open(channelsTab, '/app/channels', en.app.pages.channels.title);
      await channelsTab.getByRole('button', { name: 'Delete the destination Local test server' }).click();
      await channelsTab
        .locator('[data-in-use="running"]')
        .filter({ hasText: /is live on this destination\. Stop that stream first/ })
        .waitFor();
      expect(await channelsTab.getByRole('button', { name: 'Delete destination' }).isDisabled()).toBe(true);
      const channelId = (await api<{ channels: { id: string }[] }>(e2e.stack, 'GET', '/channels', { token })).body.channels[0]!.id;
      expect((await api(e2e.stack, 'DELETE', `/channels/${channelId}`, { token })).body).toMatchObject({
        error: 'stream started',
        message: errorCatalogue['stream started'].message,
      });
      await channelsTab.close();

      // Stop, confirmed in the dialog (it is on air), then delete the stream after confirming.
      await stream.getByRole('button', { name: 'Stop' }).click();
      await page.getByRole('dialog', { name: 'Stop “Lo-fi around the clock”?' }).getByRole('button', { name: 'Stop stream' }).click();
      await stream.locator('[data-status="stopped"]').waitFor({ timeout: 30_000 });
      expect(await stream.getByRole('button', { name: 'Edit' }).isDisabled()).toBe(false);
      expect(await stream.locator('video').count()).toBe(0);
      await stream.getByRole('button', { name: 'Delete the stream Lo-fi around the clock' }).click();
      await stream.getByRole('button', { name: 'Delete stream' }).click();
      await page.getByText('No streams yet').waitFor();

      // Without realtime the page followed the stream by asking the API itself.
      expect((await page.locator('.app-shell').getAttribute('data-realtime')) === 'open').toBe(realtime);
      expect(problems).toEqual([]);
    },
    300_000,
  );

  test('the form refuses duplicate restart times and more destinations than the plan allows, with the catalogued messages', async () => {
    const { token } = await creatorWithVideo('form');
    const videos = await api<{ videos: { id: string }[] }>(e2e.stack, 'GET', '/videos', { token });
    const channelIds: string[] = [];
    for (const name of ['Main channel', 'Backup channel']) {
      const added = await api<{ id: string }>(e2e.stack, 'POST', '/channels/rtmp', {
        token,
        body: { name, url: 'rtmp://ingest.example.com/live', key: `key-${name.length}` },
      });
      channelIds.push(added.body.id);
    }
    const created = await api(e2e.stack, 'POST', '/streams', {
      token,
      body: { title: 'Study loop', videoId: videos.body.videos[0]!.id, channelIds: channelIds.slice(0, 1), timeZone: TIME_ZONE },
    });
    expect(created.status).toBe(201);

    const { page, problems } = await signedInPage(token, { realtime: false });
    await open(page, '/app/streams', en.app.pages.streams.title);
    const stream = card(page, 'Study loop');
    await stream.getByRole('button', { name: 'Edit' }).click();
    const form = card(page, 'Edit “Study loop”');
    expect(await form.getByLabel('Video', { exact: true }).inputValue()).toBe(videos.body.videos[0]!.id);

    // Two destinations on the trial plan: refused before anything is sent.
    await form.getByText('Your plan streams to 1 destination at a time.').waitFor();
    await form.getByRole('checkbox', { name: /Backup channel/ }).check();
    await form.getByText(errorCatalogue['plan feature unavailable'].message).waitFor();
    await form.getByRole('checkbox', { name: /Backup channel/ }).uncheck();

    // Two restarts at the same minute: the API's 422, shown at the restart times, both rows marked.
    await form.getByRole('button', { name: 'Add a restart time' }).click();
    await form.getByRole('button', { name: 'Add a restart time' }).click();
    expect(await form.getByLabel('Restart time 1', { exact: true }).inputValue()).toBe('03:00');
    expect(await form.getByLabel('Restart time 2', { exact: true }).inputValue()).toBe('15:00');
    await form.getByLabel('Restart time 2', { exact: true }).fill('03:00');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('alert').filter({ hasText: errorCatalogue['duplicate restart times'].message }).waitFor();
    expect(await form.getByLabel('Restart time 1', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Restart time 2', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'app-streams-form-duplicate-restarts-en');

    await form.getByLabel('Restart time 2', { exact: true }).fill('15:30');
    await form.getByRole('button', { name: 'Save changes' }).click();
    // Restart times in the language's one time style (en-US: 12-hour).
    await stream.getByText(new RegExp(`^3:00\\sAM and 3:30\\sPM · ${TIME_ZONE}$`)).waitFor();
    const saved = await api<{ restartTimes: string[]; timeZone: string }>(e2e.stack, 'GET', `/streams/${created.body.id}`, { token });
    expect(saved.body).toMatchObject({ restartTimes: ['03:00', '15:30'], timeZone: TIME_ZONE });

    expect(problems).toEqual([]);
  }, 180_000);

  test('both pages in Russian', async () => {
    const { token } = await creatorWithVideo('ru');
    const videos = await api<{ videos: { id: string }[] }>(e2e.stack, 'GET', '/videos', { token });
    const channel = await api<{ id: string }>(e2e.stack, 'POST', '/channels/rtmp', {
      token,
      body: { name: 'Мой канал', url: 'rtmp://a.rtmp.youtube.com/live2', key: 'abcd-efgh-ijkl-mnop' },
    });
    const ru = catalogue('ru');
    const { page, problems } = await signedInPage(token, { locale: 'ru-RU', realtime: false });
    // A video and a destination, no stream yet: the page says to create the first one, and its button opens the form
    // with the one destination ticked.
    await open(page, '/ru/app/streams', ru.app.pages.streams.title);
    await page.getByText(ru.streams.empty.ready).waitFor();
    await screenshot(page, 'app-streams-empty-ru-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'app-streams-empty-ru-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('.empty-state').getByRole('button', { name: ru.streams.empty.create }).click();
    expect(await page.getByRole('checkbox', { name: /Мой канал/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: ru.streams.form.cancel }).click();
    await page.getByText(ru.streams.empty.ready).waitFor();

    await api(e2e.stack, 'POST', '/streams', {
      token,
      body: {
        title: 'Музыка для учёбы',
        videoId: videos.body.videos[0]!.id,
        channelIds: [channel.body.id],
        restartTimes: ['04:00', '16:00'],
        timeZone: 'Europe/Moscow',
      },
    });
    await open(page, '/ru/app/channels', ru.app.pages.channels.title);
    // What the page will show of a key, as the API shows it: its last four characters only from 12 characters on.
    await page.getByText(ru.channels.rtmp.keyHelp.replace('{{min}}', '12')).waitFor();
    await page.getByRole('heading', { level: 2, name: ru.channels.listTitle }).waitFor();
    await page.getByText('••••mnop').waitFor();
    await screenshot(page, 'app-channels-ru');

    await open(page, '/ru/app/streams', ru.app.pages.streams.title);
    await card(page, 'Музыка для учёбы').locator('[data-status="stopped"]').filter({ hasText: ru.streams.status.stopped }).waitFor();
    await page.getByText('04:00 и 16:00 · Europe/Moscow').waitFor();
    await page.getByRole('button', { name: ru.streams.new }).click();
    await page.getByRole('button', { name: 'Создать трансляцию' }).waitFor();
    await screenshot(page, 'app-streams-ru');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'app-streams-ru-mobile');
    expect(problems).toEqual([]);
  }, 120_000);
});
