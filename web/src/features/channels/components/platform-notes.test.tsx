/** @jest-environment jsdom */
// What the platform picker says of a platform in the page's language: the ingest (filled in, or where to find it),
// RTMPS, the limits as the presets table has them, the help links.
import { render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { presetById } from '@loopcast/contract/destination-presets';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import { PlatformNotes } from './platform-notes';

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

const lines = (container: HTMLElement) => [...container.querySelectorAll('li')].map((line) => line.textContent);

describe("the platform picker's notes", () => {
  test('Facebook: RTMPS only, what it takes at most and recommends, its help and stream key pages', () => {
    const { container } = inLanguage('en', <PlatformNotes id="notes" preset="facebook" />);
    expect(lines(container)).toEqual([
      'Facebook takes secure RTMPS only: the server URL starts with rtmps://. Loopcast checks the server’s certificate.',
      'Takes at most: a 1920×1080 frame, 60 frames a second, 9 Mb/s of video, and a keyframe at least every 4 sec.',
      'Recommends: a bitrate range for each resolution and a keyframe at least every 2 sec.',
    ]);
    expect(screen.getByRole('link', { name: 'How Facebook works with streaming software' }).getAttribute('href')).toBe(presetById('facebook').helpUrl);
    expect(screen.getByRole('link', { name: 'Your stream key on Facebook' }).getAttribute('href')).toBe(presetById('facebook').keyUrl);
  });

  test('Instagram Live in Ukrainian: its own server URL per creator, RTMPS, what it recommends and leaves unpublished', () => {
    const { container } = inLanguage('ua', <PlatformNotes id="notes" preset="instagram" />);
    const said = lines(container);
    expect(said[0]).toBe(ua.platforms.perUser.replace('{{platform}}', 'Instagram Live'));
    expect(said[1]).toBe(ua.platforms.rtmpsOnly.replace('{{platform}}', 'Instagram Live'));
    expect(said[2]).toContain('1280×720');
    expect(said[2]).toContain(ua.platforms.limit.portrait);
    expect(said[3]).toBe(ua.platforms.unpublished.replace('{{platform}}', 'Instagram Live').replace('{{what}}', ua.platforms.unpublishedItem.keyframeInterval));
    expect(screen.getByRole('link', { name: ua.platforms.help.replace('{{platform}}', 'Instagram Live') })).toBeTruthy();
  });

  test('another server: RTMP or RTMPS with the certificate checked, and no help link of a platform', () => {
    const { container } = inLanguage('en', <PlatformNotes id="notes" preset="custom" />);
    expect(lines(container)).toEqual([en.platforms.customNote]);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
