/** @jest-environment jsdom */
// Saving a running stream's playlist says so, also when the stream's new revision arrives before the save's own
// answer: the save publishes stream.state first, the page refetches, and the editor (keyed by revision) remounts
// while the request is still open. A creator saw no confirmation then.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder, TextEncoder } from 'node:util';
import { useState } from 'react';
import { currentToasts, dismissToast } from '../../../components/toasts/toast-store';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { Stream } from '../api/streams-api';
import { readyVideo } from '../test-fixtures';

// jsdom has no TextEncoder, which React Router (the refusal's links) needs as its modules load.
Object.assign(globalThis, { TextEncoder, TextDecoder });
const { MemoryRouter } = await import('react-router');
const { PlaylistEditor } = await import('./playlist-editor');

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/en.json'), 'utf8')) as Messages;
const video = readyVideo;
const running = (revision: number) =>
  ({
    id: 's1',
    title: 'Three moods',
    status: 'started',
    videoId: 'v1',
    channelIds: ['c1'],
    restartTimes: [],
    timeZone: 'UTC',
    playlist: { videoIds: ['v1', 'v2'], shuffle: false, revision, applied: 0 },
  }) as unknown as Stream & { playlist: NonNullable<Stream['playlist']> };

/** The stream page as far as the editor goes: remounts it when the revision changes, as stream-page-view does. */
let showRevision: (revision: number) => void = () => undefined;
function Page() {
  const [revision, setRevision] = useState(0);
  showRevision = setRevision;
  const stream = running(revision);
  return <PlaylistEditor key={stream.playlist.revision} stream={stream} />;
}

afterEach(() => currentToasts().forEach((toast) => dismissToast(toast.id)));

test.each(['join', 'restart'] as const)('a save whose new revision arrives before its answer still confirms it (%s)', async (apply) => {
  let answer: (response: Response) => void = () => undefined;
  globalThis.fetch = jest.fn(() => new Promise<Response>((resolve) => (answer = resolve))) as unknown as typeof fetch;
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queryClient.setQueryData(['videos'], { videos: [video('v1', 'Rain'), video('v2', 'Sunrise')] });
  queryClient.setQueryData(['subscription'], { limits: { destinationsPerStream: 1, concurrentStreams: 1, playlistItems: 5 }, usage: { runningStreams: 1 } });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider language={languageByCode('en')} messages={en}>
        <MemoryRouter>
          <Page />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
  if (apply === 'restart') fireEvent.click(screen.getByRole('radio', { name: en.streams.playlist.applyRestart }));
  fireEvent.click(screen.getByRole('button', { name: en.streams.playlist.save }));
  await waitFor(() => expect(globalThis.fetch).toHaveBeenCalled());
  act(() => showRevision(1));
  const saved = running(1);
  await act(async () => answer({ ok: true, status: 200, text: async () => JSON.stringify(saved) } as unknown as Response));
  const expected = apply === 'join' ? en.streams.playlist.savedJoin : en.streams.playlist.savedRestart;
  await waitFor(() => expect(currentToasts().map((toast) => toast.message)).toEqual([expected]));
});
