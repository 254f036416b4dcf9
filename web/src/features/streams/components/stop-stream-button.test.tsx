/** @jest-environment jsdom */
// Stop asks first while viewers can see the broadcast (one tap ended a 24/7 stream); a stream still starting or
// waiting for its video stops at once.
import { jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { Stream } from '../api/streams-api';
import { StopStreamButton } from './stop-stream-button';

const ua = JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales/ua.json'), 'utf8')) as Messages;

// jsdom has no modal dialogs: opening and closing as the browser does, minus the top layer.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
});

function renderButton(stream: Pick<Stream, 'title' | 'status' | 'startedAt'>) {
  const onStop = jest.fn();
  render(
    <I18nProvider language={languageByCode('ua')} messages={ua}>
      <StopStreamButton stream={stream} onStop={onStop} loading={false}>
        {ua.streams.card.stop}
      </StopStreamButton>
    </I18nProvider>,
  );
  return onStop;
}
const dialog = () => screen.getByRole('dialog', { hidden: true }) as HTMLDialogElement;
const title = (name: string) => ua.streams.stop.title.replace('{{title}}', name);

test('a live stream asks first: Keep streaming changes nothing, Stop stream stops it', () => {
  const onStop = renderButton({ title: 'Лофі-радіо 24/7', status: 'started', startedAt: '2026-11-20T10:00:00.000Z' });
  const stop = screen.getByRole('button', { name: ua.streams.card.stop });
  expect(stop.getAttribute('aria-haspopup')).toBe('dialog');
  fireEvent.click(stop);
  expect(dialog().open).toBe(true);
  expect(onStop).not.toHaveBeenCalled();
  // Named by its question, described by what viewers will see; the way back comes first, so it has the focus.
  expect(screen.getByRole('dialog', { name: title('Лофі-радіо 24/7') })).toBe(dialog());
  expect(document.getElementById(dialog().getAttribute('aria-describedby')!)?.textContent).toBe(ua.streams.stop.body);
  const buttons = [...dialog().querySelectorAll('button')].map((button) => button.textContent);
  expect(buttons).toEqual([ua.streams.stop.keep, ua.streams.stop.confirm]);

  fireEvent.click(screen.getByRole('button', { name: ua.streams.stop.keep }));
  expect(dialog().open).toBe(false);
  expect(onStop).not.toHaveBeenCalled();

  fireEvent.click(stop);
  fireEvent.click(screen.getByRole('button', { name: ua.streams.stop.confirm }));
  expect(dialog().open).toBe(false);
  expect(onStop).toHaveBeenCalledTimes(1);
});

test('a stream restarting after it was on air asks too', () => {
  const onStop = renderButton({ title: 'Дощ', status: 'pending', startedAt: '2026-11-20T10:00:00.000Z' });
  fireEvent.click(screen.getByRole('button', { name: ua.streams.card.stop }));
  expect(dialog().open).toBe(true);
  expect(onStop).not.toHaveBeenCalled();
});

test.each([
  ['still starting', { status: 'pending' }],
  ['waiting for its video', { status: 'encoding' }],
] as const)('a stream %s has reached nobody yet: one click stops it', (_, state) => {
  const onStop = renderButton({ title: 'Дощ', ...state });
  const stop = screen.getByRole('button', { name: ua.streams.card.stop });
  expect(stop.getAttribute('aria-haspopup')).toBeNull();
  fireEvent.click(stop);
  expect(onStop).toHaveBeenCalledTimes(1);
  expect(dialog().open).toBe(false);
});
