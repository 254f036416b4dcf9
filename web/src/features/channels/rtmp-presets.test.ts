import { choosePreset, editServerUrl, emptyRtmpDraft, rtmpPresets } from './rtmp-presets';

describe('RTMP presets', () => {
  test('a new destination starts as YouTube with its server filled in', () => {
    expect(emptyRtmpDraft()).toEqual({ preset: 'youtube', name: 'YouTube', url: 'rtmp://a.rtmp.youtube.com/live2', key: '' });
  });

  test('choosing a platform fills its server URL and name, and keeps the key', () => {
    const twitch = choosePreset({ ...emptyRtmpDraft(), key: 'live_123' }, 'twitch');
    expect(twitch).toEqual({ preset: 'twitch', name: 'Twitch', url: 'rtmp://live.twitch.tv/app', key: 'live_123' });
    expect(choosePreset(twitch, 'kick').url).toMatch(/^rtmps:\/\/.+\/app$/);
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

  test('typing a server URL selects the platform it belongs to', () => {
    expect(editServerUrl(emptyRtmpDraft(), 'rtmp://ingest.example.com/live').preset).toBe('custom');
    expect(editServerUrl(emptyRtmpDraft(), ` ${rtmpPresets[1].url} `).preset).toBe('twitch');
  });
});
