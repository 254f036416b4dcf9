import type { StreamSchedule } from '@loopcast/contract/api/streams';
import {
  addWindow,
  changeWindow,
  removeWindow,
  scheduleChanged,
  scheduleCheck,
  scheduleDraftOf,
  scheduleOf,
  suggestedStart,
  weekdayName,
  type ScheduleDraft,
} from './schedule-draft';

// 2025-06-02 10:17 UTC, a Monday: 13:17 in Kyiv (UTC+3 in summer), 15:47 in Kolkata.
const now = Date.parse('2025-06-02T10:17:30Z');
const draft = (changes: Partial<ScheduleDraft>): ScheduleDraft => ({ ...scheduleDraftOf(undefined, now, 'UTC'), ...changes });

describe('schedule drafts', () => {
  test('a stream without a schedule runs by hand; its one-time start is suggested at the next whole hour of its zone', () => {
    expect(scheduleDraftOf(undefined, now, 'Europe/Kyiv')).toMatchObject({
      mode: 'none',
      startAt: '2025-06-02T14:00',
      stopMode: 'none',
      windows: [{ day: 'mon', start: '09:00', stop: '17:00' }],
    });
    expect(suggestedStart(now, 'Asia/Kolkata')).toBe('2025-06-02T16:00');
    expect(scheduleOf(scheduleDraftOf(undefined, now, 'UTC'))).toBeNull();
  });

  test('a one-time schedule round-trips: a stop at a time, or after a duration in hours and minutes', () => {
    const atTime = { kind: 'once', startAt: '2025-06-03T09:00', stopAt: '2025-06-03T12:30' } as const;
    expect(scheduleDraftOf(atTime, now, 'UTC')).toMatchObject({ mode: 'once', stopMode: 'at', stopAt: '2025-06-03T12:30' });
    expect(scheduleOf(scheduleDraftOf(atTime, now, 'UTC'))).toEqual(atTime);
    const forDuration = { kind: 'once', startAt: '2025-06-03T09:00', durationMinutes: 150 } as const;
    expect(scheduleDraftOf(forDuration, now, 'UTC')).toMatchObject({ stopMode: 'after', durationHours: '2', durationMinutes: '30' });
    expect(scheduleOf(scheduleDraftOf(forDuration, now, 'UTC'))).toEqual(forDuration);
    expect(scheduleOf(draft({ mode: 'once', startAt: '2025-06-03T09:00', stopMode: 'none', stopAt: '2025-06-03T10:00' }))).toEqual({
      kind: 'once',
      startAt: '2025-06-03T09:00',
    });
    expect(scheduleOf(draft({ mode: 'once', startAt: '', stopMode: 'at', stopAt: '2025-06-03T10:00' }))).toEqual({ kind: 'once', stopAt: '2025-06-03T10:00' });
  });

  test('a weekly timetable round-trips, its windows with their own ids', () => {
    const weekly: StreamSchedule = {
      kind: 'weekly',
      windows: [
        { day: 'mon', start: '09:00', stop: '17:00' },
        { day: 'fri', start: '22:00', stop: '02:00' },
      ],
    };
    const edited = scheduleDraftOf(weekly, now, 'UTC');
    expect(edited.windows.map((window) => window.id)).toEqual([1, 2]);
    expect(scheduleOf(edited)).toEqual(weekly);
    expect(scheduleChanged(weekly, edited)).toBe(false);
    // As stored: the keys may come back in another order.
    expect(scheduleChanged({ windows: weekly.windows.map(({ stop, start, day }) => ({ stop, start, day })), kind: 'weekly' }, edited)).toBe(false);
    const once: StreamSchedule = { stopAt: '2025-06-03T12:30', kind: 'once', startAt: '2025-06-03T09:00:30' };
    expect(scheduleChanged(once, scheduleDraftOf(once, now, 'UTC'))).toBe(false);
    expect(scheduleChanged(weekly, { ...edited, windows: changeWindow(edited.windows, 2, { stop: '03:00' }) })).toBe(true);
    expect(scheduleChanged(undefined, { ...edited, mode: 'none' })).toBe(false);
    expect(scheduleChanged(weekly, { ...edited, mode: 'none' })).toBe(true);
  });

  test('a new window is the day after the last, at its times; rows go away by id', () => {
    const rows = addWindow([{ id: 1, day: 'sun', start: '18:00', stop: '23:00' }]);
    expect(rows.at(-1)).toEqual({ id: 2, day: 'mon', start: '18:00', stop: '23:00' });
    expect(removeWindow(rows, 1)).toEqual([{ id: 2, day: 'mon', start: '18:00', stop: '23:00' }]);
    expect(addWindow([])).toEqual([{ id: 1, day: 'mon', start: '09:00', stop: '17:00' }]);
  });

  test('what the form refuses before asking the API', () => {
    expect(scheduleCheck(draft({ mode: 'once', startAt: '', stopMode: 'none' }))).toBe('nothingScheduled');
    expect(scheduleCheck(draft({ mode: 'once', startAt: '', stopMode: 'at', stopAt: '' }))).toBe('nothingScheduled');
    expect(scheduleCheck(draft({ mode: 'once', startAt: '', stopMode: 'after' }))).toBe('durationNeedsStart');
    expect(scheduleCheck(draft({ mode: 'once', stopMode: 'after', durationHours: '0', durationMinutes: '' }))).toBe('noDuration');
    expect(scheduleCheck(draft({ mode: 'weekly', windows: [] }))).toBe('noWindows');
    expect(scheduleCheck(draft({ mode: 'once', stopMode: 'after', durationHours: '0', durationMinutes: '45' }))).toBeUndefined();
    expect(scheduleCheck(draft({ mode: 'none', windows: [] }))).toBeUndefined();
  });

  test("a one-time time that has passed counts only in a new or changed schedule, in the stream's zone", () => {
    // 10:17:30 UTC is 13:17:30 in Kyiv.
    const finished: StreamSchedule = { kind: 'once', startAt: '2025-06-01T09:00', stopAt: '2025-06-01T10:00' };
    const kept = scheduleDraftOf(finished, now, 'Europe/Kyiv');
    const kyiv = { saved: finished, now, timeZone: 'Europe/Kyiv' };
    expect(scheduleCheck(kept, kyiv)).toBeUndefined();
    expect(scheduleCheck({ ...kept, stopAt: '2025-06-02T18:00' }, kyiv)).toBe('startPassed');
    expect(scheduleCheck({ ...kept, startAt: '', stopAt: '2025-06-02T13:17' }, kyiv)).toBe('stopPassed');
    expect(scheduleCheck({ ...kept, startAt: '', stopAt: '2025-06-02T13:18' }, kyiv)).toBeUndefined();
    expect(scheduleCheck({ ...kept, startAt: '2025-06-02T13:18', stopMode: 'after' }, kyiv)).toBeUndefined();
    // A new stream has nothing saved: any time that has passed counts; 13:17 in Kolkata is still ahead.
    expect(scheduleCheck(draft({ mode: 'once', startAt: '2025-06-02T13:17' }), { saved: undefined, now, timeZone: 'Europe/Kyiv' })).toBe('startPassed');
    expect(scheduleCheck(draft({ mode: 'once', startAt: '2025-06-02T16:00' }), { saved: undefined, now, timeZone: 'Asia/Kolkata' })).toBeUndefined();
    // A zone being typed is the API's to judge.
    expect(scheduleCheck(draft({ mode: 'once', startAt: '2025-06-02T13:17' }), { saved: undefined, now, timeZone: 'Europe/Ky' })).toBeUndefined();
    // A stop not after its start, whenever.
    expect(scheduleCheck(draft({ mode: 'once', startAt: '2025-06-03T10:00', stopMode: 'at', stopAt: '2025-06-03T10:00' }))).toBe('stopBeforeStart');
  });

  test("weekdays in the page's language", () => {
    expect(weekdayName('mon', 'en')).toBe('Mon');
    expect(weekdayName('sun', 'ru', 'long')).toBe('воскресенье');
    expect(weekdayName('fri', 'es', 'long')).toBe('viernes');
  });
});
