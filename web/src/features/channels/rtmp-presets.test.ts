import { choosePreset, editServerUrl, emptyRtmpDraft, fixedUrlOf } from './rtmp-presets';

describe('the platform picker', () => {
  test('a new destination starts as YouTube with its server filled in (over RTMPS)', () => {
    expect(emptyRtmpDraft()).toEqual({ preset: 'youtube', name: 'YouTube', url: 'rtmps://a.rtmps.youtube.com:443/live2', key: '' });
  });

  test('choosing a platform fills its server URL and name, and keeps the key', () => {
    const twitch = choosePreset({ ...emptyRtmpDraft(), key: 'live_123' }, 'twitch');
    expect(twitch).toEqual({ preset: 'twitch', name: 'Twitch', url: 'rtmp://live.twitch.tv/app', key: 'live_123' });
    expect(choosePreset(twitch, 'kick').url).toMatch(/^rtmps:\/\/.+\/app$/);
    expect(choosePreset(twitch, 'trovo')).toMatchObject({ name: 'Trovo', url: 'rtmp://livepush.trovo.live/live' });
  });

  test('a platform with a server URL of each creator leaves the field to paste, with its name', () => {
    expect(choosePreset(emptyRtmpDraft(), 'instagram')).toMatchObject({ preset: 'instagram', name: 'Instagram Live', url: '' });
    expect(choosePreset(emptyRtmpDraft(), 'x')).toMatchObject({ preset: 'x', name: 'X', url: '' });
  });

  test('a name the user typed survives platform changes', () => {
    const named = { ...emptyRtmpDraft(), name: 'Gaming channel' };
    expect(choosePreset(named, 'facebook')).toMatchObject({ preset: 'facebook', name: 'Gaming channel', url: 'rtmps://live-api-s.facebook.com:443/rtmp' });
    expect(choosePreset(named, 'custom')).toMatchObject({ preset: 'custom', name: 'Gaming channel', url: '' });
  });

  test('custom clears what a platform filled in but keeps a server the user typed', () => {
    expect(choosePreset(emptyRtmpDraft(), 'custom')).toMatchObject({ preset: 'custom', name: '', url: '' });
    const typed = editServerUrl(emptyRtmpDraft(), 'rtmp://ingest.example.com/live');
    expect(choosePreset(typed, 'custom').url).toBe('rtmp://ingest.example.com/live');
  });

  test('typing a server URL selects the platform it belongs to; one pasted for a picked platform stays with it', () => {
    expect(editServerUrl(emptyRtmpDraft(), 'rtmp://ingest.example.com/live').preset).toBe('custom');
    expect(editServerUrl(emptyRtmpDraft(), ` ${fixedUrlOf('twitch')} `).preset).toBe('twitch');
    expect(editServerUrl(emptyRtmpDraft(), 'rtmp://live-fra.twitch.tv/app').preset).toBe('twitch');
    const instagram = choosePreset(emptyRtmpDraft(), 'instagram');
    expect(editServerUrl(instagram, 'rtmps://edgetee-upload-fra.example.net:443/rtmp').preset).toBe('instagram');
  });
});
