/** @jest-environment jsdom */
// What the platform picker says of a platform, and what a stream's form says of its video against its
// destinations' platforms, in the page's language: the ingest (filled in, or where to find it), RTMPS, the limits
// as the presets table has them, the help links; refusals and advice from the same check the API runs.
import { render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { presetById } from '../../../../../lambdas/contract/destination-presets';
import type { Messages } from '../../../i18n/catalogue';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode } from '../../../i18n/languages';
import type { ChannelView } from '../api/channels-api';
import { PlatformFitNotes } from '../../streams/components/platform-fit-notes';
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

describe('the platform picker\'s notes', () => {
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

describe('a stream\'s video against its destinations\' platforms', () => {
  const channel = (id: string, preset: ChannelView['preset']): ChannelView => ({ id, kind: 'rtmp', name: `My ${preset}`, preset, rtmpUrl: 'rtmps://example.com/app', keyHint: '••••abcd', createdAt: '2026-01-01T00:00:00.000Z' });
  const uhd60 = { status: 'ready', width: 3840, height: 2160, frameRate: 60, videoBitrate: 20_000_000, keyframeIntervalSeconds: 2 };

  test('a 4K60 video cannot go to Kick (a refusal naming what is beyond its limits); Instagram advises otherwise', () => {
    inLanguage('en', <PlatformFitNotes video={uhd60} channels={[channel('k', 'kick'), channel('i', 'instagram'), channel('y', 'youtube')]} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'Kick cannot take this video (My kick): a 3840×2160 frame, above 1920×1080 and 20 Mb/s of video, above 8.5 Mb/s. Choose a video made with a lower output profile, or another destination.',
    );
    const advice = screen.getAllByRole('status').map((note) => note.textContent);
    expect(advice).toHaveLength(1);
    expect(advice[0]).toMatch(/^Instagram Live recommends otherwise \(My instagram\): a 3840×2160 frame, above 1280×720, 60 frames a second, above 30, 20 Mb\/s of video, above 6 Mb\/s, and a landscape frame/);
  });

  test('a 1080p30 video of the single output before profiles (6 Mbit/s, 2 s keyframes) suits YouTube and Twitch: nothing said', () => {
    const { container } = inLanguage('en', <PlatformFitNotes video={{ status: 'ready', width: 1920, height: 1080 }} channels={[channel('y', 'youtube'), channel('t', 'twitch')]} />);
    expect(container.textContent).toBe('');
  });

  test('nothing while the video is still encoding', () => {
    const { container } = inLanguage('ua', <PlatformFitNotes video={{ status: 'encoding' }} channels={[channel('k', 'kick')]} />);
    expect(container.textContent).toBe('');
  });
});
