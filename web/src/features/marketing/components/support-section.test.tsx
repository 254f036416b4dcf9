/** @jest-environment jsdom */
// The landing page's support section shows the configured channels, translated, and is absent without any.
import { render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import { SupportSection } from './support-section';

const ua = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ua.json'), 'utf8')) as Messages;

const renderUa = (channels: Parameters<typeof SupportSection>[0]['channels']) =>
  render(
    <I18nProvider language={languageByCode('ua')} messages={ua}>
      <SupportSection channels={channels} />
    </I18nProvider>,
  );

test('only the configured channels are links, in the page language', () => {
  renderUa({ email: 'help@loopcast.tv', telegramUrl: 'https://t.me/loopcast_help' });
  const links = screen.getAllByRole('link');
  expect(links.map((link) => link.getAttribute('href'))).toEqual(['mailto:help@loopcast.tv', 'https://t.me/loopcast_help']);
  expect(screen.getByRole('heading', { name: ua.landing.supportTitle })).toBeTruthy();
  expect(links[0]?.textContent).toContain(ua.landing.supportEmailBody.replace('{{address}}', 'help@loopcast.tv'));
  expect(screen.queryByText(ua.landing.supportChat)).toBeNull();
});

test('without any channel there is no section', () => {
  const { container } = renderUa({});
  expect(container.innerHTML).toBe('');
});
