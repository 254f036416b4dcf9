// The Videos page in Chromium against the local stack: a generated clip uploaded through the real UI (Uppy, tus),
// watched from encoding to ready with its thumbnail on the open page (realtime), renamed and deleted; an upload cut
// off halfway resumes after a reload from where it stopped; refusals show translated; uploads work without local
// storage.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { languageByCode, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import type { Messages } from '../../web/src/i18n/catalogue';
import { PARALLEL_MIN_BYTES, PARALLEL_UPLOADS } from '../../web/src/features/videos/upload-settings';
import { api, signedInUser } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { makeClip } from '../helpers/media';
import { waitFor } from '../helpers/wait';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Messages;
const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name]));
const CHUNK_BYTES = 4 * 1024 * 1024;
const TRANSCODE_MS = 120_000;

const e2e = browserTestsOnStack();
afterEach(() => {
  e2e.stack.deps.now = () => new Date();
});

/** A signed-in user's Videos page, under the local server's real Content-Security-Policy (realtime included). */
async function videosPage(code: LanguageCode, init?: () => void) {
  const user = await signedInUser(e2e.stack, `videos-${code}`);
  const context = await e2e.signedInContext(e2e.stack, user.token, { viewport: { width: 1360, height: 900 } });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const pageErrors = recordErrors(page);
  await page.goto(`${e2e.stack.urls.web}${localizePath('/app/videos', languageByCode(code))}`);
  await page.getByRole('heading', { level: 1, name: catalogue(code).app.pages.videos.title, exact: true }).waitFor();
  return { user, page, pageErrors };
}

const chooseFiles = (page: Page, ...paths: string[]) => page.locator('input[type="file"]').setInputFiles(paths);
const card = (page: Page, status?: string) => page.locator(status ? `.video-card[data-status="${status}"]` : '.video-card');

describe.each(['en', 'ua'] as const)('the Videos page in %s', (code) => {
  const texts = catalogue(code);
  test('upload -> encoding -> ready with a thumbnail on the open page (realtime) -> rename -> delete', async () => {
    const { page, pageErrors } = await videosPage(code);
    await page.getByRole('heading', { name: texts.app.pages.videos.emptyTitle }).waitFor();
    await page.locator('.app-shell[data-realtime="open"]').waitFor();
    await page
      .locator('[data-limit="storage"] .usage-meter__value', {
        hasText: fill(texts.billing.usedOf, {
          used: new Intl.NumberFormat(languageByCode(code).htmlLang, { style: 'unit', unit: 'kilobyte' }).format(0),
          limit: new Intl.NumberFormat(languageByCode(code).htmlLang, { style: 'unit', unit: 'gigabyte' }).format(5),
        }),
      })
      .waitFor();
    await screenshot(page, `app-videos-empty-${code}`);
    await page.evaluate(() => ((window as { stillTheSamePage?: boolean }).stillTheSamePage = true));

    const clip = await makeClip({ seconds: 3, name: 'sunset_clip.mp4' });
    await chooseFiles(page, clip.path);
    await card(page).waitFor({ timeout: 30_000 });
    await expect(card(page).locator('.video-title__text').textContent()).resolves.toBe('sunset clip');
    await card(page, 'ready').waitFor({ timeout: TRANSCODE_MS });
    const thumbnail = card(page).locator('img.video-card__thumbnail');
    await thumbnail.waitFor();
    // The picture once it has loaded (decode() waits for that, and fails for a broken one): the card can show before
    // its bytes arrive, and a check at once failed on a loaded machine. It loads lazily, so in view.
    await thumbnail.scrollIntoViewIfNeeded();
    await expect(thumbnail.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth > 0))).resolves.toBe(true);
    await page.getByText(texts.videos.status.ready, { exact: true }).waitFor();
    const facts = await card(page).locator('.video-card__facts').textContent();
    expect(facts).toContain(texts.videos.kind.video);
    // The 640x360 clip is not scaled up to the Full HD asked by default: it streams at the lowest rung, and says why.
    const quality = texts.videos.quality;
    const made = fill(quality.profile, { resolution: '720p', rate: 30 });
    expect(facts).toContain('1280 × 720');
    expect(facts).toContain(fill(quality.output, { profile: made, bitrate: fill(quality.mbps, { value: 3 }) }));
    await card(page)
      .getByText(fill(quality.limited.sourceSize, { asked: fill(quality.profile, { resolution: '1080p', rate: 30 }), made }))
      .waitFor();
    expect(facts).toContain('0:03');
    await expect(page.locator('.upload-row').count()).resolves.toBe(0);
    // No reload happened: realtime brought the changes, and polling is off while it is connected.
    await expect(page.evaluate(() => (window as { stillTheSamePage?: boolean }).stillTheSamePage)).resolves.toBe(true);
    await page.locator('[data-limit="storage"] .usage-meter__value').filter({ hasNotText: /^0\s/ }).waitFor();
    await screenshot(page, `app-videos-ready-${code}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `app-videos-ready-${code}-phone`);
    await page.setViewportSize({ width: 1360, height: 900 });

    // Rename in place: Enter saves, and the new title is what the API keeps.
    await card(page).getByRole('button', { name: texts.videos.rename.button }).click();
    const titleInput = page.getByLabel(texts.videos.rename.label);
    await titleInput.fill('Sunset, 24/7');
    await titleInput.press('Enter');
    await card(page).locator('.video-title__text', { hasText: 'Sunset, 24/7' }).waitFor();
    await page.reload();
    await card(page).locator('.video-title__text', { hasText: 'Sunset, 24/7' }).waitFor();

    // Delete after confirming in the dialog; the storage goes back to nothing.
    await card(page).getByRole('button', { name: texts.videos.delete.button }).click();
    const dialog = page.getByRole('dialog', { name: fill(texts.videos.delete.title, { title: 'Sunset, 24/7' }) });
    await dialog.waitFor();
    await screenshot(page, `app-videos-delete-dialog-${code}`);
    await dialog.getByRole('button', { name: texts.videos.delete.confirm }).click();
    await page.getByRole('heading', { name: texts.app.pages.videos.emptyTitle }).waitFor();
    await page.locator('[data-limit="storage"] .usage-meter__value').filter({ hasText: /^0\s/ }).waitFor();
    expect(pageErrors).toEqual([]);
  }, 180_000);
});

test('an upload cut off halfway resumes after a reload from where it stopped, not from zero', async () => {
  const texts = catalogue('en');
  const { page } = await videosPage('en');
  const clip = await makeClip({ seconds: 6, size: '1920x1080', name: 'long-take.mp4' });
  expect(clip.bytes.length).toBeGreaterThan(2 * CHUNK_BYTES);

  // The first chunk goes through; then the network "drops" every further chunk.
  let patches = 0;
  await page.route(/\/api\/uploads\/[0-9a-f]+$/, (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    patches += 1;
    return patches === 1 ? route.continue() : route.abort('connectionreset');
  });
  await chooseFiles(page, clip.path);
  // Uppy retries (0, 1, 3 and 5 s), then gives up and says why.
  await page.locator('.upload-row[data-state="failed"]').waitFor({ timeout: 30_000 });
  await page.getByText(texts.errors['network error']).waitFor();
  const remembered = await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')));
  expect(remembered).toHaveLength(1);

  // Back later: the page lists the unfinished upload; choosing the same file continues it.
  await page.unrouteAll();
  await page.reload();
  await page.getByRole('heading', { name: texts.videos.unfinished.title }).waitFor();
  await page.getByText('long-take.mp4').waitFor();
  await screenshot(page, 'app-videos-unfinished-en');
  const requests: Request[] = [];
  page.on('request', (request) => void (request.url().includes('/api/uploads') && requests.push(request)));
  await chooseFiles(page, clip.path);
  await card(page).waitFor({ timeout: 30_000 });

  expect(requests.filter((request) => request.method() === 'POST')).toEqual([]);
  expect(requests[0]?.method()).toBe('HEAD');
  const offsets = requests.filter((request) => request.method() === 'PATCH').map((request) => Number(request.headers()['upload-offset']));
  expect(offsets[0]).toBe(CHUNK_BYTES);
  await expect(page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')))).resolves.toEqual([]);
  await page.getByRole('heading', { name: texts.videos.unfinished.title }).waitFor({ state: 'detached' });
}, 180_000);

test('a large file goes as partial uploads at once, joined by a final upload, and resumes each of them after a reload', async () => {
  const texts = catalogue('en');
  const { user, page } = await videosPage('en');
  // A real clip with filler after it, just over the size from which the web app sends partial uploads.
  const clip = await makeClip({ seconds: 2, name: 'big-take.mp4' });
  const bytes = Buffer.concat([clip.bytes, randomBytes(PARALLEL_MIN_BYTES + CHUNK_BYTES - clip.bytes.length + 12_345)]);
  const path = join(dirname(clip.path), 'big-take.mp4');
  writeFileSync(path, bytes);

  // Each partial upload's first chunk goes through; then the network drops every further chunk, and the creator
  // closes the tab (the first test waits for Uppy to give up and say why; here that would be a minute of retries).
  const patched = new Set<string>();
  let patchesStored = 0;
  await page.route(/\/api\/uploads\/[0-9a-f]+$/, async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    if (patched.has(route.request().url())) return route.abort('connectionreset');
    patched.add(route.request().url());
    const response = await route.fetch();
    if (response.status() === 204) patchesStored += 1;
    return route.fulfill({ response });
  });
  const firstTry: Request[] = [];
  page.on('request', (request) => void (request.url().includes('/api/uploads') && firstTry.push(request)));
  await chooseFiles(page, path);
  const rememberedUploads = () =>
    page.evaluate(() =>
      Object.entries(localStorage)
        .filter(([key]) => key.startsWith('tus::'))
        .map(([, value]) => JSON.parse(value) as { parallelUploadUrls?: string[] }),
    );
  await waitFor(
    'every partial upload created, its first chunk stored and the upload remembered',
    async () => ({ patchesStored, remembered: (await rememberedUploads())[0]?.parallelUploadUrls?.length ?? 0 }),
    ({ patchesStored: stored, remembered }) => stored === PARALLEL_UPLOADS && remembered === PARALLEL_UPLOADS,
  );
  page.removeAllListeners('request');
  const partialPosts = firstTry.filter((request) => request.method() === 'POST' && request.headers()['upload-concat'] === 'partial');
  expect(partialPosts).toHaveLength(PARALLEL_UPLOADS);
  expect(await rememberedUploads()).toHaveLength(1);

  // After a reload, choosing the same file resumes every partial upload where it stopped, then joins them.
  await page.unrouteAll();
  await page.reload();
  await page.getByRole('heading', { name: texts.videos.unfinished.title }).waitFor();
  const requests: Request[] = [];
  page.on('request', (request) => void (request.url().includes('/api/uploads') && requests.push(request)));
  await chooseFiles(page, path);
  await card(page).waitFor({ timeout: 60_000 });
  const posts = requests.filter((request) => request.method() === 'POST');
  expect(posts.map((request) => request.headers()['upload-concat']?.split(';')[0])).toEqual(['final']);
  expect(requests.filter((request) => request.method() === 'HEAD')).toHaveLength(PARALLEL_UPLOADS);
  // No partial upload started again from zero.
  const resumedOffsets = requests.filter((request) => request.method() === 'PATCH').map((request) => Number(request.headers()['upload-offset']));
  expect(resumedOffsets).not.toContain(0);

  // One item, of the file's size (test/api/uploads-parallel.test.ts checks the joined bytes).
  const { body } = await api<{ videos: { fileName: string; sizeBytes: number }[] }>(e2e.stack, 'GET', '/videos', { token: user.token });
  expect(body.videos.filter((item) => item.fileName === 'big-take.mp4').map((item) => item.sizeBytes)).toEqual([bytes.length]);
  // The browser forgets the finished upload when the final request's answer reaches it, which can come after the
  // item shows (realtime announces it as the server completes the upload).
  await waitFor(
    'the finished upload forgotten by the browser',
    () => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::'))),
    (keys) => keys.length === 0,
    15_000,
  );
}, 300_000);

test('refusals show translated, with what to do: a file that is not video or audio, and an upload without an active plan', async () => {
  const texts = catalogue('ua');
  const { page, user } = await videosPage('ua');
  const notes = join(import.meta.dirname, '../../README.md');
  await chooseFiles(page, notes);
  // Plain words and the accepted formats, not Uppy's list of MIME types.
  await page.locator('.upload-refusals').getByText(texts.videos.upload.wrongType.replace('{{name}}', 'README.md')).waitFor();
  await expect(page.getByText(/video\/\*/).count()).resolves.toBe(0);

  // Three days later the trial is over, and the open page has not heard yet (realtime is open, so it does not
  // poll; the clip is made first to keep the moment short): the upload endpoint refuses with 402.
  await page.locator('.app-shell[data-realtime="open"]').waitFor();
  const clip = await makeClip({ seconds: 1, name: 'late.mp4' });
  e2e.stack.deps.now = () => new Date(Date.now() + 73 * 3600_000);
  await chooseFiles(page, clip.path);
  const refused = page.locator('.upload-row[data-state="failed"]');
  await refused.getByText(texts.errors['no active subscription']).waitFor();
  // What to do next, and no "Try again" that cannot help.
  await refused.getByText(texts.videos.blocked.noPlan).waitFor();
  await expect(refused.getByRole('button', { name: texts.videos.upload.retry }).count()).resolves.toBe(0);
  await screenshot(page, 'app-videos-refused-ua');

  // A session that ended meanwhile: the upload endpoint's 401. The clip is made first: any API call the page makes
  // after the logout ends its session and opens the login page, so the file is chosen at once.
  const other = await makeClip({ seconds: 1, name: 'signed-out.mp4' });
  e2e.stack.deps.now = () => new Date();
  await api(e2e.stack, 'POST', '/logout', { token: user.token });
  await chooseFiles(page, other.path);
  await page.locator('.upload-row[data-state="failed"]', { hasText: 'signed-out.mp4' }).getByText(texts.errors['uploader token error']).waitFor();
}, 60_000);

test('uploads work when local storage refuses every write (nothing to resume, nothing breaks)', async () => {
  const { page, pageErrors } = await videosPage('en', () => {
    Storage.prototype.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  const clip = await makeClip({ seconds: 2, name: 'no-storage.mp4' });
  await chooseFiles(page, clip.path);
  await card(page).waitFor({ timeout: 30_000 });
  await expect(page.evaluate(() => Object.keys(localStorage).length)).resolves.toBe(0);
  expect(pageErrors).toEqual([]);
}, 60_000);
