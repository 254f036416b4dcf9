import { connectReturnOf, withoutConnectReturn, youtubeChannelUrl, youtubeRoom } from './youtube-connect';

describe('the YouTube section of the Channels page', () => {
  test('reads what the callback sent back, and only that', () => {
    expect(connectReturnOf(new URLSearchParams('connected=ch_1'))).toEqual({ connected: 'ch_1' });
    expect(connectReturnOf(new URLSearchParams('error=youtube%20scope%20missing'))).toEqual({ error: 'youtube scope missing' });
    expect(connectReturnOf(new URLSearchParams('error=livestreaming+not+enabled'))).toEqual({ error: 'livestreaming not enabled' });
    expect(connectReturnOf(new URLSearchParams('error=<script>'))).toEqual({ error: 'internal error' });
    expect(connectReturnOf(new URLSearchParams('connected='))).toBeUndefined();
    expect(connectReturnOf(new URLSearchParams('tab=keys'))).toBeUndefined();
  });

  test('cleans the answer from the address and keeps the rest', () => {
    expect(withoutConnectReturn(new URLSearchParams('connected=ch_1&tab=keys')).toString()).toBe('tab=keys');
    expect(withoutConnectReturn(new URLSearchParams('error=channel+limit')).toString()).toBe('');
  });

  test('counts connected accounts, revoked ones too, against the plan', () => {
    const channels = [{ kind: 'youtube' as const }, { kind: 'rtmp' as const }, { kind: 'rtmp' as const }];
    expect(youtubeRoom(channels, 1)).toEqual({ connected: 1, limit: 1, full: true });
    expect(youtubeRoom(channels, 5)).toEqual({ connected: 1, limit: 5, full: false });
    expect(youtubeRoom([], 1)).toEqual({ connected: 0, limit: 1, full: false });
    expect(youtubeRoom(channels, undefined)).toEqual({ connected: 1, limit: undefined, full: false });
  });

  test('links a channel to its page on YouTube', () => {
    expect(youtubeChannelUrl('UCabc_-9')).toBe('https://www.youtube.com/channel/UCabc_-9');
  });
});
