import { timeline, type StreamEvent } from '@loopcast/core/streams/history';
import { formatMoment } from './stream-display';
import { formatDay, formatUptime, groupByDay, timelineItems } from './stream-history';

// A night as the API records it (oldest first): started, live, an outage that needed attention, back, a restart,
// a scheduled restart, stopped by the plan.
const night: StreamEvent[] = [
  { at: '2026-11-23T20:00:00.000Z', kind: 'started' },
  { at: '2026-11-23T20:00:03.000Z', kind: 'live' },
  { at: '2026-11-23T23:10:00.000Z', kind: 'interrupted', reason: 'ffmpeg exited with code 1: rtmp://127.0.0.1:1935/live/***: Operation not permitted' },
  { at: '2026-11-23T23:16:00.000Z', kind: 'needs attention', reason: 'ffmpeg exited with code 1: rtmp://127.0.0.1:1935/live/***: Operation not permitted' },
  { at: '2026-11-23T23:22:30.000Z', kind: 'live' },
  { at: '2026-11-23T23:23:00.000Z', kind: 'recovered', durationSeconds: 780 },
  { at: '2026-11-24T02:00:00.000Z', kind: 'restarted', reason: 'the stream task stopped reporting' },
  { at: '2026-11-24T02:00:40.000Z', kind: 'live' },
  { at: '2026-11-24T03:00:00.000Z', kind: 'scheduled restart' },
  { at: '2026-11-24T03:00:02.000Z', kind: 'live' },
  { at: '2026-11-24T09:00:00.000Z', kind: 'stopped', reason: 'no active subscription' },
];

describe('the timeline as the page shows it', () => {
  const items = timelineItems(timeline(night));

  test('newest first, troubles amber, good news green, the rest neutral', () => {
    expect(items.map((item) => `${item.kind}:${item.tone}`)).toEqual([
      'stopped:warning',
      'live:good',
      'scheduled restart:idle',
      'live:good',
      'restarted:warning',
      'recovered:good',
      'live:good',
      'needs attention:warning',
      'interrupted:warning',
      'live:good',
      'started:idle',
    ]);
  });

  test('how long each trouble lasted: media gone, the incident until it recovered, the time not healthy', () => {
    const of = (kind: string) => items.find((item) => item.kind === kind)!;
    expect(of('interrupted')).toMatchObject({ durationSeconds: 750, ongoing: false });
    expect(of('restarted')).toMatchObject({ durationSeconds: 40, ongoing: false });
    expect(of('needs attention')).toMatchObject({ durationSeconds: 420, ongoing: false });
    expect(of('recovered')).toMatchObject({ durationSeconds: 780, ongoing: false });
  });

  test("catalogue keys are reasons to translate; anything else is the task's own words", () => {
    expect(items[0]!.reason).toEqual({ key: 'no active subscription' });
    expect(items.find((item) => item.kind === 'restarted')!.reason).toEqual({ reason: 'the stream task stopped reporting' });
    expect(items.find((item) => item.kind === 'started')!.reason).toBeUndefined();
  });

  test('a start or stop by the schedule is not a reason; a scheduled start that could not happen is amber, with its reason', () => {
    const scheduled = timelineItems(
      timeline([
        { at: '2026-11-23T08:00:00.000Z', kind: 'started', reason: 'schedule' },
        { at: '2026-11-23T12:00:00.000Z', kind: 'stopped', reason: 'schedule' },
        { at: '2026-11-24T08:00:00.000Z', kind: 'start refused', reason: 'stream limit' },
      ]),
    );
    expect(scheduled.map(({ kind, tone, bySchedule, reason }) => ({ kind, tone, bySchedule, reason }))).toEqual([
      { kind: 'start refused', tone: 'warning', bySchedule: undefined, reason: { key: 'stream limit' } },
      { kind: 'stopped', tone: 'idle', bySchedule: true, reason: undefined },
      { kind: 'started', tone: 'idle', bySchedule: true, reason: undefined },
    ]);
  });

  test('a trouble that goes on now is ongoing: an interruption not followed by media, an incident not recovered', () => {
    const now = timelineItems(timeline(night.slice(0, 4)));
    expect(now.map((item) => [item.kind, item.ongoing, item.durationSeconds])).toEqual([
      ['needs attention', true, undefined],
      ['interrupted', true, undefined],
      ['live', false, undefined],
      ['started', false, undefined],
    ]);
  });

  test('an incident ends with the run when the stream is stopped before it recovered', () => {
    const stopped = timelineItems(timeline([...night.slice(0, 4), { at: '2026-11-23T23:20:00.000Z', kind: 'stopped' }]));
    expect(stopped.find((item) => item.kind === 'needs attention')).toMatchObject({ durationSeconds: 240, ongoing: false });
    expect(stopped[0]).toMatchObject({ kind: 'stopped', tone: 'idle' });
  });
});

describe("days and times in the viewer's clock", () => {
  const items = timelineItems(timeline(night));

  test('grouped by day, newest day first, counted back from today', () => {
    const days = groupByDay(items, Date.parse('2026-11-24T12:00:00.000Z'), 'Europe/Kyiv');
    expect(days.map((day) => [day.day, day.daysAgo, day.items.length])).toEqual([
      ['2026-11-24', 0, 9],
      ['2026-11-23', 1, 2],
    ]);
    // In New York the same night is the evening before; only the stop is today.
    expect(groupByDay(items, Date.parse('2026-11-24T12:00:00.000Z'), 'America/New_York').map((day) => [day.day, day.daysAgo, day.items.length])).toEqual([
      ['2026-11-24', 0, 1],
      ['2026-11-23', 1, 10],
    ]);
  });

  test("a day reads in the page's language", () => {
    expect(formatDay('2026-11-23', 'en')).toBe('Monday, November 23');
    expect(formatDay('2026-11-23', 'uk')).toBe('понеділок, 23 листопада');
  });

  test('a moment is its time on the same day, with the date before that (one time style per language)', () => {
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    expect(formatMoment('2026-11-24T09:05:00.000Z', 'en', now, 'UTC')).toBe('9:05 AM');
    expect(formatMoment('2026-11-24T09:05:00.000Z', 'ru', now, 'UTC')).toBe('09:05');
    expect(formatMoment('2026-11-23T21:05:00.000Z', 'en', now, 'UTC')).toBe('Nov 23, 2026, 9:05 PM');
  });
});

test('uptime reads as a percentage rounded down, so any time off air never shows as 100 %', () => {
  expect(formatUptime(1, 'en')).toBe('100%');
  expect(formatUptime(0.99995, 'en')).toBe('99.9%');
  expect(formatUptime(0.9567, 'ru')).toBe('95,6\u00a0%');
  expect(formatUptime(0, 'uk')).toBe('0%');
});
