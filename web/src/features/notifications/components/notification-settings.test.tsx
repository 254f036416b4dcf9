/** @jest-environment jsdom */
// The Notifications page's settings in Russian, against answers as the API gives them: a server without a bot offers
// nothing to press; "Link Telegram" opens the deep link, says how long it works and polls until the chat is linked;
// unlinking; e-mail alerts switched off.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { Notifications } from '../api/notifications-api';
import { linkingState, minutesLeft } from '../telegram-link';
import { NotificationSettings } from './notification-settings';

const ru = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ru.json'), 'utf8')) as Messages;
const words = ru.notifications;

/** A stand-in for the API: its settings change as the routes change them. */
function serve(settings: Notifications) {
  const calls: string[] = [];
  const link = { link: 'https://t.me/LoopcastBot?start=abcdefghijklmnopqrstuvwxyz', expiresAt: new Date(Date.now() + 600_000).toISOString() };
  globalThis.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${url}`;
    calls.push(call);
    const answer = (status: number, body?: unknown) =>
      ({ ok: status < 300, status, text: async () => (body === undefined ? '' : JSON.stringify(body)) }) as unknown as Response;
    if (call === 'GET /api/notifications') return answer(200, settings);
    if (call === 'PATCH /api/notifications') {
      settings = { ...settings, ...(JSON.parse(String(init?.body)) as { email: boolean }) };
      return answer(200, settings);
    }
    if (call === 'POST /api/notifications/telegram') return answer(200, link);
    if (call === 'DELETE /api/notifications/telegram') {
      settings = { ...settings, telegram: { available: true, linked: false } };
      return answer(204);
    }
    return answer(404, { error: 'route not found' });
  }) as unknown as typeof fetch;
  return { calls, link, linkChat: () => (settings = { ...settings, telegram: { available: true, linked: true, linkedAt: new Date().toISOString() } }) };
}

function page() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nProvider language={languageByCode('ru')} messages={ru}>
        <NotificationSettings email="lofi@example.com" />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const telegramCard = () => document.querySelector('[data-channel="telegram"]') as HTMLElement;

test('a server without a Telegram bot says so and offers no button', async () => {
  serve({ email: true, telegram: { available: false, linked: false } });
  page();
  await screen.findByText(words.telegram.unavailable);
  expect(within(telegramCard()).queryByRole('button')).toBeNull();
  expect(screen.getByText(words.email.onTo.replace('{{email}}', 'lofi@example.com'))).toBeTruthy();
});

test('"Link Telegram" opens the deep link, says it works 10 minutes, and the card turns linked once the chat is', async () => {
  const api = serve({ email: true, telegram: { available: true, linked: false } });
  const open = jest.fn(() => null);
  window.open = open as unknown as typeof window.open;
  page();
  fireEvent.click(await screen.findByRole('button', { name: words.telegram.link }));
  await within(telegramCard()).findByText(words.telegram.waiting);
  expect(open).toHaveBeenCalledWith(api.link.link, '_blank', 'noopener,noreferrer');
  expect(within(telegramCard()).getByRole('link', { name: words.telegram.openAgain }).getAttribute('href')).toBe(api.link.link);
  expect(telegramCard().textContent).toContain('Ссылка одноразовая и действует ещё 10 минут (до ');
  expect(telegramCard().getAttribute('data-linking')).toBe('waiting');

  // The creator presses Start in Telegram; the next poll (every 3 s) finds the chat linked.
  api.linkChat();
  await within(telegramCard()).findByRole('button', { name: words.telegram.unlink }, { timeout: 5_000 });
  expect(api.calls.filter((call) => call === 'GET /api/notifications').length).toBeGreaterThanOrEqual(2);

  fireEvent.click(within(telegramCard()).getByRole('button', { name: words.telegram.unlink }));
  await within(telegramCard()).findByRole('button', { name: words.telegram.link });
  expect(api.calls).toContain('DELETE /api/notifications/telegram');
}, 10_000);

test('e-mail alerts switched off are saved at once and say what still arrives', async () => {
  const api = serve({ email: true, telegram: { available: true, linked: false } });
  page();
  const toggle = await screen.findByRole('switch', { name: words.email.label });
  fireEvent.click(toggle);
  await screen.findByText(words.email.off);
  await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
  expect(api.calls).toContain('PATCH /api/notifications');
});

test('where linking stands: nothing asked, waiting, used, expired unused; minutes left, at least one while it works', () => {
  const link = { link: '', expiresAt: '2026-11-24T12:10:00.000Z' };
  const at = (time: string) => Date.parse(`2026-11-24T${time}Z`);
  expect(linkingState(undefined, false, at('12:00:00'))).toBe('idle');
  expect(linkingState(link, false, at('12:09:59'))).toBe('waiting');
  expect(linkingState(link, true, at('12:05:00'))).toBe('linked');
  expect(linkingState(link, false, at('12:10:00'))).toBe('expired');
  expect(minutesLeft(link, Date.parse('2026-11-24T12:00:00.000Z'))).toBe(10);
  expect(minutesLeft(link, Date.parse('2026-11-24T12:09:59.000Z'))).toBe(1);
  expect(minutesLeft(link, Date.parse('2026-11-24T12:05:30.000Z'))).toBe(5);
});
