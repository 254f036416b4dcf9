/** @jest-environment jsdom */
// A stream's history as a creator reads it, in Ukrainian: plain words for each event, how long each trouble lasted,
// catalogue reasons translated, the task's own words as details; the uptime as percentages or "not running". And the
// needs-attention verdict: amber, since when, only while it runs.
import { render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TimelineEntry } from '@loopcast/contract/api/history';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import { StreamAttention } from './stream-attention';
import { StreamBadges } from './stream-badges';
import { StreamTimeline } from './stream-timeline';
import { StreamUptime } from './stream-uptime';

const ua = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ua.json'), 'utf8')) as Messages;
const words = ua.streams.history;

function inUkrainian(children: React.ReactNode) {
  return render(
    <I18nProvider language={languageByCode('ua')} messages={ua}>
      {children}
    </I18nProvider>,
  );
}

const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();

// Newest first, as GET /streams/{id}/history answers.
const events: TimelineEntry[] = [
  { at: at(0.5), kind: 'stopped', reason: 'no active subscription' },
  { at: at(1), kind: 'recovered', durationSeconds: 425 },
  { at: at(1.01), kind: 'live' },
  { at: at(1.1), kind: 'needs attention', reason: 'ffmpeg exited with code 1: Broken pipe' },
  { at: at(1.2), kind: 'interrupted', reason: 'ffmpeg exited with code 1: Broken pipe', durationSeconds: 690 },
  { at: at(1.3), kind: 'broadcast', reason: 'Google refresh token error' },
  { at: at(1.4), kind: 'scheduled restart' },
  { at: at(1.5), kind: 'restarted', reason: 'the stream task stopped reporting', durationSeconds: 40 },
  { at: at(2), kind: 'live' },
  { at: at(2.01), kind: 'started' },
];

const entry = (kind: string) => document.querySelector(`.stream-event[data-kind="${kind}"]`) as HTMLElement;

test('each event in plain words, newest first, with how long the trouble lasted', () => {
  inUkrainian(<StreamTimeline events={events} now={Date.now()} />);
  expect([...document.querySelectorAll('.stream-event')].map((item) => item.getAttribute('data-kind'))).toEqual(events.map((event) => event.kind));
  expect(entry('interrupted').querySelector('.stream-event__title')!.textContent).toBe(`${words.event.interrupted.title} · не в ефірі 11 хв 30 с`);
  expect(entry('restarted').querySelector('.stream-event__title')!.textContent).toBe(`${words.event.restarted.title} · не в ефірі 40 с`);
  // The incident lasted until the stream recovered.
  expect(entry('needs attention').querySelector('.stream-event__title')!.textContent).toBe(`${words.event.needsAttention.title} · тривало 6 хв`);
  expect(entry('recovered').querySelector('.stream-event__body')!.textContent).toBe(words.event.recovered.body.replace('{{duration}}', '7 хв 5 с'));
  expect(entry('scheduled restart').textContent).toContain(words.event.scheduledRestart.title);
  // Times of day in the language's one style.
  expect(entry('live').querySelector('time')!.textContent).toMatch(/^\d{2}:\d{2}$/);
});

test("catalogue reasons are translated; the task's own words are technical details", () => {
  inUkrainian(<StreamTimeline events={events} now={Date.now()} />);
  const stopped = entry('stopped');
  expect(within(stopped).getByText(words.event.stoppedWithReason.title)).toBeTruthy();
  expect(stopped.querySelector('.stream-event__reason')!.textContent).toBe(ua.errors['no active subscription']);
  expect(entry('broadcast').querySelector('.stream-event__title')!.textContent).toBe(words.event.broadcastWarning.title);
  expect(entry('broadcast').querySelector('.stream-event__reason')!.textContent).toBe(ua.errors['Google refresh token error']);
  expect(entry('interrupted').querySelector('.stream-event__detail')!.textContent).toBe(`${words.details}: ffmpeg exited with code 1: Broken pipe`);
  expect(entry('restarted').querySelector('.stream-event__detail')!.textContent).toBe(`${words.details}: the stream task stopped reporting`);
  expect(entry('started').querySelector('.stream-event__reason, .stream-event__detail')).toBeNull();
});

test('troubles going on now say so; nothing yet says what will show', () => {
  const { unmount } = inUkrainian(
    <StreamTimeline
      events={[
        { at: at(0.1), kind: 'needs attention' },
        { at: at(0.2), kind: 'interrupted', ongoing: true },
        { at: at(0.3), kind: 'live' },
      ]}
      now={Date.now()}
    />,
  );
  expect(entry('needs attention').querySelector('.stream-event__length')!.textContent).toBe(` · ${words.length.stillGoing}`);
  expect(entry('interrupted').querySelector('.stream-event__length')!.textContent).toBe(` · ${words.length.stillOffAir}`);
  unmount();
  inUkrainian(<StreamTimeline events={[]} now={Date.now()} />);
  expect(screen.getByText(words.empty)).toBeTruthy();
});

test('uptime as a percentage per window, or that it did not run then', () => {
  inUkrainian(<StreamUptime uptime={{ day: 0.9567, week: 0.99995, month: null }} />);
  expect(document.querySelector('[data-window="day"] dd')!.textContent).toBe('95,6%');
  expect(document.querySelector('[data-window="week"] dd')!.textContent).toBe('99,9%');
  expect(document.querySelector('[data-window="month"] dd')!.textContent).toBe(words.notRunning);
});

describe('needs attention', () => {
  test('a running stream that needs attention: an amber badge and since when, in plain words', () => {
    // A minute ago, but never yesterday: an incident of another day names its date (the next test).
    const since = new Date(Math.max(Date.now() - 60_000, new Date().setHours(0, 0, 0, 0)));
    inUkrainian(
      <>
        <StreamBadges status="pending" verdict="recovering" needsAttention />
        <StreamAttention stream={{ status: 'pending', needsAttention: true, attentionSince: since.toISOString(), attentionMinutes: 5 }} />
      </>,
    );
    const badge = document.querySelector('[data-attention]')!;
    expect(badge.textContent).toBe(ua.streams.attention.badge);
    expect(badge.className).toContain('stream-badge--attention');
    const time = new Intl.DateTimeFormat('uk', { timeStyle: 'short' }).format(since);
    expect(screen.getByRole('status').textContent).toBe(
      ua.streams.attention.since.replace('{{time}}', time) + (ua.streams.attention as Record<string, string>).body_many!.replace('{{count}}', '5'),
    );
  });

  test('an incident of another day names the date; nothing shows for a healthy or a stopped stream', () => {
    const { unmount } = inUkrainian(
      <StreamAttention stream={{ status: 'started', needsAttention: true, attentionSince: '2026-01-05T10:00:00.000Z', attentionMinutes: 1 }} />,
    );
    expect(screen.getByRole('status').textContent).toContain(
      new Intl.DateTimeFormat('uk', { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse('2026-01-05T10:00:00.000Z')),
    );
    expect(screen.getByRole('status').textContent).toContain(ua.streams.attention.body_one.replace('{{count}}', '1'));
    unmount();
    inUkrainian(
      <>
        <StreamBadges status="started" verdict="healthy" />
        <StreamAttention stream={{ status: 'started', needsAttention: false, attentionMinutes: 5 }} />
        <StreamAttention stream={{ status: 'stopped', needsAttention: true, attentionSince: at(1), attentionMinutes: 5 }} />
      </>,
    );
    expect(document.querySelector('[data-attention]')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
