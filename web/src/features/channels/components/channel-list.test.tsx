/** @jest-environment jsdom */
// Deleting a destination says so. The deletion refetches the destinations and the streams; the destinations'
// answer removes the card, and the component that asked for the deletion with it, before the streams' answer
// ends the deletion: a confirmation in mutate's callbacks was dropped then, every time, in Chromium.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentToasts, dismissToast } from '../../../components/toasts/toast-store';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { ChannelView } from '../api/channels-api';
import { ChannelList } from './channel-list';

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/en.json'), 'utf8')) as Messages;
const channel = (id: string, name: string): ChannelView => ({
  id,
  kind: 'rtmp',
  name,
  preset: 'twitch',
  rtmpUrl: 'rtmp://live.twitch.tv/app',
  keyHint: '••••WXYZ',
  createdAt: '2026-01-01T00:00:00.000Z',
});

afterEach(() => currentToasts().forEach((toast) => dismissToast(toast.id)));

test('a deleted destination is confirmed with its name, and its card is gone', async () => {
  // The server after the deletion: one destination left, no stream. The streams answer comes a little after the
  // destinations' (as in Chromium, where the card was gone before the deletion's callbacks ran).
  globalThis.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    if (url.includes('/streams')) await new Promise((resolve) => setTimeout(resolve, 50));
    const body =
      init?.method === 'DELETE'
        ? ''
        : url.includes('/channels')
          ? JSON.stringify({ channels: [channel('c2', 'YouTube backup')], youtubeAvailable: false })
          : JSON.stringify({ streams: [] });
    return { ok: true, status: init?.method === 'DELETE' ? 204 : 200, text: async () => body } as unknown as Response;
  }) as unknown as typeof fetch;
  const queryClient = new QueryClient();
  queryClient.setQueryData(['channels'], { channels: [channel('c1', 'Night stream'), channel('c2', 'YouTube backup')], youtubeAvailable: false });
  queryClient.setQueryData(['streams'], { streams: [] });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider language={languageByCode('en')} messages={en}>
        <ChannelList highlightId={undefined} />
      </I18nProvider>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: en.channels.deleteTitle.replace('{{name}}', 'Night stream') }));
  fireEvent.click(screen.getByRole('button', { name: en.channels.deleteConfirm }));
  await waitFor(() => expect(screen.queryByRole('heading', { name: 'Night stream' })).toBeNull());
  await waitFor(() => expect(currentToasts().map((toast) => toast.message)).toEqual([en.channels.deleted.replace('{{name}}', 'Night stream')]));
});
