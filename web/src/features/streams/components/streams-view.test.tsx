/** @jest-environment jsdom */
// The Streams page with no stream yet says what is still missing for the first one, with the button to it; a creator
// who had uploaded a video and added a destination read "Upload a video and add a destination" and found no button.
// The new stream form ticks the one destination there is.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder, TextEncoder } from 'node:util';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';

// jsdom has no TextEncoder, which React Router needs as its modules load.
Object.assign(globalThis, { TextEncoder, TextDecoder });
const { MemoryRouter } = await import('react-router');
const { StreamsView } = await import('./streams-view');

const catalogue = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../../i18n/locales/${code}.json`), 'utf8')) as Messages;
const en = catalogue('en');
const ru = catalogue('ru');

const video = {
  id: 'v1',
  kind: 'video',
  title: 'Rain',
  fileName: 'rain.mp4',
  status: 'ready',
  progress: 100,
  sizeBytes: 1,
  hasThumbnail: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const channel = (id: string, name: string) => ({
  id,
  kind: 'rtmp',
  name,
  rtmpUrl: 'rtmp://live.example.com/app',
  keyHint: '••••',
  createdAt: '2026-01-01T00:00:00.000Z',
});

function renderPage(code: 'en' | 'ru', { videos, channels }: { videos: unknown[]; channels: unknown[] }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queryClient.setQueryData(['streams'], { streams: [] });
  queryClient.setQueryData(['videos'], { videos });
  queryClient.setQueryData(['channels'], { channels, youtubeAvailable: false });
  queryClient.setQueryData(['subscription'], { limits: { destinationsPerStream: 1, concurrentStreams: 1, playlistItems: 5 }, usage: { runningStreams: 0 } });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider language={languageByCode(code)} messages={code === 'en' ? en : ru}>
        <MemoryRouter initialEntries={[code === 'en' ? '/app/streams' : `/${code}/app/streams`]}>
          <StreamsView />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}
const links = () => screen.queryAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);

test('nothing yet: upload a video and add a destination, a button for each', () => {
  renderPage('en', { videos: [], channels: [] });
  screen.getByText(en.streams.emptyBody);
  expect(links()).toEqual([
    [en.streams.form.uploadVideo, '/app/videos'],
    [en.streams.empty.addDestination, '/app/channels'],
  ]);
});

test('a destination but no video: only the video is asked for (in Russian, to the Russian pages)', () => {
  renderPage('ru', { videos: [], channels: [channel('c1', 'Twitch')] });
  screen.getByText(ru.streams.empty.needsVideo);
  expect(links()).toEqual([[ru.streams.form.uploadVideo, '/ru/app/videos']]);
});

test('a video but no destination: only the destination is asked for', () => {
  renderPage('en', { videos: [video], channels: [] });
  screen.getByText(en.streams.empty.needsDestination);
  expect(links()).toEqual([[en.streams.empty.addDestination, '/app/channels']]);
});

test('both there: create the first stream, in a form that ticks the one destination', () => {
  renderPage('en', { videos: [video], channels: [channel('c1', 'Twitch')] });
  expect(screen.queryByText(en.streams.emptyBody)).toBeNull();
  screen.getByText(en.streams.empty.ready);
  expect(links()).toEqual([]);
  fireEvent.click(screen.getByRole('button', { name: en.streams.empty.create }));
  const only = screen.getByRole('checkbox', { name: /Twitch/ }) as HTMLInputElement;
  expect(only.checked).toBe(true);
  // Unticked, it stays so.
  fireEvent.click(only);
  expect(only.checked).toBe(false);
});

test('with two destinations the form ticks none: the creator chooses', () => {
  renderPage('en', { videos: [video], channels: [channel('c1', 'Twitch'), channel('c2', 'Kick')] });
  fireEvent.click(screen.getByRole('button', { name: en.streams.empty.create }));
  expect((screen.getByRole('checkbox', { name: /Twitch/ }) as HTMLInputElement).checked).toBe(false);
  expect((screen.getByRole('checkbox', { name: /Kick/ }) as HTMLInputElement).checked).toBe(false);
});
