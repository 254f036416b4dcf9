// Output quality in Chromium against the local stack (issue 16, item 4): the upload panel's profile and tier, with
// the lowest tier chosen and recommended, what a tier means in traffic and storage, and the plan's missing profiles
// explained with a link to the plans, in all five languages and at phone width; then a Pro creator's choice going
// out as tus metadata, the card saying what was made and why (no upscaling), and a ready video made lighter.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamo/billing-store';
import type { PlanId } from '../../lambdas/core/plans';
import type { Messages } from '../../web/src/i18n/catalogue';
import { languageByCode, languages, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import { signedInUser } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot, screenshotDir } from '../helpers/browser';
import { makeClip } from '../helpers/media';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Messages;
const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name]));
const TRANSCODE_MS = 120_000;

const e2e = browserTestsOnStack();

async function creatorOn(plan: PlanId, label: string) {
  const user = await signedInUser(e2e.stack, label);
  if (plan !== 'trial') {
    const now = new Date();
    await new DynamoBillingStore(e2e.stack.deps.db, e2e.stack.config.tables.app).saveSubscription(
      {
        userId: user.userId,
        plan,
        period: 'month',
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodStart: now.toISOString(),
        currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      },
      Math.floor(now.getTime() / 1000),
    );
  }
  return user;
}

async function videosPage(code: LanguageCode, token: string) {
  const context = await e2e.signedInContext(e2e.stack, token, { viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const pageErrors = recordErrors(page);
  await page.goto(`${e2e.stack.urls.web}${localizePath('/app/videos', languageByCode(code))}`);
  await page.getByRole('heading', { level: 1, name: catalogue(code).app.pages.videos.title, exact: true }).waitFor();
  return { page, pageErrors };
}

/** "1.1 TB" as the page's language writes it. */
const terabytes = (value: number, code: LanguageCode) =>
  new Intl.NumberFormat(languageByCode(code).htmlLang, { style: 'unit', unit: 'terabyte', maximumFractionDigits: 1 }).format(value);

const qualityBox = (page: Page) => page.locator('fieldset.upload-quality');

describe.each(languages.map((language) => [language.code] as const))('the quality choice in %s', (code) => {
  const texts = catalogue(code);
  const quality = texts.videos.quality;
  test('starts at Full HD 30 fps on the recommended lowest tier, says what a tier means, and explains what the plan lacks', async () => {
    const user = await creatorOn('trial', `quality-${code}`);
    const { page, pageErrors } = await videosPage(code, user.token);
    const box = qualityBox(page);
    await box.waitFor();
    const profile = box.getByLabel(quality.picture, { exact: true });
    await expect(profile.inputValue()).resolves.toBe('1080p30');
    const efficient = box.getByRole('radio', { name: new RegExp(`^${quality.tier.low}`) });
    await expect(efficient.isChecked()).resolves.toBe(true);
    await expect(
      box
        .locator('.upload-quality__tier', { has: page.locator('input:checked') })
        .locator('.upload-quality__badge')
        .textContent(),
    ).resolves.toBe(quality.recommended);

    // 3 Mbit/s around the clock: about 1.1 TB a month to each destination (lambdas/core/costs).
    const cost = box.locator('[data-cost]');
    await expect(cost.textContent()).resolves.toContain(fill(quality.traffic, { amount: terabytes(1.1, code) }));

    // The trial has Full HD at 30 fps: 60 fps, 1440p and 4K are shown, disabled, with the plans that have them.
    await expect(profile.locator('option:disabled').count()).resolves.toBe(5);
    await expect(profile.locator('option:enabled').allTextContents()).resolves.toEqual([
      fill(quality.profile, { resolution: '720p', rate: 30 }),
      fill(quality.profile, { resolution: '1080p', rate: 30 }),
    ]);
    const plans = new Intl.ListFormat(languageByCode(code).htmlLang).format([texts.pricing.plans.pro.name, texts.pricing.plans.custom.name]);
    const missing = new Intl.ListFormat(languageByCode(code).htmlLang).format([fill(quality.frameRate, { rate: 60 }), '1440p', '4K']);
    const upgrade = box.locator('[data-upgrade]');
    await expect(upgrade.textContent()).resolves.toContain(fill(quality.upgrade, { features: missing, plans }));
    await expect(upgrade.getByRole('link', { name: texts.videos.upload.seePlans }).getAttribute('href')).resolves.toBe(
      localizePath('/app/billing', languageByCode(code)),
    );
    await screenshot(page, `app-quality-upload-${code}`);

    // The best tier doubles the traffic.
    await box.getByRole('radio', { name: new RegExp(`^${quality.tier.high}`) }).check();
    await expect(cost.textContent()).resolves.toContain(fill(quality.traffic, { amount: terabytes(2.1, code) }));
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `app-quality-upload-${code}-phone`);
    // The phone's fixed bars cover part of a full-page picture: the choice itself, scrolled to the top of the screen.
    await box.evaluate((element) => element.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await page.screenshot({ path: join(screenshotDir, `app-quality-upload-${code}-phone-choice.png`) });
    // Kept for the next visit.
    await page.reload();
    await qualityBox(page).waitFor();
    await expect(
      qualityBox(page)
        .getByRole('radio', { name: new RegExp(`^${quality.tier.high}`) })
        .isChecked(),
    ).resolves.toBe(true);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

test('a Pro creator asks for 1440p at the balanced tier: the upload says so, the card says what was made and why, and the video is made lighter', async () => {
  const texts = catalogue('en');
  const quality = texts.videos.quality;
  const user = await creatorOn('pro', 'quality-pro');
  const { page, pageErrors } = await videosPage('en', user.token);
  const box = qualityBox(page);
  await box.waitFor();
  // Pro has every profile, so no upgrade hint.
  await expect(box.locator('[data-upgrade]').count()).resolves.toBe(0);
  await box.getByLabel(quality.picture, { exact: true }).selectOption('1440p30');
  await box.getByRole('radio', { name: `${quality.tier.medium} · 9 Mbit/s` }).check();
  await screenshot(page, 'app-quality-upload-pro-en');

  const creation = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/uploads'));
  const clip = await makeClip({ seconds: 2, size: '1920x1080', name: 'full-hd.mp4' });
  await page.locator('input[type="file"]').setInputFiles(clip.path);
  const metadata = Object.fromEntries(
    ((await creation).headers()['upload-metadata'] ?? '').split(',').map((pair) => {
      const [key, value = ''] = pair.trim().split(' ');
      return [key, Buffer.from(value, 'base64').toString('utf8')];
    }),
  );
  expect(metadata).toMatchObject({ kind: 'video', profile: '1440p30', tier: 'medium' });

  // A Full HD original is not enlarged to 1440p: made at 1080p, the balanced tier's 4.5 Mbit/s, and the card says why.
  const card = page.locator('.video-card[data-status="ready"]');
  await card.waitFor({ timeout: TRANSCODE_MS });
  const made = fill(quality.output, { profile: fill(quality.profile, { resolution: '1080p', rate: 30 }), bitrate: '4.5 Mbit/s' });
  await card.locator('.video-card__facts [data-quality="1080p30"]', { hasText: made }).waitFor();
  await card.getByText(fill(quality.limited.sourceSize, { asked: '1440p · 30 fps', made: '1080p · 30 fps' })).waitFor();
  await screenshot(page, 'app-quality-card-en');

  // Made lighter: only what is lower than its file is offered.
  await card.getByRole('button', { name: `${quality.change}: full-hd` }).click();
  const dialog = page.getByRole('dialog', { name: fill(quality.changeTitle, { title: 'full-hd' }) });
  await dialog.waitFor();
  const options = (await dialog.getByRole('radio').evaluateAll((inputs) => inputs.map((input) => input.closest('label')?.textContent ?? ''))).map(
    (text) => text.split(' · about')[0],
  );
  expect(options).toEqual(['720p · 30 fps · 4.5 Mbit/s', '1080p · 30 fps · 3 Mbit/s', '720p · 30 fps · 3 Mbit/s']);
  await dialog.getByRole('radio', { name: /^720p · 30 fps · 3 Mbit\/s/ }).check();
  await screenshot(page, 'app-quality-change-dialog-en');
  await dialog.getByRole('button', { name: quality.changeSubmit }).click();
  await page.getByText(fill(quality.changeStarted, { title: 'full-hd', target: '720p · 30 fps · 3 Mbit/s' })).waitFor();
  await page.locator('.video-card[data-status="ready"] [data-quality="720p30"]', { hasText: '720p · 30 fps · 3 Mbit/s' }).waitFor({ timeout: TRANSCODE_MS });
  await expect(page.locator('.video-card__facts').textContent()).resolves.toContain('1280 × 720');
  await screenshot(page, 'app-quality-changed-en');
  // Now the lightest quality there is: no dialog that leads nowhere, the button off with the reason beside it.
  const changeButton = card.getByRole('button', { name: `${quality.change}: full-hd` });
  await expect(changeButton.isDisabled()).resolves.toBe(true);
  const reason = await changeButton.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${reason}"]`).textContent()).resolves.toBe(quality.nothingLower);
  await screenshot(page, 'app-quality-lightest-en-1360');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'app-quality-lightest-en-390');
  expect(pageErrors).toEqual([]);
}, 300_000);
