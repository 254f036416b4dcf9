/** @jest-environment jsdom */
// Deleting and renaming items the API refuses to change (409): the refusal shows translated, nothing is removed.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { Messages } from '../../../i18n/catalogue';
import { videosQueryKey, type VideoItem } from '../api/videos-api';
import { DeleteVideoDialog } from './delete-video-dialog';
import { VideoTitle } from './video-title';

const ru = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ru.json'), 'utf8')) as Messages;

const video: VideoItem = {
  id: 'v1',
  kind: 'video',
  title: 'Sunset',
  fileName: 'sunset.mp4',
  status: 'encoding',
  progress: 40,
  sizeBytes: 1000,
  hasThumbnail: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function refuseWith(key: string) {
  const fetch = jest.fn(
    async () => ({ ok: false, status: 409, text: async () => JSON.stringify({ error: key, message: 'English text' }) }) as unknown as Response,
  );
  globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
  return fetch;
}

function withProviders(children: ReactNode) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(videosQueryKey, { videos: [video] });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider language={languageByCode('ru')} messages={ru}>
        {children}
      </I18nProvider>
    </QueryClientProvider>,
  );
  return queryClient;
}

test.each([['video encoding'], ['video in use']] as const)('a delete refused with %s says why, in the page language', async (key) => {
  const fetch = refuseWith(key);
  const onDeleted = jest.fn();
  // The dialog's content, as shown once opened (jsdom has no modal dialogs).
  const queryClient = withProviders(<DeleteVideoDialog video={video} onDeleted={onDeleted} />);
  fireEvent.click(screen.getByRole('button', { name: ru.videos.delete.confirm, hidden: true }));
  const alert = await screen.findByRole('alert', { hidden: true });
  expect(alert.textContent).toBe(ru.errors[key]);
  expect(fetch).toHaveBeenCalledWith('/api/videos/v1', expect.objectContaining({ method: 'DELETE' }));
  expect(onDeleted).not.toHaveBeenCalled();
  expect(queryClient.getQueryData(videosQueryKey)).toEqual({ videos: [video] });
});

test('a rename refused while encoding keeps the form open with the reason beside the field', async () => {
  refuseWith('video encoding');
  withProviders(<VideoTitle video={video} />);
  fireEvent.click(screen.getByRole('button', { name: `${ru.videos.rename.button}: Sunset` }));
  const input = screen.getByLabelText(ru.videos.rename.label);
  fireEvent.change(input, { target: { value: 'Sunrise' } });
  fireEvent.submit(input.closest('form')!);
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toBe(ru.errors['video encoding']);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  expect(input.getAttribute('aria-describedby')).toBe(alert.id);
});
