import { AppError } from '../errors';
import { assertScheduleAhead, isDue, nextTransition, normalizeSchedule, upcoming, type StreamSchedule } from './schedule';

const errorOf = (fn: () => unknown): { key?: string; details?: unknown } => {
  try {
    fn();
    return {};
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { key: error.key, details: error.details };
  }
};

/** The transitions from `fromIso` on, as "action ISO" lines. */
function walk(schedule: StreamSchedule, timeZone: string, fromIso: string, count: number): string[] {
  const seen: string[] = [];
  let after = new Date(fromIso);
  for (let i = 0; i < count; i += 1) {
    const next = nextTransition(schedule, timeZone, after);
    if (!next) break;
    seen.push(`${next.action} ${next.at.toISOString()}`);
    after = next.at;
  }
  return seen;
}

describe('a one-time schedule', () => {
  test('is normalised: trimmed, zero seconds dropped, at least a start or a stop', () => {
    expect(normalizeSchedule({ kind: 'once', startAt: ' 2025-06-01T09:00:00 ', durationMinutes: 90 })).toEqual({
      kind: 'once',
      startAt: '2025-06-01T09:00',
      durationMinutes: 90,
    });
    expect(normalizeSchedule({ kind: 'once', startAt: '2025-06-01T09:00:30', stopAt: '2025-06-01T09:01:05' })).toEqual({
      kind: 'once',
      startAt: '2025-06-01T09:00:30',
      stopAt: '2025-06-01T09:01:05',
    });
    expect(errorOf(() => normalizeSchedule({ kind: 'once' })).key).toBe('invalid request');
  });

  test.each(['2025-02-30T09:00', '2025-06-01 09:00', '2025-06-01T24:00', '2025-06-01T09:00:60', '2025-06-01T09:00:00.5', '2025-06-01T09:00Z', 'tomorrow'])(
    '%p is an invalid number on startAt',
    (startAt) => {
      expect(errorOf(() => normalizeSchedule({ kind: 'once', startAt }))).toEqual({
        key: 'invalid number',
        details: { field: 'schedule.startAt', value: startAt },
      });
    },
  );

  test('a stop before (or at) the start is refused; a duration goes with a start and instead of a stop time', () => {
    expect(errorOf(() => normalizeSchedule({ kind: 'once', startAt: '2025-06-01T09:00', stopAt: '2025-06-01T09:00' })).key).toBe('schedule stop before start');
    expect(errorOf(() => normalizeSchedule({ kind: 'once', stopAt: '2025-06-01T09:00', durationMinutes: 5 })).key).toBe('invalid request');
    expect(errorOf(() => normalizeSchedule({ kind: 'once', startAt: '2025-06-01T09:00', stopAt: '2025-06-01T10:00', durationMinutes: 5 })).key).toBe(
      'invalid request',
    );
    expect(errorOf(() => normalizeSchedule({ kind: 'once', startAt: '2025-06-01T09:00', durationMinutes: 0 })).key).toBe('invalid number');
    expect(errorOf(() => normalizeSchedule({ kind: 'once', startAt: '2025-06-01T09:00', durationMinutes: 1.5 })).key).toBe('invalid number');
  });

  test("starts at its wall time in the stream's zone and stops after its duration", () => {
    const schedule: StreamSchedule = { kind: 'once', startAt: '2025-06-01T09:00', durationMinutes: 90 };
    expect(walk(schedule, 'Europe/Kyiv', '2025-05-01T00:00:00Z', 5)).toEqual(['start 2025-06-01T06:00:00.000Z', 'stop 2025-06-01T07:30:00.000Z']);
    expect(walk(schedule, 'Europe/Kyiv', '2025-06-01T06:00:00Z', 5)).toEqual(['stop 2025-06-01T07:30:00.000Z']);
    expect(walk(schedule, 'Europe/Kyiv', '2025-06-01T07:30:00Z', 5)).toEqual([]);
  });

  test('a stop alone stops a running stream at that time', () => {
    expect(walk({ kind: 'once', stopAt: '2025-06-01T23:30' }, 'Asia/Kolkata', '2025-06-01T00:00:00Z', 3)).toEqual(['stop 2025-06-01T18:00:00.000Z']);
  });

  test('across the spring-forward night (New York, 2025-03-09): a start in the gap runs after it, a duration is real time', () => {
    // 02:30 does not exist that night: 03:30 EDT (07:30 UTC). 01:30 EST + 120 minutes is 04:30 EDT (08:30 UTC).
    expect(walk({ kind: 'once', startAt: '2025-03-09T02:30', stopAt: '2025-03-09T05:00' }, 'America/New_York', '2025-03-01T00:00:00Z', 3)).toEqual([
      'start 2025-03-09T07:30:00.000Z',
      'stop 2025-03-09T09:00:00.000Z',
    ]);
    expect(walk({ kind: 'once', startAt: '2025-03-09T01:30', durationMinutes: 120 }, 'America/New_York', '2025-03-01T00:00:00Z', 3)).toEqual([
      'start 2025-03-09T06:30:00.000Z',
      'stop 2025-03-09T08:30:00.000Z',
    ]);
  });

  test('across the fall-back night (Kyiv, 2025-10-26): a time in the repeated hour is its first occurrence', () => {
    // 03:30 happens twice: first at 00:30 UTC (EEST), then 01:30 UTC (EET). Stop at 04:30 EET = 02:30 UTC.
    expect(walk({ kind: 'once', startAt: '2025-10-26T03:30', stopAt: '2025-10-26T04:30' }, 'Europe/Kyiv', '2025-10-01T00:00:00Z', 3)).toEqual([
      'start 2025-10-26T00:30:00.000Z',
      'stop 2025-10-26T02:30:00.000Z',
    ]);
  });

  test('a new or changed schedule must still be ahead', () => {
    const now = new Date('2025-06-01T06:00:00Z');
    expect(errorOf(() => assertScheduleAhead({ kind: 'once', startAt: '2025-06-01T09:00' }, 'Europe/Kyiv', now))).toEqual({
      key: 'schedule time passed',
      details: { field: 'schedule.startAt' },
    });
    expect(errorOf(() => assertScheduleAhead({ kind: 'once', startAt: '2025-06-01T09:01' }, 'Europe/Kyiv', now))).toEqual({});
    expect(errorOf(() => assertScheduleAhead({ kind: 'once', stopAt: '2025-06-01T08:00' }, 'Europe/Kyiv', now)).key).toBe('schedule time passed');
    expect(errorOf(() => assertScheduleAhead({ kind: 'weekly', windows: [{ day: 'mon', start: '09:00', stop: '10:00' }] }, 'UTC', now))).toEqual({});
  });
});

describe('a weekly timetable', () => {
  test('is normalised: days in lower case, times zero-padded, windows in week order from Monday', () => {
    expect(
      normalizeSchedule({
        kind: 'weekly',
        windows: [
          { day: 'FRI' as 'fri', start: '8:00', stop: '9:30' },
          { day: 'mon', start: '22:00', stop: '02:00' },
        ],
      }),
    ).toEqual({
      kind: 'weekly',
      windows: [
        { day: 'mon', start: '22:00', stop: '02:00' },
        { day: 'fri', start: '08:00', stop: '09:30' },
      ],
    });
  });

  test('refuses an unknown day, a bad time, an empty window and an empty or huge timetable', () => {
    expect(errorOf(() => normalizeSchedule({ kind: 'weekly', windows: [{ day: 'xyz' as 'mon', start: '08:00', stop: '09:00' }] })).key).toBe('invalid number');
    expect(errorOf(() => normalizeSchedule({ kind: 'weekly', windows: [{ day: 'mon', start: '08:60', stop: '09:00' }] })).key).toBe('invalid number');
    expect(errorOf(() => normalizeSchedule({ kind: 'weekly', windows: [{ day: 'mon', start: '08:00', stop: '8:00' }] })).key).toBe(
      'schedule stop before start',
    );
    expect(errorOf(() => normalizeSchedule({ kind: 'weekly', windows: [] })).key).toBe('invalid request');
    const many = Array.from({ length: 29 }, (_, i) => ({
      day: 'mon' as const,
      start: `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
      stop: `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '45' : '15'}`,
    }));
    expect(errorOf(() => normalizeSchedule({ kind: 'weekly', windows: many })).key).toBe('invalid request');
  });

  test("refuses overlapping or touching windows, also across midnight and across the week's end", () => {
    const overlap = (windows: { day: 'mon' | 'tue' | 'sun'; start: string; stop: string }[]) =>
      errorOf(() => normalizeSchedule({ kind: 'weekly', windows })).key;
    expect(
      overlap([
        { day: 'mon', start: '08:00', stop: '12:00' },
        { day: 'mon', start: '11:00', stop: '13:00' },
      ]),
    ).toBe('schedule windows overlap');
    expect(
      overlap([
        { day: 'mon', start: '08:00', stop: '12:00' },
        { day: 'mon', start: '12:00', stop: '13:00' },
      ]),
    ).toBe('schedule windows overlap');
    expect(
      overlap([
        { day: 'mon', start: '22:00', stop: '03:00' },
        { day: 'tue', start: '02:00', stop: '04:00' },
      ]),
    ).toBe('schedule windows overlap');
    expect(
      overlap([
        { day: 'sun', start: '22:00', stop: '03:00' },
        { day: 'mon', start: '02:00', stop: '04:00' },
      ]),
    ).toBe('schedule windows overlap');
    expect(
      overlap([
        { day: 'mon', start: '08:00', stop: '12:00' },
        { day: 'mon', start: '12:01', stop: '13:00' },
      ]),
    ).toBeUndefined();
  });

  test("goes on and off air every week at the windows' wall times", () => {
    // 2025-05-01 is a Thursday.
    const schedule = normalizeSchedule({
      kind: 'weekly',
      windows: [
        { day: 'thu', start: '18:00', stop: '20:00' },
        { day: 'sat', start: '23:00', stop: '01:00' },
      ],
    });
    expect(walk(schedule, 'UTC', '2025-05-01T12:00:00Z', 6)).toEqual([
      'start 2025-05-01T18:00:00.000Z',
      'stop 2025-05-01T20:00:00.000Z',
      'start 2025-05-03T23:00:00.000Z',
      'stop 2025-05-04T01:00:00.000Z',
      'start 2025-05-08T18:00:00.000Z',
      'stop 2025-05-08T20:00:00.000Z',
    ]);
    // In a window that began the day before, the next transition is its stop.
    expect(walk(schedule, 'UTC', '2025-05-04T00:30:00Z', 1)).toEqual(['stop 2025-05-04T01:00:00.000Z']);
  });

  test('keeps its wall times across DST switches (Europe/Berlin, 2025-03-30 and 2025-10-26): the UTC times move an hour', () => {
    const schedule = normalizeSchedule({ kind: 'weekly', windows: [{ day: 'sun', start: '09:00', stop: '11:00' }] });
    expect(walk(schedule, 'Europe/Berlin', '2025-03-22T00:00:00Z', 4)).toEqual([
      'start 2025-03-23T08:00:00.000Z', // CET +1
      'stop 2025-03-23T10:00:00.000Z',
      'start 2025-03-30T07:00:00.000Z', // CEST +2, the day of the switch
      'stop 2025-03-30T09:00:00.000Z',
    ]);
    expect(walk(schedule, 'Europe/Berlin', '2025-10-20T00:00:00Z', 4)).toEqual([
      'start 2025-10-26T08:00:00.000Z', // CET again from 03:00 that night
      'stop 2025-10-26T10:00:00.000Z',
      'start 2025-11-02T08:00:00.000Z',
      'stop 2025-11-02T10:00:00.000Z',
    ]);
  });

  test('a window over the spring-forward night is an hour shorter, over the fall-back night an hour longer', () => {
    const schedule = normalizeSchedule({ kind: 'weekly', windows: [{ day: 'sat', start: '23:00', stop: '06:00' }] });
    const hours = (fromIso: string) => {
      const [start, stop] = walk(schedule, 'America/New_York', fromIso, 2).map((line) => Date.parse(line.split(' ')[1]!));
      return (stop! - start!) / 3_600_000;
    };
    expect(hours('2025-03-08T12:00:00Z')).toBe(6); // into Sunday 2025-03-09
    expect(hours('2025-11-01T12:00:00Z')).toBe(8); // into Sunday 2025-11-02
    expect(hours('2025-05-03T12:00:00Z')).toBe(7);
  });

  test('a window starting in the spring gap starts when the clock jumps past it', () => {
    const schedule = normalizeSchedule({ kind: 'weekly', windows: [{ day: 'sun', start: '02:30', stop: '04:00' }] });
    expect(walk(schedule, 'America/New_York', '2025-03-08T00:00:00Z', 2)).toEqual(['start 2025-03-09T07:30:00.000Z', 'stop 2025-03-09T08:00:00.000Z']);
  });

  test('upcoming: the next start and stop for the card', () => {
    const schedule = normalizeSchedule({ kind: 'weekly', windows: [{ day: 'thu', start: '18:00', stop: '20:00' }] });
    expect(upcoming(schedule, 'UTC', new Date('2025-05-01T12:00:00Z'))).toEqual({
      nextStartAt: '2025-05-01T18:00:00.000Z',
      nextStopAt: '2025-05-01T20:00:00.000Z',
    });
    expect(upcoming(schedule, 'UTC', new Date('2025-05-01T19:00:00Z'))).toEqual({
      nextStopAt: '2025-05-01T20:00:00.000Z',
      nextStartAt: '2025-05-08T18:00:00.000Z',
    });
    expect(upcoming({ kind: 'once', startAt: '2025-05-01T10:00' }, 'UTC', new Date('2025-05-01T12:00:00Z'))).toEqual({});
  });
});

describe('isDue: whether a wake-up acts', () => {
  const schedule = normalizeSchedule({ kind: 'weekly', windows: [{ day: 'thu', start: '18:00', stop: '20:00' }] });
  const start = { action: 'start' as const, at: new Date('2025-05-01T18:00:00Z') };

  test('on time, and late while the window lasts', () => {
    expect(isDue(schedule, 'UTC', start, new Date('2025-05-01T18:00:00Z'))).toBe(true);
    expect(isDue(schedule, 'UTC', start, new Date('2025-05-01T19:59:00Z'))).toBe(true);
  });

  test('not once the following transition has passed, nor for a transition the schedule no longer has', () => {
    expect(isDue(schedule, 'UTC', start, new Date('2025-05-01T20:00:01Z'))).toBe(false);
    expect(isDue(schedule, 'UTC', { action: 'stop', at: start.at }, start.at)).toBe(false);
    expect(isDue(schedule, 'UTC', { action: 'start', at: new Date('2025-05-01T18:01:00Z') }, new Date('2025-05-01T18:01:00Z'))).toBe(false);
    expect(isDue(schedule, 'Europe/Kyiv', start, start.at)).toBe(false);
  });
});
