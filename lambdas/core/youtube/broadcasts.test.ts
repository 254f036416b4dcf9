// The broadcast keeper's decisions with an in-memory YouTube account (the real googleapis path is covered by
// test/api/youtube.test.ts against the fake Google).
import type { Channel } from '../channels/channel';
import { AppError } from '../errors';
import type { SecretBox } from '../secret-box';
import type { ChannelStore } from '../streams/ports';
import type { Stream } from '../streams/stream';
import { YouTubeBroadcasts, type BroadcastRecord } from './broadcasts';
import { YouTubeError, type BroadcastState, type YouTubeAccount } from './ports';

const plainBox: SecretBox = { seal: async (text) => text, open: async (text) => text };
const now = new Date('2026-11-21T12:00:00Z');

function setup(account: Partial<YouTubeAccount>) {
  const channels = new Map<string, Channel>([
    [
      'c1',
      {
        id: 'c1',
        userId: 'u1',
        kind: 'youtube',
        name: 'Radio',
        rtmpUrl: 'rtmp://a.rtmp.youtube.com/live2',
        sealedKey: 'key',
        youtube: { channelId: 'UC1', sealedRefreshToken: 'refresh', liveStreamId: 'ls1', status: 'connected' },
        createdAt: now.toISOString(),
      },
    ],
  ]);
  const records = new Map<string, BroadcastRecord>();
  const store: ChannelStore = {
    create: async (c) => void channels.set(c.id, c),
    update: async (c) => void channels.set(c.id, c),
    get: async (_u, id) => channels.get(id),
    list: async () => [...channels.values()],
    delete: async (_u, id) => void channels.delete(id),
  };
  let made = 0;
  const youtube: YouTubeAccount = {
    channel: async () => ({ id: 'UC1', title: 'Radio' }),
    createLiveStream: async () => ({ id: 'ls1', ingestionAddress: 'rtmp://x/live2', streamName: 'key' }),
    liveStream: async () => undefined,
    createBroadcast: async () => `b${++made}`,
    bind: async () => undefined,
    broadcastState: async (): Promise<BroadcastState> => 'live',
    complete: async () => undefined,
    setThumbnail: async () => undefined,
    ...account,
  };
  const keeper = new YouTubeBroadcasts({
    oauth: async () => ({
      consentUrl: () => '',
      newCodeVerifier: async () => ({ codeVerifier: '', codeChallenge: '' }),
      exchange: async () => ({ refreshToken: '', scopes: [] }),
      account: () => youtube,
    }),
    channels: store,
    records: {
      list: async () => [...records.values()],
      put: async (r) => void records.set(r.channelId, r),
      remove: async (_u, _s, channelId) => void records.delete(channelId),
    },
    secrets: plainBox,
    thumbnail: async () => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff]), contentType: 'image/jpeg' }),
    now: () => now,
    log: () => undefined,
  });
  const stream = { id: 's1', userId: 'u1', title: 'Loop', channelIds: ['c1'] } as Stream;
  return { keeper, stream, records, channels };
}

describe('YouTube broadcasts', () => {
  test('a refused thumbnail is a warning, not a failed start', async () => {
    const { keeper, stream, records } = setup({
      setThumbnail: async () => {
        throw new YouTubeError('invalid image', 'too big');
      },
    });
    expect(await keeper.prepare(stream)).toBe('thumbnail save failed');
    expect(records.get('c1')?.broadcastId).toBe('b1');
  });

  test.each([
    ['revoked', 'Google refresh token error'],
    ['live streaming not enabled', 'livestreaming not enabled'],
    ['quota exceeded', 'starting stream failed'],
  ] as const)('a start failing with %s is "%s"', async (failure, key) => {
    const { keeper, stream, channels } = setup({
      createBroadcast: async () => {
        throw new YouTubeError(failure, 'no');
      },
    });
    await expect(keeper.prepare(stream)).rejects.toEqual(new AppError(key));
    expect(channels.get('c1')?.youtube?.status).toBe(failure === 'revoked' ? 'revoked' : 'connected');
  });

  test('checks are spaced half an hour apart; an ended broadcast is replaced', async () => {
    let state: BroadcastState = 'live';
    const { keeper, stream, records } = setup({ broadcastState: async () => state });
    await keeper.prepare(stream);
    state = 'complete';
    expect(await keeper.check(stream)).toBeUndefined();
    expect(records.get('c1')?.broadcastId).toBe('b1'); // checked too recently
    records.set('c1', { ...records.get('c1')!, checkedAt: new Date(now.getTime() - 31 * 60_000).toISOString() });
    await keeper.check(stream);
    expect(records.get('c1')?.broadcastId).toBe('b2');
  });

  test.each([
    ['quota exceeded', 'updating stream failed'],
    ['revoked', 'Google refresh token error'],
  ] as const)('a live stream whose ended broadcast cannot be replaced (%s) warns "%s" and goes on', async (failure, key) => {
    let state: BroadcastState = 'live';
    let failing = false;
    const { keeper, stream, records } = setup({
      broadcastState: async () => state,
      createBroadcast: async () => {
        if (failing) throw new YouTubeError(failure, 'no');
        return 'b1';
      },
    });
    await keeper.prepare(stream);
    [state, failing] = ['complete', true];
    records.set('c1', { ...records.get('c1')!, checkedAt: new Date(now.getTime() - 31 * 60_000).toISOString() });
    expect(await keeper.check(stream)).toBe(key);
  });

  test('end completes the broadcasts and never throws', async () => {
    const { keeper, stream, records } = setup({
      complete: async () => {
        throw new YouTubeError('other', 'down');
      },
    });
    await keeper.prepare(stream);
    await expect(keeper.end(stream)).resolves.toBeUndefined();
    expect(records.size).toBe(0);
  });
});
