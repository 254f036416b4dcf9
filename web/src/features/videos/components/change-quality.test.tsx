/** @jest-environment jsdom */
// Making a ready video lighter: the dialog offers only lower choices of the plan, sends the one picked, and shows a
// refusal (a running stream plays the video) translated, leaving the item as it was.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plans } from '@loopcast/core/plans';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import { videosQueryKey, type VideoItem } from '../api/videos-api';
import { ChangeQuality, ChangeQualityDialog } from './change-quality';
import { QualityNotes } from './video-quality';

const ru = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ru.json'), 'utf8')) as Messages;

const video: VideoItem = {
  id: 'v1',
  kind: 'video',
  title: 'Закат',
  fileName: 'sunset.mp4',
  status: 'ready',
  progress: 100,
  sizeBytes: 1000,
  hasThumbnail: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  quality: { profile: '1080p30', tier: 'medium' },
  output: { profile: '1080p30', tier: 'medium', frameRate: 30, videoBitrate: 4_500_000, limitedBy: [] },
};

function answer(status: number, body: unknown) {
  const fetch = jest.fn(async () => ({ ok: status < 400, status, text: async () => JSON.stringify(body) }) as unknown as Response);
  globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
  return fetch;
}

function renderRu(children: React.ReactNode) {
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

const radioLabels = () => screen.getAllByRole('radio', { hidden: true }).map((radio) => radio.closest('label')?.textContent?.split(' · около')[0]);

test('offers what is lower than the file within the plan, and sends the choice picked', async () => {
  const fetch = answer(200, { ...video, status: 'encoding', quality: { profile: '720p30', tier: 'low' } });
  const onClose = jest.fn();
  const queryClient = renderRu(<ChangeQualityDialog video={video} allowed={plans.basic.limits.outputProfiles} onClose={onClose} />);
  expect(radioLabels()).toEqual(['720p · 30 кадр/с · 4,5 Мбит/с', '1080p · 30 кадр/с · 3 Мбит/с', '720p · 30 кадр/с · 3 Мбит/с']);
  fireEvent.click(screen.getAllByRole('radio', { hidden: true })[2]!);
  fireEvent.click(screen.getByRole('button', { name: ru.videos.quality.changeSubmit, hidden: true }));
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(fetch).toHaveBeenCalledWith(
    '/api/videos/v1/quality',
    expect.objectContaining({ method: 'POST', body: JSON.stringify({ profile: '720p30', tier: 'low' }) }),
  );
  expect((queryClient.getQueryData(videosQueryKey) as { videos: VideoItem[] }).videos[0]?.status).toBe('encoding');
});

test('a change refused because a running stream plays the video says so in the page language; the item stays', async () => {
  answer(409, { error: 'video in use', message: 'English text' });
  const onClose = jest.fn();
  const queryClient = renderRu(<ChangeQualityDialog video={video} allowed={plans.basic.limits.outputProfiles} onClose={onClose} />);
  fireEvent.click(screen.getByRole('button', { name: ru.videos.quality.changeSubmit, hidden: true }));
  const alert = await screen.findByRole('alert', { hidden: true });
  expect(alert.textContent).toBe(ru.errors['video in use']);
  expect(onClose).not.toHaveBeenCalled();
  expect(queryClient.getQueryData(videosQueryKey)).toEqual({ videos: [video] });
});

test('the lightest file has nothing lower to offer', () => {
  const lightest: VideoItem = { ...video, output: { profile: '720p30', tier: 'low', frameRate: 30, videoBitrate: 3_000_000, limitedBy: [] } };
  renderRu(<ChangeQualityDialog video={lightest} allowed={plans.basic.limits.outputProfiles} onClose={() => undefined} />);
  screen.getByText(ru.videos.quality.nothingLower);
  expect(screen.queryByRole('button', { name: ru.videos.quality.changeSubmit, hidden: true })).toBeNull();
});

test('on the card, the lightest file offers no dialog: the button is off, and says why beside it', () => {
  const lightest: VideoItem = { ...video, output: { profile: '720p30', tier: 'low', frameRate: 30, videoBitrate: 3_000_000, limitedBy: [] } };
  renderRu(<ChangeQuality video={lightest} allowed={plans.basic.limits.outputProfiles} />);
  const button = screen.getByRole('button', { name: `${ru.videos.quality.change}: Закат` });
  expect((button as HTMLButtonElement).disabled).toBe(true);
  expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(ru.videos.quality.nothingLower);
  expect(screen.queryByRole('dialog', { hidden: true })).toBeNull();
});

test('on the card, a file with lighter choices keeps the button that opens the dialog', () => {
  renderRu(<ChangeQuality video={video} allowed={plans.basic.limits.outputProfiles} />);
  const button = screen.getByRole('button', { name: `${ru.videos.quality.change}: Закат` });
  expect((button as HTMLButtonElement).disabled).toBe(false);
  expect(button.getAttribute('aria-describedby')).toBeNull();
  expect(screen.getByRole('dialog', { hidden: true })).toBeTruthy();
});

test('the card says why a file is below what was asked, and that a change failed', () => {
  const limited: VideoItem = {
    ...video,
    quality: { profile: '1080p60', tier: 'low' },
    output: { profile: '1080p30', tier: 'low', frameRate: 30, videoBitrate: 3_000_000, limitedBy: ['source frame rate'] },
    qualityChangeError: { key: 'internal error' },
  };
  renderRu(<QualityNotes video={limited} />);
  screen.getByText(ru.videos.quality.limited.sourceFrameRate);
  screen.getByText(ru.videos.quality.changeFailed.replace('{{reason}}', ru.errors['internal error']));
});
