// The playlist editor in Chromium against a local stack with its nginx-rtmp test destination: a stream made in the
// form from three videos (one moved up, shuffled), started; on its page, while it plays, the running editor names
// the video playing and saves an edit for the next restart; a video of another picture size named in the form, with
// what to do, before anything is sent. Screenshots of the form and of the running editor in all five languages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, signedInUser } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';

type PlaylistText =
  | 'useIt'
  | 'add'
  | 'items'
  | 'moveUp'
  | 'moveDown'
  | 'shuffle'
  | 'limit_other'
  | 'summaryShuffled_other'
  | 'summary_other'
  | 'editTitle'
  | 'playing'
  | 'applyRestart'
  | 'save'
  | 'savedRestart'
  | 'differs'
  | 'mismatch'
  | 'mismatchItem'
  | 'mismatchFix'
  | 'shape'
  | 'remove';
type Catalogue = {
  app: { pages: { streams: { title: string } } };
  streams: { new: string; form: { title: string; create: string }; playlist: Record<PlaylistText, string> };
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

test('a playlist made in the form, started, and edited while it plays (for the next restart); in five languages', async () => {
  const user = await signedInUser(e2e.stack, 'playlister');
  const titles = ['Sunrise', 'Rain on glass', 'Night city'];
  const videoIds: string[] = [];
  for (const [i, title] of titles.entries()) {
    const clip = await makeClip({ seconds: 3 + i });
    const id = await uploadWithTus(e2e.stack, user.token, clip.bytes, { filename: `${title}.mp4`, filetype: 'video/mp4', kind: 'video' });
    expect((await waitForItem(e2e.stack, user.token, id)).status).toBe('ready');
    videoIds.push(id);
  }
  const channel = await api(e2e.stack, 'POST', '/channels/rtmp', {
    token: user.token,
    body: { name: 'Local test server', url: e2e.stack.urls.rtmp, key: `playlist-${user.userId.slice(0, 8)}` },
  });
  expect(channel.status).toBe(201);

  const context = await e2e.signedInContext(e2e.stack, user.token, { locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = recordErrors(page, { console: 'except failed loads' });
  await page.goto(`${e2e.stack.urls.web}/app/streams`);
  await page.getByRole('heading', { level: 1, name: en.app.pages.streams.title }).waitFor();
  await page.getByRole('button', { name: en.streams.new }).click();
  await page.getByLabel(en.streams.form.title, { exact: true }).fill('Three moods');
  await page.getByRole('checkbox', { name: en.streams.playlist.useIt }).check();
  for (const title of titles) await page.getByLabel(en.streams.playlist.add).selectOption({ label: title });
  const items = page.getByRole('list', { name: en.streams.playlist.items }).getByRole('listitem');
  expect(await items.allTextContents()).toEqual([
    expect.stringContaining('Sunrise'),
    expect.stringContaining('Rain on glass'),
    expect.stringContaining('Night city'),
  ]);
  await page.getByRole('button', { name: en.streams.playlist.moveUp.replace('{{title}}', 'Night city') }).click();
  expect(await items.allTextContents()).toEqual([
    expect.stringContaining('Sunrise'),
    expect.stringContaining('Night city'),
    expect.stringContaining('Rain on glass'),
  ]);
  await page.getByRole('checkbox', { name: en.streams.playlist.shuffle }).check();
  await page.getByText(en.streams.playlist.limit_other.replace('{{count}}', '5')).waitFor();
  await page.getByRole('checkbox', { name: /Local test server/ }).check();
  await screenshot(page, 'app-playlist-form-en');
  await page.getByRole('button', { name: en.streams.form.create }).click();
  await page.getByText(en.streams.playlist.summaryShuffled_other.replace('{{count}}', '3')).waitFor();

  const { body: listed } = await api(e2e.stack, 'GET', '/streams', { token: user.token });
  const stream = listed.streams.find((s: { title: string }) => s.title === 'Three moods');
  expect(stream).toMatchObject({ videoId: videoIds[0], playlist: { videoIds: [videoIds[0], videoIds[2], videoIds[1]], shuffle: true, revision: 0 } });
  expect((await api(e2e.stack, 'POST', `/streams/${stream.id}/start`, { token: user.token })).status).toBe(200);
  await waitForStreamStatus(e2e.stack, user.token, stream.id, 'started', 120_000);
  // The first heartbeat names the video playing (heartbeats come every 30 s).
  const deadline = Date.now() + 60_000;
  while (!(await api(e2e.stack, 'GET', `/streams/${stream.id}`, { token: user.token })).body.health?.playlist) {
    if (Date.now() > deadline) throw new Error('no heartbeat with the playlist');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }

  // The running editor in every language.
  for (const language of languages) {
    const texts = catalogue(language.code).streams.playlist;
    await page.goto(`${e2e.stack.urls.web}${language.prefix}/app/streams/${stream.id}`);
    await page.getByRole('heading', { level: 2, name: texts.editTitle }).waitFor();
    await page.getByText(texts.playing.split('{{title}}')[0]!.trim()).first().waitFor();
    await page.getByText(texts.applyRestart).waitFor();
    await screenshot(page, `app-playlist-running-${language.code}`);
  }

  // Back in English: Sunrise goes last, applied at the next restart.
  await page.goto(`${e2e.stack.urls.web}/app/streams/${stream.id}`);
  const editor = page.locator('form.playlist-editor');
  await editor.getByRole('button', { name: en.streams.playlist.moveDown.replace('{{title}}', 'Sunrise') }).click();
  await editor.getByRole('button', { name: en.streams.playlist.moveDown.replace('{{title}}', 'Sunrise') }).click();
  await editor.getByRole('radio', { name: en.streams.playlist.applyRestart }).check();
  await editor.getByRole('button', { name: en.streams.playlist.save }).click();
  await page.getByText(en.streams.playlist.savedRestart).waitFor();
  const { body: edited } = await api(e2e.stack, 'GET', `/streams/${stream.id}`, { token: user.token });
  expect(edited).toMatchObject({
    status: 'started',
    videoId: videoIds[2],
    playlist: { videoIds: [videoIds[2], videoIds[1], videoIds[0]], revision: 1, apply: 'restart' },
  });
  await screenshot(page, 'app-playlist-saved-en');

  expect((await api(e2e.stack, 'POST', `/streams/${stream.id}/stop`, { token: user.token })).status).toBe(200);
  expect(problems).toEqual([]);
}, 420_000);

test('a video of another picture size is named in the form, with what to do, and nothing is sent until it is gone; in five languages', async () => {
  const user = await signedInUser(e2e.stack, 'playlist-sizes');
  const videos: { id: string; title: string; width: number; height: number }[] = [];
  for (const [title, size] of [
    ['Harbour', '640x360'],
    ['Wide city', '1920x1080'],
    ['Forest', '640x360'],
  ] as const) {
    const clip = await makeClip({ seconds: 2, size });
    const id = await uploadWithTus(e2e.stack, user.token, clip.bytes, { filename: `${title}.mp4`, filetype: 'video/mp4', kind: 'video' });
    const item = await waitForItem(e2e.stack, user.token, id);
    expect(item.status).toBe('ready');
    videos.push({ id, title, width: item.width!, height: item.height! });
  }
  const [first, wide] = videos as [(typeof videos)[0], (typeof videos)[0]];
  expect(`${wide.width}x${wide.height}`).not.toBe(`${first.width}x${first.height}`);
  const channel = await api(e2e.stack, 'POST', '/channels/rtmp', {
    token: user.token,
    body: { name: 'Local test server', url: e2e.stack.urls.rtmp, key: `sizes-${user.userId.slice(0, 8)}` },
  });
  expect(channel.status).toBe(201);
  const fill = (template: string, values: Record<string, string | number>) =>
    template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));

  for (const language of languages) {
    const texts = catalogue(language.code);
    const playlist = texts.streams.playlist;
    const context = await e2e.signedInContext(e2e.stack, user.token, { locale: language.locale, timezoneId: 'UTC', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = recordErrors(page, { console: 'except failed loads' });
    await page.goto(`${e2e.stack.urls.web}${language.prefix}/app/streams`);
    await page.getByRole('heading', { level: 1, name: texts.app.pages.streams.title }).waitFor();
    await page.getByRole('button', { name: texts.streams.new }).click();
    await page.getByLabel(texts.streams.form.title, { exact: true }).fill('Sizes');
    await page.getByRole('checkbox', { name: playlist.useIt }).check();
    for (const video of videos) await page.getByLabel(playlist.add).selectOption({ label: video.title });
    await page.getByRole('checkbox', { name: /Local test server/ }).check();

    // The notice names the first video and the one that differs, with their sizes, and the way out.
    const notice = page.locator('.playlist-field__mismatch');
    const shape = (video: (typeof videos)[0]) => fill(playlist.shape, { width: video.width, height: video.height, rate: 30 });
    await notice.getByText(fill(playlist.mismatch, { first: first.title, shape: shape(first) })).waitFor();
    await notice.getByText(fill(playlist.mismatchItem, { title: wide.title, shape: shape(wide) })).waitFor();
    await notice.getByText(playlist.mismatchFix).waitFor();
    expect(await notice.getAttribute('role')).toBe('alert');
    const items = page.getByRole('list', { name: playlist.items }).getByRole('listitem');
    expect(await items.evaluateAll((rows) => rows.map((row) => row.hasAttribute('data-mismatch')))).toEqual([false, true, false]);
    await items.nth(1).getByText(playlist.differs).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `app-playlist-sizes-${language.code}`);

    // Create sends nothing while the notice stands.
    const streamCount = async () => (await api(e2e.stack, 'GET', '/streams', { token: user.token })).body.streams.length as number;
    const before = await streamCount();
    await page.getByRole('button', { name: texts.streams.form.create }).click();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await streamCount()).toBe(before);
    await notice.waitFor();

    if (language.code === 'en') {
      // Without the video that differs, the notice goes and the playlist is created.
      await page.getByRole('button', { name: fill(playlist.remove, { title: wide.title }) }).click();
      await notice.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: texts.streams.form.create }).click();
      await page.getByText(fill(texts.streams.playlist.summary_other, { count: 2, first: first.title })).waitFor();
      const { body } = await api(e2e.stack, 'GET', '/streams', { token: user.token });
      expect(body.streams).toEqual([
        expect.objectContaining({ title: 'Sizes', playlist: expect.objectContaining({ videoIds: [videos[0]!.id, videos[2]!.id] }) }),
      ]);
    }
    expect(problems).toEqual([]);
    await context.close();
  }
}, 300_000);
