/** @jest-environment jsdom */
// Editing a destination: only what changed is sent; a duplicate is refused at its field with the catalogue's words
// and what to do; while a stream is live on it, its server and key wait (the stream is named), its name does not.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { ChannelView } from '../api/channels-api';
import { EditChannelForm } from './edit-channel-form';

const ua = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ua.json'), 'utf8')) as Messages;
const channel: ChannelView = {
  id: 'c1',
  kind: 'rtmp',
  name: 'Twitch',
  preset: 'twitch',
  rtmpUrl: 'rtmp://live.twitch.tv/app',
  keyHint: '••••WXYZ',
  createdAt: '2026-01-01T00:00:00.000Z',
};

function answer(status: number, body: unknown) {
  const fetch = jest.fn(async () => ({ ok: status < 300, status, text: async () => JSON.stringify(body) }) as unknown as Response);
  globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
  return fetch;
}

function edit(streams: { id: string; title: string; running: boolean }[] = [], onDone: () => void = () => undefined) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider language={languageByCode('ua')} messages={ua}>
        <EditChannelForm channel={channel} streams={streams} onDone={onDone} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

test('only the changed fields are sent: a new name and a new key, the server as it was', async () => {
  const fetch = answer(200, { ...channel, name: 'Twitch головний', keyHint: '••••KEY9' });
  const onDone = jest.fn();
  edit([], onDone);
  expect(screen.getByText(ua.channels.edit.keepKey.replace('{{hint}}', '••••WXYZ'))).toBeTruthy();
  fireEvent.change(screen.getByLabelText(ua.channels.rtmp.name), { target: { value: ' Twitch головний ' } });
  fireEvent.change(screen.getByLabelText(ua.channels.edit.newKey), { target: { value: 'live_2_newKEY9' } });
  fireEvent.click(screen.getByRole('button', { name: ua.channels.edit.save }));
  await screen.findByRole('button', { name: ua.channels.edit.save });
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(fetch).toHaveBeenCalledWith(
    '/api/channels/c1',
    expect.objectContaining({ method: 'PATCH', body: JSON.stringify({ name: 'Twitch головний', key: 'live_2_newKEY9' }) }),
  );
  expect(onDone).toHaveBeenCalled();
});

test("a duplicate name is refused at the name, with the catalogue's words and what to do", async () => {
  answer(409, {
    error: 'duplicate destination',
    message: 'You already have a destination with this name or stream key',
    details: { fields: { name: 'duplicate' } },
  });
  edit();
  const name = screen.getByLabelText(ua.channels.rtmp.name);
  fireEvent.change(name, { target: { value: 'YouTube' } });
  fireEvent.click(screen.getByRole('button', { name: ua.channels.edit.save }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toBe(ua.errors['duplicate destination'] + ua.channels.duplicate.name);
  expect(name.getAttribute('aria-invalid')).toBe('true');
  expect(name.getAttribute('aria-describedby')).toBe(alert.id);
});

test('another platform: its server URL and name filled in, its notes shown, a new key asked for; the platform sent with what changed', async () => {
  const fetch = answer(200, { ...channel, name: 'YouTube', preset: 'youtube', rtmpUrl: 'rtmps://a.rtmps.youtube.com:443/live2', keyHint: '••••KEY9' });
  edit();
  const platform = screen.getByLabelText(ua.channels.rtmp.platform) as HTMLSelectElement;
  expect(platform.value).toBe('twitch');
  fireEvent.change(platform, { target: { value: 'youtube' } });
  expect((screen.getByLabelText(ua.channels.serverUrl) as HTMLInputElement).value).toBe('rtmps://a.rtmps.youtube.com:443/live2');
  expect((screen.getByLabelText(ua.channels.rtmp.name) as HTMLInputElement).value).toBe('YouTube');
  expect(document.querySelector('.dest-platform-notes')?.getAttribute('data-platform')).toBe('youtube');
  expect(screen.getByText(ua.channels.edit.newPlatformKey.replace('{{platform}}', 'YouTube').replace('{{hint}}', '••••WXYZ'))).toBeTruthy();
  fireEvent.change(screen.getByLabelText(ua.channels.edit.newKey), { target: { value: 'abcd-efgh-KEY9' } });
  fireEvent.click(screen.getByRole('button', { name: ua.channels.edit.save }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(fetch).toHaveBeenCalledWith(
    '/api/channels/c1',
    expect.objectContaining({
      method: 'PATCH',
      body: JSON.stringify({ name: 'YouTube', preset: 'youtube', url: 'rtmps://a.rtmps.youtube.com:443/live2', key: 'abcd-efgh-KEY9' }),
    }),
  );
});

test('while a stream is live on it, the platform, server and key wait and the stream is named; the name can change', () => {
  answer(200, channel);
  edit([{ id: 's1', title: 'Лофі', running: true }]);
  expect(screen.getByText(ua.channels.edit.liveAddress_one.replace('{{streams}}', '«Лофі»'))).toBeTruthy();
  expect((screen.getByLabelText(ua.channels.serverUrl) as HTMLInputElement).disabled).toBe(true);
  expect((screen.getByLabelText(ua.channels.rtmp.platform) as HTMLSelectElement).disabled).toBe(true);
  expect((screen.getByLabelText(ua.channels.edit.newKey) as HTMLInputElement).disabled).toBe(true);
  expect((screen.getByLabelText(ua.channels.rtmp.name) as HTMLInputElement).disabled).toBe(false);
});
