import { AppError } from './errors';
import { nextRestartAt, normalizeRestartSchedule, normalizeRestartTimes, parseRestartTime, validateTimeZone } from './restart-schedule';

const errorKeyOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.key : `not an AppError: ${String(error)}`;
  }
};

const next = (times: string[], timeZone: string, nowIso: string) => nextRestartAt(times, timeZone, new Date(nowIso))?.toISOString();

describe('restart times', () => {
  test('are parsed from "HH:MM" and "H:MM", surrounding spaces allowed', () => {
    expect(parseRestartTime('00:00')).toEqual({ hour: 0, minute: 0 });
    expect(parseRestartTime(' 9:05 ')).toEqual({ hour: 9, minute: 5 });
    expect(parseRestartTime('23:59')).toEqual({ hour: 23, minute: 59 });
  });

  test.each(['24:00', '12:60', '9.05', '0905', '', '-1:00', '12:5', '123:00', 'ab:cd', '12:00:00', '1e1:00'])('%p is an invalid number', (value) => {
    expect(errorKeyOf(() => parseRestartTime(value))).toBe('invalid number');
  });

  test('are normalised to sorted, zero-padded times', () => {
    expect(normalizeRestartTimes(['18:30', '6:00', '00:15'])).toEqual(['00:15', '06:00', '18:30']);
    expect(normalizeRestartTimes([])).toEqual([]);
  });

  test('two entries for the same minute are duplicate restart times, also when spelled differently', () => {
    expect(errorKeyOf(() => normalizeRestartTimes(['06:00', '07:00', '06:00']))).toBe('duplicate restart times');
    expect(errorKeyOf(() => normalizeRestartTimes(['6:00', '06:00']))).toBe('duplicate restart times');
  });

  test('a malformed time wins over a duplicate (the user fixes it first)', () => {
    expect(errorKeyOf(() => normalizeRestartTimes(['25:00', '06:00', '06:00']))).toBe('invalid number');
  });

  test('the error names the offending field for the form', () => {
    try {
      normalizeRestartTimes(['06:00', '06:00']);
    } catch (error) {
      expect((error as AppError).details).toEqual({ field: 'restartTimes', value: '06:00' });
    }
    expect.assertions(1);
  });
});

describe('time zones', () => {
  test('known IANA zones are kept as spelled', () => {
    expect(validateTimeZone('Europe/Kyiv')).toBe('Europe/Kyiv');
    expect(validateTimeZone(' Asia/Kolkata ')).toBe('Asia/Kolkata');
    expect(validateTimeZone('UTC')).toBe('UTC');
  });

  test.each(['Mars/Olympus', '', '  ', 'GMT+99'])('%p is rejected as an invalid number', (zone) => {
    expect(errorKeyOf(() => validateTimeZone(zone))).toBe('invalid number');
  });

  test('a whole schedule is normalised at once', () => {
    expect(normalizeRestartSchedule({ times: ['7:30', '01:00'], timeZone: 'America/New_York' })).toEqual({
      times: ['01:00', '07:30'],
      timeZone: 'America/New_York',
    });
  });
});

describe('nextRestartAt', () => {
  test('is undefined without restart times', () => {
    expect(nextRestartAt([], 'UTC', new Date('2025-01-01T00:00:00Z'))).toBeUndefined();
  });

  test('picks the next time today, else the first time tomorrow', () => {
    expect(next(['06:00', '18:00'], 'UTC', '2025-05-01T07:00:00Z')).toBe('2025-05-01T18:00:00.000Z');
    expect(next(['06:00', '18:00'], 'UTC', '2025-05-01T19:00:00Z')).toBe('2025-05-02T06:00:00.000Z');
  });

  test('is strictly after now: a restart that is due right now schedules the following one', () => {
    expect(next(['06:00'], 'UTC', '2025-05-01T06:00:00.000Z')).toBe('2025-05-02T06:00:00.000Z');
    expect(next(['06:00'], 'UTC', '2025-05-01T05:59:59.999Z')).toBe('2025-05-01T06:00:00.000Z');
  });

  test('Asia/Kolkata: a half-hour offset without DST', () => {
    // 00:30 IST is 19:00 UTC the day before.
    expect(next(['00:30'], 'Asia/Kolkata', '2025-06-10T12:00:00Z')).toBe('2025-06-10T19:00:00.000Z');
    expect(next(['00:30'], 'Asia/Kolkata', '2025-06-10T19:00:00Z')).toBe('2025-06-11T19:00:00.000Z');
    expect(next(['23:45'], 'Asia/Kolkata', '2025-12-31T18:00:00Z')).toBe('2025-12-31T18:15:00.000Z');
  });

  test("the local date is the zone's, not UTC's (Kolkata is already on the next day)", () => {
    // 20:00 UTC on June 10 is 01:30 on June 11 in Kolkata: 01:00 has passed there, next is June 12 01:00 IST.
    expect(next(['01:00'], 'Asia/Kolkata', '2025-06-10T20:00:00Z')).toBe('2025-06-11T19:30:00.000Z');
  });

  describe('Europe/Kyiv (EET +2, EEST +3 from 03:00 on the last Sunday of March to 04:00 on the last Sunday of October)', () => {
    test('before and after the spring switch the same wall time moves by an hour in UTC', () => {
      expect(next(['12:00'], 'Europe/Kyiv', '2025-03-29T00:00:00Z')).toBe('2025-03-29T10:00:00.000Z');
      expect(next(['12:00'], 'Europe/Kyiv', '2025-03-29T12:00:00Z')).toBe('2025-03-30T09:00:00.000Z');
    });

    test('a time inside the spring gap (03:30 does not exist on 2025-03-30) runs at 04:30 EEST', () => {
      expect(next(['03:30'], 'Europe/Kyiv', '2025-03-29T23:00:00Z')).toBe('2025-03-30T01:30:00.000Z');
      // And on the next day again at 03:30 EEST.
      expect(next(['03:30'], 'Europe/Kyiv', '2025-03-30T01:30:00Z')).toBe('2025-03-31T00:30:00.000Z');
    });

    test('a time in the repeated autumn hour (03:30 twice on 2025-10-26) runs once, at the first 03:30', () => {
      expect(next(['03:30'], 'Europe/Kyiv', '2025-10-25T22:00:00Z')).toBe('2025-10-26T00:30:00.000Z');
      // After that first run the next one is the following day, not the second 03:30 an hour later.
      expect(next(['03:30'], 'Europe/Kyiv', '2025-10-26T00:30:00Z')).toBe('2025-10-27T01:30:00.000Z');
    });
  });

  describe('America/New_York (EST -5, EDT -4 from 02:00 on 2025-03-09 to 02:00 on 2025-11-02)', () => {
    test('02:30 is skipped on the spring-forward night and runs at 03:30 EDT', () => {
      expect(next(['02:30'], 'America/New_York', '2025-03-09T05:00:00Z')).toBe('2025-03-09T07:30:00.000Z');
      expect(next(['02:30'], 'America/New_York', '2025-03-08T06:00:00Z')).toBe('2025-03-08T07:30:00.000Z');
      expect(next(['02:30'], 'America/New_York', '2025-03-09T07:30:00Z')).toBe('2025-03-10T06:30:00.000Z');
    });

    test('01:30 happens twice on the fall-back night: the first (EDT) occurrence only', () => {
      expect(next(['01:30'], 'America/New_York', '2025-11-02T04:00:00Z')).toBe('2025-11-02T05:30:00.000Z');
      expect(next(['01:30'], 'America/New_York', '2025-11-02T05:30:00Z')).toBe('2025-11-03T06:30:00.000Z');
    });

    test('several times across the switch stay in wall-clock order', () => {
      const times = ['00:00', '01:30', '03:00'];
      const seen: string[] = [];
      let now = new Date('2025-11-01T23:00:00Z');
      for (let i = 0; i < 4; i += 1) {
        now = nextRestartAt(times, 'America/New_York', now)!;
        seen.push(now.toISOString());
      }
      expect(seen).toEqual([
        '2025-11-02T04:00:00.000Z', // 00:00 EDT
        '2025-11-02T05:30:00.000Z', // 01:30 EDT (first of two)
        '2025-11-02T08:00:00.000Z', // 03:00 EST
        '2025-11-03T05:00:00.000Z', // 00:00 EST
      ]);
    });
  });

  test('a restart every half hour is 48 restarts in a Kyiv day, and 46 on the spring-forward day', () => {
    const times = Array.from({ length: 48 }, (_, i) => `${Math.floor(i / 2)}:${i % 2 ? '30' : '00'}`);
    const countBetween = (fromIso: string, toIso: string) => {
      let now = new Date(fromIso);
      let count = 0;
      while ((now = nextRestartAt(times, 'Europe/Kyiv', now)!).getTime() <= new Date(toIso).getTime()) count += 1;
      return count;
    };
    expect(countBetween('2025-07-01T21:00:00Z', '2025-07-02T21:00:00Z')).toBe(48);
    // 03:00 and 03:30 do not exist on 2025-03-30; they run at 04:00 and 04:30 together with the real ones.
    expect(countBetween('2025-03-29T22:00:00Z', '2025-03-30T21:00:00Z')).toBe(46);
  });
});

describe('restart times on one weekday', () => {
  test('"ddd HH:MM" in any case is that weekday only; normalised after every day\'s times, Monday first', () => {
    expect(parseRestartTime('Mon 6:00')).toEqual({ day: 'mon', hour: 6, minute: 0 });
    expect(normalizeRestartTimes(['sun 23:00', 'MON 06:00', '12:00', 'mon 5:30'])).toEqual(['12:00', 'mon 05:30', 'mon 06:00', 'sun 23:00']);
  });

  test.each(['xyz 06:00', 'monday 06:00', 'mon', 'mon 25:00', 'mon6:00', 'mon  '])('%p is an invalid number', (value) => {
    expect(errorKeyOf(() => parseRestartTime(value))).toBe('invalid number');
  });

  test('a weekday time that every day already has is a duplicate, as is the same weekday time twice', () => {
    expect(errorKeyOf(() => normalizeRestartTimes(['06:00', 'mon 6:00']))).toBe('duplicate restart times');
    expect(errorKeyOf(() => normalizeRestartTimes(['tue 06:00', 'Tue 06:00']))).toBe('duplicate restart times');
    expect(normalizeRestartTimes(['mon 06:00', 'tue 06:00'])).toEqual(['mon 06:00', 'tue 06:00']);
  });

  test('the next restart is on the named weekday, up to a week ahead', () => {
    // 2025-05-01 is a Thursday.
    expect(next(['mon 06:00'], 'UTC', '2025-05-01T07:00:00Z')).toBe('2025-05-05T06:00:00.000Z');
    expect(next(['thu 06:00'], 'UTC', '2025-05-01T07:00:00Z')).toBe('2025-05-08T06:00:00.000Z');
    expect(next(['thu 08:00'], 'UTC', '2025-05-01T07:00:00Z')).toBe('2025-05-01T08:00:00.000Z');
    // Every day's time wins when it comes first.
    expect(next(['fri 03:00', '12:00'], 'UTC', '2025-05-01T07:00:00Z')).toBe('2025-05-01T12:00:00.000Z');
  });

  test("the weekday is the zone's: Sunday 23:30 in New York is Monday in UTC", () => {
    // 2025-05-04 is a Sunday; 23:30 EDT is 03:30 UTC on Monday.
    expect(next(['sun 23:30'], 'America/New_York', '2025-05-01T00:00:00Z')).toBe('2025-05-05T03:30:00.000Z');
  });

  test('a weekday time skipped by the spring-forward gap runs after it (Sunday 2025-03-09, New York)', () => {
    expect(next(['sun 02:30'], 'America/New_York', '2025-03-05T00:00:00Z')).toBe('2025-03-09T07:30:00.000Z');
  });
});
