// Schedules in Chromium against a local stack with its nginx-rtmp test destination and EventBridge Scheduler's
// stand-in: a stream made in the form with a weekly timetable (the API's refusal of overlapping windows shown at
// the schedule) and a Sunday restart; the card's schedule and next start and stop; the schedule editor on its own,
// once with a stop after a duration; a scheduled start that puts the stream on air with nobody clicking, and the
// editor while it is live; the timeline's words. The editor and the card in five languages at 1366 and 390 px, with
// screenshots.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { wallClockMs } from '../../lambdas/core/wall-clock';
import { api } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';
import { creatorWithDestination } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';

type Catalogue = {
  app: { pages: { streams: { title: string } } };
  errors: Record<string, string>;
  streams: {
    new: string;
    card: { onAir: string; editSchedule: string; edit: string };
    form: { create: string; cancel: string; addRestartTime: string; restartDay: string; description: string; save: string; saved: string };
    schedule: {
      title: string;
      save: string;
      runningNote: string;
      addWindow: string;
      startAt: string;
      stopAt: string;
      mode: Record<'none' | 'once' | 'weekly', string>;
      stopMode: Record<'none' | 'at' | 'after', string>;
      windowStart: string;
      windowStop: string;
      windowDay: string;
      check: Record<string, string>;
    };
    history: { event: Record<string, { title: string }> };
  };
};
const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;
const en = catalogue('en');
const numbered = (text: string, number: number) => text.replace('{{number}}', String(number));

const TIME_ZONE = 'Europe/Berlin';
const desktop = { viewport: { width: 1366, height: 900 } };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const languages = [
  { code: 'en', prefix: '', locale: 'en-US' },
  { code: 'es', prefix: '/es', locale: 'es-ES' },
  { code: 'ua', prefix: '/ua', locale: 'uk-UA' },
  { code: 'ru', prefix: '/ru', locale: 'ru-RU' },
  { code: 'hi', prefix: '/hi', locale: 'hi-IN' },
] as const;

const e2e = browserTestsOnStack({ rtmp: true }, 120_000);

async function pageFor(token: string, language: (typeof languages)[number], size: typeof desktop | typeof phone) {
  const context = await e2e.signedInContext(e2e.stack, token, { locale: language.locale, timezoneId: TIME_ZONE, ...size });
  const page = await context.newPage();
  return { page, problems: recordErrors(page, { console: 'except failed loads' }) };
}

const cardOf = (page: Page, title: string) =>
  page.locator('[data-stream-id]').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });
/** The zone's wall clock at an instant, as the schedule takes it. */
const wallAt = (instant: number, timeZone: string) => new Date(wallClockMs(instant, timeZone)).toISOString().slice(0, 19);

describe('stream schedules', () => {
  test("a weekly timetable and a weekday restart made in the form; the card's next start and stop; once, with a stop after a duration; five languages", async () => {
    const creator = await creatorWithDestination(e2e.stack, 'timetable');
    const { page, problems } = await pageFor(creator.token, languages[0], desktop);
    await page.goto(`${e2e.stack.urls.web}/app/streams`);
    await page.getByRole('heading', { level: 1, name: en.app.pages.streams.title }).waitFor();
    await page.getByRole('button', { name: en.streams.new }).click();
    await page.getByLabel('Title').fill('Weekday mornings');
    await page.getByLabel('Video', { exact: true }).selectOption({ index: 1 });
    await page.getByRole('checkbox', { name: /Local test server/ }).check();

    // A restart on Sundays only.
    await page.getByRole('button', { name: en.streams.form.addRestartTime }).click();
    await page.getByLabel(numbered(en.streams.form.restartDay, 1)).selectOption({ label: 'Sunday' });

    // The timetable: Monday 09:00-17:00 is the first window; the next is added on Tuesday; a third overlapping the
    // first is refused by the API, shown at the schedule, and nothing is created.
    const schedule = page.getByRole('group', { name: en.streams.schedule.title, exact: true });
    await schedule.getByRole('radio', { name: en.streams.schedule.mode.weekly }).check();
    await schedule.getByRole('button', { name: en.streams.schedule.addWindow }).click();
    await schedule.getByRole('button', { name: en.streams.schedule.addWindow }).click();
    await schedule.getByLabel(numbered(en.streams.schedule.windowDay, 3)).selectOption({ label: 'Monday' });
    await schedule.getByLabel(numbered(en.streams.schedule.windowStart, 3)).fill('16:00');
    await schedule.getByLabel(numbered(en.streams.schedule.windowStop, 3)).fill('18:00');
    await page.getByRole('button', { name: en.streams.form.create }).click();
    await schedule.getByRole('alert').filter({ hasText: en.errors['schedule windows overlap']! }).waitFor();
    expect(await schedule.locator('[aria-invalid="true"]').count()).toBe(9);
    expect((await api(e2e.stack, 'GET', '/streams', { token: creator.token })).body.streams).toEqual([]);
    await screenshot(page, 'schedule-form-overlap-en-1366');
    await schedule.getByLabel(numbered(en.streams.schedule.windowDay, 3)).selectOption({ label: 'Wednesday' });
    await page.getByRole('button', { name: en.streams.form.create }).click();

    const card = cardOf(page, 'Weekday mornings');
    await card.locator('[data-status="stopped"]').waitFor();
    const streamId = (await card.getAttribute('data-stream-id'))!;
    const stored = (await api(e2e.stack, 'GET', `/streams/${streamId}`, { token: creator.token })).body;
    expect(stored).toMatchObject({
      restartTimes: ['sun 03:00'],
      timeZone: TIME_ZONE,
      schedule: {
        kind: 'weekly',
        windows: [
          { day: 'mon', start: '09:00', stop: '17:00' },
          { day: 'tue', start: '09:00', stop: '17:00' },
          { day: 'wed', start: '16:00', stop: '18:00' },
        ],
      },
    });
    // The card: the windows, the next start and stop in the stream's zone, the Sunday restart.
    const onAir = card.locator('[data-schedule="weekly"]');
    expect(await onAir.locator('dd > span').first().textContent()).toMatch(/^Mon 9:00\sAM–5:00\sPM, Tue 9:00\sAM–5:00\sPM, Wed 4:00\sPM–6:00\sPM$/);
    const next = (which: 'start' | 'stop') => onAir.locator(`[data-next="${which}"]`).textContent();
    const nextStart = new Date(stored.nextStartAt);
    const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: TIME_ZONE }).format(nextStart);
    expect(await next('start')).toMatch(new RegExp(`^Next start: ${weekday}, (9:00\\sAM|4:00\\sPM) GMT\\+\\d$`));
    expect(await next('stop')).toMatch(/^Next stop: (Mon|Tue|Wed), (5|6):00\sPM GMT\+\d$/);
    expect(await card.getByText(/^Sun 3:00\sAM · Europe\/Berlin$/).count()).toBe(1);

    // The editor and the card in five languages, on a desktop and a phone.
    for (const language of languages) {
      const words = catalogue(language.code);
      for (const [size, width] of [
        [desktop, 1366],
        [phone, 390],
      ] as const) {
        const view = language.code === 'en' && size === desktop ? page : (await pageFor(creator.token, language, size)).page;
        await view.goto(`${e2e.stack.urls.web}${language.prefix}/app/streams`);
        const listed = cardOf(view, 'Weekday mornings');
        await listed.locator('[data-next="start"]').waitFor();
        expect(await listed.locator('[data-schedule="weekly"] dt').textContent()).toBe(words.streams.card.onAir);
        await screenshot(view, `schedule-card-${language.code}-${width}`);
        await listed.getByRole('button', { name: words.streams.card.editSchedule, exact: true }).click();
        const editor = view.locator('[data-editing="schedule"]');
        await editor.locator('.stream-windows__row').nth(2).waitFor();
        expect(await editor.getByRole('radio', { name: words.streams.schedule.mode.weekly }).isChecked()).toBe(true);
        expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(view, `schedule-editor-weekly-${language.code}-${width}`);
        await editor.getByRole('radio', { name: words.streams.schedule.mode.once }).check();
        await editor.getByRole('radio', { name: words.streams.schedule.stopMode.after }).check();
        expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(view, `schedule-editor-once-${language.code}-${width}`);
      }
    }

    // Once: tomorrow at 09:00 in the stream's zone (the suggestion is the next whole hour), for 1 h 30 min.
    const editor = page.locator('[data-editing="schedule"]');
    const tomorrow = new Date(wallClockMs(Date.now(), TIME_ZONE) + 86_400_000).toISOString().slice(0, 10);
    await editor.getByLabel(en.streams.schedule.startAt).fill(`${tomorrow}T09:00`);
    await editor.getByRole('spinbutton').first().fill('1');
    await editor.getByRole('spinbutton').nth(1).fill('30');
    await editor.getByRole('button', { name: en.streams.schedule.save }).click();
    await card.locator('[data-schedule="once"]').waitFor();
    const once = (await api(e2e.stack, 'GET', `/streams/${streamId}`, { token: creator.token })).body;
    expect(once.schedule).toEqual({ kind: 'once', startAt: `${tomorrow}T09:00`, durationMinutes: 90 });
    expect(Date.parse(once.nextStopAt) - Date.parse(once.nextStartAt)).toBe(90 * 60_000);
    expect(await card.locator('[data-next="start"]').textContent()).toMatch(/^Next start: \w{3}, 9:00\sAM GMT\+\d$/);
    expect(await card.locator('[data-next="stop"]').textContent()).toMatch(/^Next stop: \w{3}, 10:30\sAM GMT\+\d$/);
    await screenshot(page, 'schedule-card-once-en-1366');
    expect(problems).toEqual([]);
  }, 300_000);

  test('a scheduled start puts the stream on air with nobody clicking; live, only the schedule can be edited; its stop takes it off air; the timeline says why', async () => {
    const creator = await creatorWithDestination(e2e.stack, 'onair');
    const startAt = Math.ceil(Date.now() / 1000) * 1000 + 12_000;
    const stopAt = startAt + 20_000;
    const created = await api(e2e.stack, 'POST', '/streams', {
      token: creator.token,
      body: {
        title: 'Morning show',
        videoId: creator.videoId,
        channelIds: [creator.channelId],
        timeZone: TIME_ZONE,
        schedule: { kind: 'once', startAt: wallAt(startAt, TIME_ZONE), stopAt: wallAt(stopAt, TIME_ZONE) },
      },
    });
    expect(created.status).toBe(201);
    const streamId = created.body.id as string;

    const { page, problems } = await pageFor(creator.token, languages[3], desktop);
    const ru = catalogue('ru');
    await page.goto(`${e2e.stack.urls.web}/ru/app/streams`);
    const card = cardOf(page, 'Morning show');
    await card.locator('[data-status="started"]').waitFor({ timeout: 45_000 });
    // Live: the stream's settings are locked, its schedule is not.
    expect(await card.getByRole('button', { name: ru.streams.card.edit, exact: true }).isDisabled()).toBe(true);
    await card.getByRole('button', { name: ru.streams.card.editSchedule, exact: true }).click();
    const editor = page.locator('[data-editing="schedule"]');
    await editor.getByText(ru.streams.schedule.runningNote).waitFor();
    expect(await editor.getByRole('radio', { name: ru.streams.schedule.mode.once }).isChecked()).toBe(true);
    expect(await editor.getByRole('radio', { name: ru.streams.schedule.stopMode.at }).isChecked()).toBe(true);
    await screenshot(page, 'schedule-editor-live-ru-1366');
    await editor.getByRole('button', { name: ru.streams.form.cancel }).click();

    await card.locator('[data-status="stopped"]').waitFor({ timeout: 45_000 });
    await waitForStreamStatus(e2e.stack, creator.token, streamId, 'stopped', 10_000);
    await card.getByRole('link', { name: 'Morning show' }).click();
    await page.locator('.stream-event[data-kind="stopped"]').waitFor();
    const titleOf = (kind: string) => page.locator(`.stream-event[data-kind="${kind}"] .stream-event__title`).first().textContent();
    expect(await titleOf('started')).toBe(ru.streams.history.event.startedBySchedule!.title);
    expect(await titleOf('stopped')).toBe(ru.streams.history.event.stoppedBySchedule!.title);
    expect(await page.locator('.stream-event[data-kind="stopped"] .stream-event__detail').count()).toBe(0);
    // Nothing left of a one-time schedule whose stop has passed.
    expect(await page.locator('[data-schedule="once"] [data-next]').count()).toBe(0);
    await screenshot(page, 'schedule-history-ru-1366');

    // The schedule has run ("Once: done"): editing anything else saves, the schedule stays as it was.
    await page.getByRole('button', { name: ru.streams.card.edit, exact: true }).click();
    const form = page.locator('[data-editing="stream"]');
    await form.getByLabel(ru.streams.form.description).fill('После премьеры');
    await form.getByRole('button', { name: ru.streams.form.save, exact: true }).click();
    await page.getByText(ru.streams.form.saved.replace('{{title}}', 'Morning show')).waitFor();
    const edited = (await api(e2e.stack, 'GET', `/streams/${streamId}`, { token: creator.token })).body;
    expect(edited).toMatchObject({ description: 'После премьеры', schedule: created.body.schedule });
    // Changed to a time that has passed: said beside the time in Russian, the field focused, nothing sent.
    await page.getByRole('button', { name: ru.streams.card.editSchedule, exact: true }).click();
    const past = page.locator('[data-editing="schedule"]');
    await past.getByLabel(ru.streams.schedule.stopAt).fill(wallAt(Date.now() + 3_600_000, TIME_ZONE).slice(0, 16));
    await past.getByRole('button', { name: ru.streams.schedule.save, exact: true }).click();
    await past.getByRole('alert').filter({ hasText: ru.streams.schedule.check.startPassed! }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    expect(await past.getByLabel(ru.streams.schedule.startAt).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'schedule-passed-ru-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'schedule-passed-ru-390');
    expect((await api(e2e.stack, 'GET', `/streams/${streamId}`, { token: creator.token })).body.schedule).toEqual(created.body.schedule);
    expect(problems).toEqual([]);
  }, 180_000);
});
