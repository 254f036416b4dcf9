/** @jest-environment jsdom */
// Deleting an item that streams use: a live stream keeps it (the dialog names the stream and will not delete), a
// stopped one is named with what it loses; the words follow the item's kind, in the page's language.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { VideoItem } from '../api/videos-api';
import { DeleteVideoDialog } from './delete-video-dialog';

const ru = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ru.json'), 'utf8')) as Messages;
const item = (kind: 'video' | 'audio'): VideoItem => ({
  id: 'v1',
  kind,
  title: 'Дождь',
  fileName: 'rain.mp4',
  status: 'ready',
  progress: 100,
  sizeBytes: 1000,
  hasThumbnail: false,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const stream = (id: string, title: string, status: string, media: Record<string, string>) => ({
  id,
  title,
  status,
  channelIds: [],
  restartTimes: [],
  timeZone: 'UTC',
  ...media,
});

function openDialog(video: VideoItem, streams: unknown[]) {
  globalThis.fetch = jest.fn(async () => ({ ok: true, status: 204, text: async () => '' }) as unknown as Response) as unknown as typeof fetch;
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queryClient.setQueryData(['streams'], { streams });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider language={languageByCode('ru')} messages={ru}>
        <DeleteVideoDialog video={video} onDeleted={() => undefined} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const deleteButton = () => screen.getByRole('button', { name: ru.videos.delete.confirm, hidden: true }) as HTMLButtonElement;

test('a live stream keeps its video: the dialog names it and the delete button is off', () => {
  openDialog(item('video'), [stream('s1', 'Лофи', 'started', { videoId: 'v1' }), stream('s2', 'Другая', 'stopped', { videoId: 'v2' })]);
  expect(screen.getByText(ru.videos.delete.usedByRunning_one.replace('{{streams}}', '«Лофи»'))).toBeTruthy();
  expect(deleteButton().disabled).toBe(true);
});

test('stopped streams are named with what they lose, in the plural the count needs', () => {
  openDialog(item('video'), [stream('s1', 'Лофи', 'stopped', { videoId: 'v1' }), stream('s2', 'Дождь 24/7', 'stopped', { videoId: 'v1' })]);
  expect(screen.getByText((ru.videos.delete as Record<string, string>).usedByStoppedVideo_few!.replace('{{streams}}', '«Лофи» и «Дождь 24/7»'))).toBeTruthy();
  expect(deleteButton().disabled).toBe(false);
});

test("a soundtrack: the stream falls back to its video's own sound", () => {
  openDialog(item('audio'), [stream('s1', 'Лофи', 'stopped', { videoId: 'v9', audioId: 'v1' })]);
  expect(screen.getByText(ru.videos.delete.usedByStoppedAudio_one.replace('{{streams}}', '«Лофи»'))).toBeTruthy();
});

test('an item no stream uses gets the plain question only', () => {
  openDialog(item('video'), [stream('s1', 'Лофи', 'started', { videoId: 'v2' })]);
  expect(document.querySelector('[data-in-use]')).toBeNull();
  expect(deleteButton().disabled).toBe(false);
});
