// Scheduled launch and stop through the real API of a local stack, in real time: the schedule's wake-ups go through
// EventBridge Scheduler's local stand-in (the real @aws-sdk/client-scheduler and the AWS adapter), the schedule
// function starts and stops streams as the API does, stream tasks publish to nginx-rtmp and ffprobe reads what
// arrives. A one-time start 30 s ahead and its stop, a weekly window, a start the plan refuses at that moment (the
// reason on the stream, in its history, by e-mail in the creator's language), and the API's rules.
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { normalizeSchedule } from '../../lambdas/core/streams/schedule';
import { wallClockMs, weekdayOfWall } from '../../lambdas/core/wall-clock';
import type { LocalStack } from '../../local/stack';
import { api, mailsTo } from '../helpers/accounts';
import { createStream as createStreamOf, creatorWithDestination, type Creator } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { noMediaWithin, RtmpPlayer } from '../helpers/player';
import { startTestStack } from '../helpers/stack';
import { streamTaskProcesses } from '../helpers/stream-tasks';
import { waitFor } from '../helpers/wait';

const run = promisify(execFile);

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
}, 120_000);
afterAll(() => stack.stop());

const creator = (label: string) => creatorWithDestination(stack, label, 4);
const createStream = (who: Creator, overrides: Record<string, unknown> = {}) => createStreamOf(stack, who, overrides);

/** The zone's wall clock at an instant, as the schedule takes it: "YYYY-MM-DDTHH:MM:SS". */
const wallAt = (instant: number, timeZone: string) => new Date(wallClockMs(instant, timeZone)).toISOString().slice(0, 19);
const hhmm = (instant: number, timeZone: string) => wallAt(instant, timeZone).slice(11, 16);

interface HistoryEvent {
  at: string;
  kind: string;
  reason?: string;
}
const history = async (who: Creator, streamId: string): Promise<HistoryEvent[]> =>
  (await api(stack, 'GET', `/streams/${streamId}/history`, { token: who.token })).body.events as HistoryEvent[];
const eventOf = (who: Creator, streamId: string, kind: string, reason?: string) =>
  waitFor(
    `${kind} in the history`,
    async () => (await history(who, streamId)).find((event) => event.kind === kind && event.reason === reason),
    (event) => event !== undefined,
    150_000,
  ).then((event) => Date.parse(event!.at));
const scheduleOf = (streamId: string) => stack.scheduler.schedules.get(`loopcast-local-streams/stream-${streamId}`);

// The three runs below each wait on the clock (a start 30 s ahead, the next minute's window, a refusal 8 s ahead) and
// use their own creator: they run side by side, so the suite takes as long as the longest of them.
describe('schedules in real time', () => {
  test.concurrent(
    'a one-time schedule: a stream scheduled 30 s ahead starts on time (± 2 s), goes live, and stops at its stop time',
    async () => {
      const sam = await creator('sam');
      const zone = 'Asia/Kolkata';
      const startAt = Math.ceil(Date.now() / 1000) * 1000 + 30_000;
      const stopAt = startAt + 25_000;
      const schedule = { kind: 'once', startAt: wallAt(startAt, zone), stopAt: wallAt(stopAt, zone) } as const;
      const created = await createStream(sam, { timeZone: zone, schedule });
      expect(created).toMatchObject({
        status: 201,
        body: {
          status: 'stopped',
          // In the API's one spelling: a time on a whole minute loses its ":00" (once a minute, the start is one).
          schedule: normalizeSchedule(schedule),
          nextStartAt: new Date(startAt).toISOString(),
          nextStopAt: new Date(stopAt).toISOString(),
        },
      });
      const streamId = created.body.id as string;
      // One schedule for the stream, set a minute ahead of its transition or, this close to it, 5 s from now.
      expect(JSON.parse(scheduleOf(streamId)!.Target.Input!)).toEqual({ userId: sam.userId, streamId, action: 'start', at: new Date(startAt).toISOString() });

      await new Promise((resolve) => setTimeout(resolve, startAt - Date.now() - 4_000));
      const player = new RtmpPlayer(`${stack.urls.rtmp}/${sam.key}`);
      try {
        const started = await eventOf(sam, streamId, 'started', 'schedule');
        const live = await waitForStreamStatus(stack, sam.token, streamId, 'started', 30_000);
        expect(live).toMatchObject({ nextStopAt: new Date(stopAt).toISOString() });
        expect(live.nextStartAt).toBeUndefined();
        const stopped = await eventOf(sam, streamId, 'stopped', 'schedule');
        await waitForStreamStatus(stack, sam.token, streamId, 'stopped', 10_000);
        const figures = player.snapshot;
        console.log(
          `scheduled start acted on ${started - startAt} ms after its time, first media ${figures.firstPacketAt! - startAt} ms after it; stop acted on ${stopped - stopAt} ms after its time, last media ${figures.lastPacketAt! - stopAt} ms after it`,
        );
        expect(Math.abs(started - startAt)).toBeLessThanOrEqual(2_000);
        expect(figures.firstPacketAt).toBeGreaterThanOrEqual(startAt);
        expect(figures.video.packets).toBeGreaterThan(100);
        expect(figures.audio.packets).toBeGreaterThan(100);
        expect(Math.abs(stopped - stopAt)).toBeLessThanOrEqual(2_000);
        expect(figures.lastPacketAt).toBeLessThanOrEqual(stopAt + 2_000);
      } finally {
        await player.stop();
      }
      expect(streamTaskProcesses(streamId)).toEqual([]);
      expect(await noMediaWithin(`${stack.urls.rtmp}/${sam.key}`, 3)).toBe(true);
      const after = (await api(stack, 'GET', `/streams/${streamId}`, { token: sam.token })).body;
      expect(after).toMatchObject({ status: 'stopped' });
      expect(after.lastError).toBeUndefined();
      expect(after.nextStartAt).toBeUndefined();
      expect(after.nextStopAt).toBeUndefined();
      // Nothing left to do: its schedule is gone from Scheduler.
      expect(scheduleOf(streamId)).toBeUndefined();
      expect((await api(stack, 'GET', '/subscription', { token: sam.token })).body.usage.runningStreams).toBe(0);
    },
    180_000,
  );

  test.concurrent(
    'a weekly timetable: a window of this weekday goes on air at its start, stays editable while live, and goes off at its stop; next week is set',
    async () => {
      const wes = await creator('wes');
      const zone = 'Europe/Kyiv';
      const startAt = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000;
      const stopAt = startAt + 60_000;
      const window = { day: weekdayOfWall(wallClockMs(startAt, zone)), start: hhmm(startAt, zone), stop: hhmm(stopAt, zone) };
      const created = await createStream(wes, { timeZone: zone, schedule: { kind: 'weekly', windows: [window] } });
      expect(created.body).toMatchObject({
        schedule: { kind: 'weekly', windows: [window] },
        nextStartAt: new Date(startAt).toISOString(),
        nextStopAt: new Date(stopAt).toISOString(),
      });
      const streamId = created.body.id as string;

      const started = await eventOf(wes, streamId, 'started', 'schedule');
      expect(Math.abs(started - startAt)).toBeLessThanOrEqual(2_000);
      await waitForStreamStatus(stack, wes.token, streamId, 'started', 30_000);
      const { stdout } = await run(
        'ffprobe',
        ['-v', 'error', '-rw_timeout', '10000000', '-show_entries', 'stream=codec_type,codec_name', '-of', 'json', `${stack.urls.rtmp}/${wes.key}`],
        { timeout: 30_000 },
      );
      expect(JSON.parse(stdout).streams).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ codec_type: 'video', codec_name: 'h264' }),
          expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
        ]),
      );

      // Live, the stream's settings are locked, but its timetable may change: a second window later in the week.
      expect((await api(stack, 'PATCH', `/streams/${streamId}`, { token: wes.token, body: { title: 'x' } })).body.error).toBe('stream started');
      const other = { day: window.day === 'mon' ? 'tue' : 'mon', start: '03:00', stop: '04:00' };
      const changed = await api(stack, 'PUT', `/streams/${streamId}/schedule`, {
        token: wes.token,
        body: { schedule: { kind: 'weekly', windows: [window, other] } },
      });
      expect(changed).toMatchObject({ status: 200, body: { status: 'started', nextStopAt: new Date(stopAt).toISOString() } });
      expect(changed.body.schedule.windows).toHaveLength(2);

      const stopped = await eventOf(wes, streamId, 'stopped', 'schedule');
      expect(Math.abs(stopped - stopAt)).toBeLessThanOrEqual(2_000);
      await waitForStreamStatus(stack, wes.token, streamId, 'stopped', 10_000);
      expect(await noMediaWithin(`${stack.urls.rtmp}/${wes.key}`, 3)).toBe(true);
      // The next transition is set: one of the two windows, within the coming week.
      const after = (await api(stack, 'GET', `/streams/${streamId}`, { token: wes.token })).body;
      const nextStart = Date.parse(after.nextStartAt);
      expect(nextStart).toBeGreaterThan(stopAt);
      expect(nextStart).toBeLessThanOrEqual(startAt + 7 * 86_400_000);
      expect(JSON.parse(scheduleOf(streamId)!.Target.Input!)).toEqual({ userId: wes.userId, streamId, action: 'start', at: after.nextStartAt });
    },
    240_000,
  );

  test.concurrent(
    "plan limits at the moment a stream starts: a scheduled start the plan refuses then: the reason on the stream and in its history, an e-mail in the creator's language",
    async () => {
      const rea = await creator('rea');
      expect((await api(stack, 'PATCH', '/account', { token: rea.token, body: { language: 'es' } })).status).toBe(200);
      // The trial runs one stream at a time; one is running when the other's start comes.
      const running = (await createStream(rea, { title: 'Running' })).body.id as string;
      expect((await api(stack, 'POST', `/streams/${running}/start`, { token: rea.token })).status).toBe(200);
      const scheduled = (
        await createStream(rea, {
          title: 'Lluvia',
          timeZone: 'UTC',
          schedule: { kind: 'once', startAt: wallAt(Math.ceil(Date.now() / 1000) * 1000 + 8_000, 'UTC') },
        })
      ).body.id as string;
      try {
        await eventOf(rea, scheduled, 'start refused', 'stream limit');
        const refused = (await api(stack, 'GET', `/streams/${scheduled}`, { token: rea.token })).body;
        expect(refused).toMatchObject({ status: 'stopped', lastError: 'stream limit' });
        const mail = await waitFor(
          'the e-mail',
          () => mailsTo(stack, rea.email),
          (mails) => mails.some((m) => m.subject.includes('Lluvia')),
          10_000,
        );
        const told = mail.find((m) => m.subject.includes('Lluvia'))!;
        expect(told.subject).toBe('Tu emisión "Lluvia" no empezó según lo programado');
        expect(told.text).toContain('tu plan ya tiene en marcha todas las emisiones simultáneas que permite');
        expect(told.text).toContain(`/es/app/streams/${scheduled}`);
        // The refusal is the stream's only run of the day: nothing runs, the slot stays the running stream's.
        expect(streamTaskProcesses(scheduled)).toEqual([]);
        expect((await api(stack, 'GET', '/subscription', { token: rea.token })).body.usage.runningStreams).toBe(1);
      } finally {
        await api(stack, 'POST', `/streams/${running}/stop`, { token: rea.token });
      }
      // Started by hand later, the reason goes.
      const started = await api(stack, 'POST', `/streams/${scheduled}/start`, { token: rea.token });
      expect(started.body.lastError).toBeUndefined();
      await api(stack, 'POST', `/streams/${scheduled}/stop`, { token: rea.token });
    },
    120_000,
  );
});

describe('schedule rules', () => {
  let ida: Creator;
  beforeAll(async () => {
    ida = await creator('ida');
  }, 120_000);
  const put = (streamId: string, schedule: unknown, token = ida.token) => api(stack, 'PUT', `/streams/${streamId}/schedule`, { token, body: { schedule } });

  test('bad schedules get catalogued errors naming the field; nothing is stored', async () => {
    const streamId = (await createStream(ida)).body.id as string;
    const future = wallAt(Date.now() + 86_400_000, 'UTC').slice(0, 16);
    const cases: [unknown, string, string?][] = [
      [{ kind: 'once', startAt: '2020-01-01T10:00' }, 'schedule time passed', 'schedule.startAt'],
      [{ kind: 'once', startAt: future, stopAt: future }, 'schedule stop before start', 'schedule.stopAt'],
      [{ kind: 'once', startAt: '2031-02-30T10:00' }, 'invalid number', 'schedule.startAt'],
      [{ kind: 'once' }, 'invalid request'],
      [
        {
          kind: 'weekly',
          windows: [
            { day: 'mon', start: '09:00', stop: '12:00' },
            { day: 'mon', start: '11:00', stop: '13:00' },
          ],
        },
        'schedule windows overlap',
        'schedule.windows',
      ],
      [{ kind: 'weekly', windows: [{ day: 'someday', start: '09:00', stop: '12:00' }] }, 'invalid number', 'schedule.windows'],
      [{ kind: 'hourly' }, 'invalid request'],
    ];
    for (const [schedule, error, field] of cases) {
      const answer = await put(streamId, schedule);
      expect({ schedule, status: answer.status, error: answer.body.error, field: answer.body.details?.field }).toEqual({
        schedule,
        status: error === 'invalid request' ? 400 : 422,
        error,
        field,
      });
    }
    expect((await createStream(ida, { schedule: { kind: 'once', startAt: '2020-01-01T10:00' } })).body.error).toBe('schedule time passed');
    const stored = (await api(stack, 'GET', `/streams/${streamId}`, { token: ida.token })).body;
    expect(stored.schedule).toBeUndefined();
    expect(scheduleOf(streamId)).toBeUndefined();
  });

  test('a one-time schedule whose times have passed is saved again unchanged, as the editor sends it back', async () => {
    const startAt = wallAt(Date.now() + 2_000, 'UTC');
    const stopAt = wallAt(Date.now() + 3_000, 'UTC');
    const streamId = (await createStream(ida, { timeZone: 'UTC', schedule: { kind: 'once', startAt, stopAt } })).body.id as string;
    await sleep(4_000);
    const { schedule } = (await api(stack, 'GET', `/streams/${streamId}`, { token: ida.token })).body;
    expect(schedule).toEqual(normalizeSchedule({ kind: 'once', startAt, stopAt }));
    // The same schedule, whatever the order of its keys (the store answers them in its own); a changed one is checked.
    for (const same of [schedule, { stopAt, startAt, kind: 'once' }]) expect((await put(streamId, same)).status).toBe(200);
    expect((await put(streamId, { kind: 'once', startAt, stopAt: wallAt(Date.now() + 600_000, 'UTC') })).body.error).toBe('schedule time passed');
    await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ida.token });
  }, 60_000);

  test("a stream's wake-up follows its schedule, its time zone and its deletion; another user's stream is not found", async () => {
    const streamId = (await createStream(ida, { timeZone: 'UTC' })).body.id as string;
    // A window two days from now, in UTC and in Kolkata, so its start is the next transition whenever this runs (set
    // inside an open window, a schedule's next transition is that window's stop).
    const day = weekdayOfWall(wallClockMs(Date.now() + 2 * 86_400_000, 'UTC'));
    const set = await put(streamId, { kind: 'weekly', windows: [{ day, start: '10:00', stop: '11:00' }] });
    expect(set.status).toBe(200);
    const utcStart = set.body.nextStartAt as string;
    expect(JSON.parse(scheduleOf(streamId)!.Target.Input!).at).toBe(utcStart);
    // Kolkata is 5:30 ahead: the same wall time comes 5:30 earlier.
    const moved = await api(stack, 'PATCH', `/streams/${streamId}`, { token: ida.token, body: { timeZone: 'Asia/Kolkata' } });
    const expected = new Date(Date.parse(utcStart) - 5.5 * 3_600_000);
    const shifted = expected.getTime() > Date.now() ? expected : new Date(expected.getTime() + 7 * 86_400_000);
    expect(moved.body.nextStartAt).toBe(shifted.toISOString());
    expect(JSON.parse(scheduleOf(streamId)!.Target.Input!).at).toBe(shifted.toISOString());

    const other = await creator('ivo');
    expect((await put(streamId, null, other.token)).body.error).toBe('stream not found');
    const removed = await put(streamId, null);
    expect(removed.status).toBe(200);
    expect(removed.body.schedule).toBeUndefined();
    expect(scheduleOf(streamId)).toBeUndefined();

    await put(streamId, { kind: 'once', startAt: wallAt(Date.now() + 3_600_000, 'Asia/Kolkata').slice(0, 16) });
    expect(scheduleOf(streamId)).toBeDefined();
    expect((await api(stack, 'DELETE', `/streams/${streamId}`, { token: ida.token })).status).toBe(204);
    expect(scheduleOf(streamId)).toBeUndefined();
  }, 120_000);

  test("across a DST change: the same wall-clock times are an hour apart less in spring and more in autumn (next year's switches in Berlin)", async () => {
    // The EU switches on the last Sunday of March and of October, at 01:00 UTC.
    const year = new Date().getUTCFullYear() + 1;
    const lastSunday = (month: number) => {
      const last = new Date(Date.UTC(year, month + 1, 0));
      return `${year}-${String(month + 1).padStart(2, '0')}-${String(last.getUTCDate() - last.getUTCDay()).padStart(2, '0')}`;
    };
    const across = async (day: string) => {
      const created = await createStream(ida, { timeZone: 'Europe/Berlin', schedule: { kind: 'once', startAt: `${day}T01:30`, stopAt: `${day}T03:30` } });
      expect(created.status).toBe(201);
      return created.body as { id: string; nextStartAt: string; nextStopAt: string };
    };
    const spring = await across(lastSunday(2));
    expect(spring).toMatchObject({ nextStartAt: `${lastSunday(2)}T00:30:00.000Z`, nextStopAt: `${lastSunday(2)}T01:30:00.000Z` });
    const autumn = await across(lastSunday(9));
    const dayBefore = new Date(Date.parse(`${lastSunday(9)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(autumn).toMatchObject({ nextStartAt: `${dayBefore}T23:30:00.000Z`, nextStopAt: `${lastSunday(9)}T02:30:00.000Z` });
    // Its wake-up is the start, a minute ahead: what EventBridge Scheduler is given is in UTC, DST done.
    expect(scheduleOf(spring.id)).toMatchObject({ ScheduleExpression: `at(${lastSunday(2)}T00:29:00)`, ScheduleExpressionTimezone: 'UTC' });
  });

  test('restart times per weekday are kept beside daily ones', async () => {
    const created = await createStream(ida, { restartTimes: ['Sun 3:00', '12:00', 'mon 06:30'], timeZone: 'Europe/Kyiv' });
    expect(created.body.restartTimes).toEqual(['12:00', 'mon 06:30', 'sun 03:00']);
    expect((await createStream(ida, { restartTimes: ['12:00', 'mon 12:00'] })).body).toMatchObject({
      error: 'duplicate restart times',
      details: { field: 'restartTimes', value: 'mon 12:00' },
    });
    expect((await createStream(ida, { restartTimes: ['someday 12:00'] })).body.error).toBe('invalid number');
  });
});
