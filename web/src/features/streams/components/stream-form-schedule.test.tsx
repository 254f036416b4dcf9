/** @jest-environment jsdom */
// A "Once" schedule that has run keeps its past times on the stream (the API keeps an unchanged schedule as it is).
// A creator saw the Edit form refuse every save with the browser's own bubble on the old stop time ("Value must be
// ... or later"): a finished schedule must never block other edits, and a past time only counts when the schedule
// itself changes, said in the page's words beside that time.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder, TextEncoder } from 'node:util';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { Stream } from '../api/streams-api';
import { readyVideo } from '../test-fixtures';

// jsdom has no TextEncoder, which React Router needs as its modules load.
Object.assign(globalThis, { TextEncoder, TextDecoder });
const { MemoryRouter } = await import('react-router');
const { StreamForm } = await import('./stream-form');
const { ScheduleForm } = await import('./schedule-form');

const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../../i18n/locales/${code}.json`), 'utf8')) as Messages;
const en = catalogue('en');
const ru = catalogue('ru');

const video = readyVideo;

/** Stopped on time yesterday: the card reads "Once: done". */
const finished = {
  id: 's1',
  title: 'Launch party',
  status: 'stopped',
  verdict: 'healthy',
  videoId: 'v1',
  channelIds: ['c1'],
  restartTimes: [],
  timeZone: 'UTC',
  attentionMinutes: 5,
  // Made through the API, with seconds, which a datetime-local input's default step of a minute would refuse.
  schedule: { kind: 'once', startAt: '2026-11-24T08:00:30', stopAt: '2026-11-24T08:18' },
  hasCustomThumbnail: false,
  restarts: 0,
  needsAttention: false,
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-24T08:18:00.000Z',
} as unknown as Stream;

let requests: { method: string; path: string; body?: unknown }[] = [];

beforeEach(() => {
  jest.useFakeTimers({ now: Date.parse('2026-11-25T12:00:00Z'), doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  requests = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    requests.push({ method: init?.method ?? 'GET', path, body });
    return { ok: true, status: 200, text: async () => JSON.stringify({ ...finished, ...(body as object) }) } as unknown as Response;
  }) as unknown as typeof fetch;
});
afterEach(() => jest.useRealTimers());

function renderForm(code: 'en' | 'ru', onDone = jest.fn(), form: 'stream' | 'schedule' = 'stream') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queryClient.setQueryData(['videos'], { videos: [video('v1', 'Rain'), video('v2', 'Sunrise')] });
  queryClient.setQueryData(['channels'], {
    channels: [{ id: 'c1', kind: 'rtmp', name: 'Twitch', createdAt: '2026-01-01T00:00:00.000Z' }],
    youtubeAvailable: false,
  });
  queryClient.setQueryData(['subscription'], { limits: { destinationsPerStream: 1, concurrentStreams: 1, playlistItems: 5 }, usage: { runningStreams: 0 } });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider language={languageByCode(code)} messages={code === 'en' ? en : ru}>
        <MemoryRouter>{form === 'stream' ? <StreamForm stream={finished} onDone={onDone} /> : <ScheduleForm stream={finished} onDone={onDone} />}</MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
  return onDone;
}

test('a finished one-time schedule does not block another change: the edit is saved, the schedule left as it is', async () => {
  const onDone = renderForm('en');
  fireEvent.change(screen.getByLabelText(en.streams.form.video), { target: { value: 'v2' } });
  fireEvent.click(screen.getByRole('button', { name: en.streams.form.save }));
  await waitFor(() => expect(onDone).toHaveBeenCalled());
  // The PATCH carries no schedule (the API takes none there), and the unchanged schedule is not PUT again.
  expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['PATCH /api/streams/s1']);
  expect(requests[0]?.body).toMatchObject({ videoId: 'v2' });
  // Nothing for the browser to refuse on its own: the past times carry no minimum.
  for (const input of document.querySelectorAll<HTMLInputElement>('input[type="datetime-local"]')) expect(input.checkValidity()).toBe(true);
});

test('changing that schedule to another past time is refused beside the time, in the page language, before asking the API', async () => {
  const onDone = renderForm('ru');
  const stop = screen.getByLabelText(ru.streams.schedule.stopAt);
  fireEvent.change(stop, { target: { value: '2026-11-24T09:00' } });
  fireEvent.click(screen.getByRole('button', { name: ru.streams.form.save }));
  const alert = await screen.findByText(ru.streams.schedule.check.startPassed);
  // Beside the start, which is the first time that has passed; the start field is marked and focused.
  const start = screen.getByLabelText(ru.streams.schedule.startAt);
  expect(start.getAttribute('aria-invalid')).toBe('true');
  expect(start.getAttribute('aria-describedby')).toContain(alert.id);
  expect(document.activeElement).toBe(start);
  expect(requests).toEqual([]);
  expect(onDone).not.toHaveBeenCalled();

  // A start ahead, and a stop that has passed: said at the stop.
  fireEvent.change(start, { target: { value: '' } });
  fireEvent.click(screen.getByRole('button', { name: ru.streams.form.save }));
  await screen.findByText(ru.streams.schedule.check.stopPassed);
  expect(stop.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(stop);

  // A stop before its start.
  fireEvent.change(start, { target: { value: '2026-11-26T10:00' } });
  fireEvent.change(stop, { target: { value: '2026-11-26T09:00' } });
  await screen.findByText(ru.streams.schedule.check.stopBeforeStart);
  expect(requests).toEqual([]);

  // Both ahead: saved, and the changed schedule is sent.
  fireEvent.change(stop, { target: { value: '2026-11-26T12:00' } });
  fireEvent.click(screen.getByRole('button', { name: ru.streams.form.save }));
  await waitFor(() => expect(onDone).toHaveBeenCalled());
  expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['PATCH /api/streams/s1', 'PUT /api/streams/s1/schedule']);
  expect(requests[1]?.body).toEqual({ schedule: { kind: 'once', startAt: '2026-11-26T10:00', stopAt: '2026-11-26T12:00' } });
});

test('the schedule editor saves an unchanged finished schedule by sending nothing', async () => {
  const onDone = renderForm('en', jest.fn(), 'schedule');
  fireEvent.click(screen.getByRole('button', { name: en.streams.schedule.save }));
  await waitFor(() => expect(onDone).toHaveBeenCalled());
  expect(requests).toEqual([]);
});
