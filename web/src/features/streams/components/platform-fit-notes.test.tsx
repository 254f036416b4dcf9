/** @jest-environment jsdom */
// What a stream's form says of its video against its destinations' platforms, in the page's language: refusals
// and advice from the same check the API runs.
import { render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { ChannelView } from '../api/stream-sources';
import { PlatformFitNotes } from './platform-fit-notes';

const messages = (code: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../../i18n/locales/${code}.json`), 'utf8')) as Messages;
const en = messages('en');
const ua = messages('ua');

function inLanguage(code: 'en' | 'ua', node: React.ReactNode) {
  return render(
    <I18nProvider language={languageByCode(code)} messages={code === 'en' ? en : ua}>
      {node}
    </I18nProvider>,
  );
}

describe("a stream's video against its destinations' platforms", () => {
  const channel = (id: string, preset: ChannelView['preset']): ChannelView => ({
    id,
    kind: 'rtmp',
    name: `My ${preset}`,
    preset,
    rtmpUrl: 'rtmps://example.com/app',
    keyHint: '••••abcd',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const uhd60 = { status: 'ready', width: 3840, height: 2160, frameRate: 60, videoBitrate: 20_000_000, keyframeIntervalSeconds: 2 };

  test('a 4K60 video cannot go to Kick (a refusal naming what is beyond its limits); Instagram advises otherwise', () => {
    inLanguage('en', <PlatformFitNotes video={uhd60} channels={[channel('k', 'kick'), channel('i', 'instagram'), channel('y', 'youtube')]} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'Kick cannot take this video (My kick): a 3840×2160 frame, above 1920×1080 and 20 Mb/s of video, above 8.5 Mb/s. Choose a video made with a lower output profile, or another destination.',
    );
    const advice = screen.getAllByRole('status').map((note) => note.textContent);
    expect(advice).toHaveLength(1);
    expect(advice[0]).toMatch(
      /^Instagram Live recommends otherwise \(My instagram\): a 3840×2160 frame, above 1280×720, 60 frames a second, above 30, 20 Mb\/s of video, above 6 Mb\/s, and a landscape frame/,
    );
  });

  test('a 1080p30 video of the single output before profiles (6 Mbit/s, 2 s keyframes) suits YouTube and Twitch: nothing said', () => {
    const { container } = inLanguage(
      'en',
      <PlatformFitNotes video={{ status: 'ready', width: 1920, height: 1080 }} channels={[channel('y', 'youtube'), channel('t', 'twitch')]} />,
    );
    expect(container.textContent).toBe('');
  });

  test('nothing while the video is still encoding', () => {
    const { container } = inLanguage('ua', <PlatformFitNotes video={{ status: 'encoding' }} channels={[channel('k', 'kick')]} />);
    expect(container.textContent).toBe('');
  });
});
