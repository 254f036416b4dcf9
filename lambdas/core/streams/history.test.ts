import { START_ALLOWANCE_MS, uptime, uptimeShare, UPTIME_WINDOWS, type StreamEvent } from './history';

const start = Date.parse('2026-11-25T08:00:00Z');
const at = (seconds: number) => new Date(start + seconds * 1000);
const event = (seconds: number, kind: StreamEvent['kind']): StreamEvent => ({ at: at(seconds).toISOString(), kind });
const hour = 3600;

describe('uptime', () => {
  test('a stream that went live within its start allowance has 100 %: the wait for its first media is not down time', () => {
    const events = [event(0, 'started'), event(2, 'live')];
    expect(uptimeShare(events, at(108), UPTIME_WINDOWS.day)).toBe(1);
    // A Fargate task that took two minutes to publish, the same.
    expect(uptimeShare([event(0, 'started'), event(120, 'live')], at(hour), UPTIME_WINDOWS.day)).toBe(1);
  });

  test('a start slower than the allowance counts the rest of its wait as down', () => {
    const allowance = START_ALLOWANCE_MS / 1000;
    const events = [event(0, 'started'), event(allowance + 60, 'live')];
    // Should have run from the allowance's end: 60 s of it without media, in the hour after the start.
    expect(uptimeShare(events, at(hour), UPTIME_WINDOWS.day)).toBeCloseTo((hour - allowance - 60) / (hour - allowance), 6);
    // Still waiting: no media at all since the allowance ended.
    expect(uptimeShare([event(0, 'started')], at(allowance + 30), UPTIME_WINDOWS.day)).toBe(0);
    expect(uptimeShare([event(0, 'started')], at(allowance - 1), UPTIME_WINDOWS.day)).toBeNull();
  });

  test('an interruption while running counts, its recovery not; a stop ends the time that counts', () => {
    const events = [event(0, 'started'), event(2, 'live'), event(1800, 'interrupted'), event(1860, 'live'), event(hour, 'stopped')];
    expect(uptimeShare(events, at(2 * hour), UPTIME_WINDOWS.day)).toBeCloseTo((hour - 2 - 60) / (hour - 2), 6);
    // Restarts are down until media is back; restarting is not a new start with an allowance.
    const restarted = [event(0, 'started'), event(2, 'live'), event(600, 'restarted'), event(630, 'live')];
    expect(uptimeShare(restarted, at(1200), UPTIME_WINDOWS.day)).toBeCloseTo((1200 - 2 - 30) / (1200 - 2), 6);
  });

  test('each window counts only its own time; a stream that did not run in it has none', () => {
    const events = [event(0, 'started'), event(2, 'live'), event(3600, 'interrupted'), event(7200, 'live'), event(8 * 24 * hour, 'stopped')];
    const now = at(8 * 24 * hour + 60);
    const shares = uptime(events, now);
    expect(shares.day).toBe(1);
    expect(shares.week).toBe(1);
    expect(shares.month).toBeCloseTo((8 * 24 * hour - 2 - hour) / (8 * 24 * hour - 2), 6);
    expect(uptimeShare(events, at(10 * 24 * hour), UPTIME_WINDOWS.day)).toBeNull();
  });
});
