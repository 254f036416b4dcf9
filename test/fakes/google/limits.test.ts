// What YouTube refuses: channels without live streaming, an exhausted daily quota, thumbnails that are too big or
// not images, requests without valid credentials. Errors arrive as GaxiosError with YouTube's error body.
import { Readable } from 'node:stream';
import { gaxios } from 'google-auth-library';
import type { youtube_v3 } from 'googleapis';
import { connect } from './connect';
import { Quota } from './quota';
import { startFakeGoogle, type FakeGoogle } from './server';

let fake: FakeGoogle;
let youtube: youtube_v3.Youtube;

async function start(options: Parameters<typeof startFakeGoogle>[0] = {}): Promise<void> {
  fake = await startFakeGoogle(options);
  ({ youtube } = await connect(fake));
}
afterEach(() => fake.stop());

interface Failure {
  status: number | undefined;
  body: { error: { code: number; message: string; errors: { reason: string; domain: string }[] } };
}

async function failure(call: Promise<unknown>): Promise<Failure> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof gaxios.GaxiosError)) throw new Error(`expected a GaxiosError, got ${String(error)}`);
  return { status: error.status, body: error.response?.data };
}

function insertBroadcast() {
  return youtube.liveBroadcasts.insert({
    part: ['snippet', 'status', 'contentDetails'],
    requestBody: {
      snippet: { title: 'Loop', scheduledStartTime: new Date().toISOString() },
      status: { privacyStatus: 'private' },
      contentDetails: { enableAutoStart: true },
    },
  });
}

describe('live streaming not enabled', () => {
  test('live calls fail with liveStreamingNotEnabled pointing at youtube.com/features; the channel itself still lists', async () => {
    await start();
    fake.setLiveStreamingEnabled(fake.defaultAccount.sub, false);
    const { status, body } = await failure(insertBroadcast());
    expect(status).toBe(403);
    expect(body.error).toMatchObject({
      code: 403,
      message: 'The user is not enabled for live streaming.',
      errors: [{ reason: 'liveStreamingNotEnabled', domain: 'youtube.liveBroadcast', extendedHelp: 'https://www.youtube.com/features' }],
    });
    await expect(youtube.channels.list({ part: ['snippet'], mine: true })).resolves.toMatchObject({ status: 200 });

    fake.setLiveStreamingEnabled(fake.defaultAccount.sub, true);
    await expect(insertBroadcast()).resolves.toMatchObject({ status: 200 });
  });
});

describe('quota', () => {
  test('each call costs its published units, counted per Pacific-time day', async () => {
    await start();
    await youtube.channels.list({ part: ['snippet'], mine: true });
    const { data } = await insertBroadcast();
    await youtube.liveBroadcasts.list({ part: ['status'], id: [data.id ?? ''] });
    await youtube.liveBroadcasts.transition({ id: data.id ?? '', broadcastStatus: 'live', part: ['status'] }).catch(() => undefined);
    expect(fake.calls.filter((call) => call.quotaCost > 0).map((call) => [call.api, call.quotaCost])).toEqual([
      ['channels.list', 1],
      ['liveBroadcasts.insert', 50],
      ['liveBroadcasts.list', 1],
      ['liveBroadcasts.transition', 50],
    ]);
    expect(fake.quota.used()).toBe(102);
    expect(fake.quota.byDay()).toEqual({ [Quota.day(Date.now())]: 102 });
  });

  test('an exhausted budget is quotaExceeded until midnight Pacific Time', async () => {
    let now = Date.parse('2027-03-10T07:30:00Z'); // 23:30 in Los Angeles
    await start({ now: () => now, dailyQuota: 60 });
    await insertBroadcast();
    const { status, body } = await failure(insertBroadcast());
    expect(status).toBe(403);
    expect(body.error.errors[0]).toMatchObject({ reason: 'quotaExceeded', domain: 'youtube.quota' });
    expect(fake.quota.used()).toBe(50);

    now = Date.parse('2027-03-10T08:00:00Z'); // midnight in Los Angeles
    await expect(insertBroadcast()).resolves.toMatchObject({ status: 200 });
    expect(fake.quota.byDay()).toEqual({ '2027-03-09': 50, '2027-03-10': 50 });
  });
});

describe('thumbnails', () => {
  const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 7)]);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

  async function setThumbnail(videoId: string, mimeType: string, bytes: Buffer) {
    // googleapis rewrites a service-wide rootUrl into the request URL but not into the media upload URL
    // (/upload/...): a media call needs rootUrl as a per-call option, or it goes to youtube.googleapis.com.
    return youtube.thumbnails.set({ videoId, media: { mimeType, body: Readable.from([bytes]) } }, { rootUrl: fake.youtubeRootUrl });
  }

  test('a JPEG or PNG up to 2 MB becomes the broadcast thumbnail', async () => {
    await start();
    const { data: broadcast } = await insertBroadcast();
    const id = broadcast.id ?? '';
    const { data } = await setThumbnail(id, 'image/jpeg', jpeg(2 * 1024 * 1024));
    expect(data.kind).toBe('youtube#thumbnailSetResponse');
    expect(data.items?.[0]?.maxres).toEqual({ url: `https://i.ytimg.com/vi/${id}/maxresdefault.jpg`, width: 1280, height: 720 });
    expect(fake.thumbnail(id)?.bytes.length).toBe(2 * 1024 * 1024);
    expect(fake.calls.at(-1)).toMatchObject({ path: '/upload/youtube/v3/thumbnails/set', query: { uploadType: ['media'], videoId: [id] }, quotaCost: 50 });

    await setThumbnail(id, 'image/png', png);
    expect(fake.thumbnail(id)?.contentType).toBe('image/png');
  });

  test('over 2 MB, or not an image, is invalidImage; other media types and unknown videos are refused', async () => {
    await start();
    const { data: broadcast } = await insertBroadcast();
    const id = broadcast.id ?? '';
    const refusal = async (call: Promise<unknown>) => {
      const { status, body } = await failure(call);
      return [status, body.error.errors[0]?.reason];
    };
    expect(await refusal(setThumbnail(id, 'image/jpeg', jpeg(2 * 1024 * 1024 + 1)))).toEqual([400, 'invalidImage']);
    expect(await refusal(setThumbnail(id, 'image/png', Buffer.from('GIF89a-not-really')))).toEqual([400, 'invalidImage']);
    expect(await refusal(setThumbnail(id, 'image/gif', jpeg(100)))).toEqual([400, 'badContent']);
    expect(await refusal(setThumbnail('notAVideo1', 'image/jpeg', jpeg(100)))).toEqual([404, 'videoNotFound']);
    expect(fake.thumbnail(id)).toBeUndefined();
  });
});

describe('credentials', () => {
  test('no token is 401 required, a made-up one 401 authError; neither costs quota', async () => {
    await start();
    const base = `${fake.youtubeRootUrl}youtube/v3/channels?part=snippet&mine=true`;
    const anonymous = await fetch(base);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED', errors: [{ reason: 'required' }] } });
    const forged = await fetch(base, { headers: { authorization: 'Bearer ya29.forged' } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ error: { errors: [{ reason: 'authError' }] } });
    expect(fake.quota.used()).toBe(0);
  });
});
