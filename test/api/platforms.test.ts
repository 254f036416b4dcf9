// Every platform (issue 16, item 3): a destination is for a platform (picked, or read from its server URL); a
// platform that takes RTMPS only refuses an rtmp:// server; a stream's video is checked against its destinations'
// platforms when it is created, edited and started: refused, with nothing stored, when a platform cannot take it,
// advised when it is outside the platform's recommendation.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { videoKey } from '../../lambdas/adapters/dynamo/keys';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem } from '../helpers/media';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
let token: string;
let userId: string;
let videoId: string;
beforeAll(async () => {
  stack = await startTestStack();
  ({ token, userId } = await signedInUser(stack, 'platforms'));
  const clip = await makeClip({ seconds: 2, size: '1920x1080' });
  videoId = await uploadWithTus(stack, token, clip.bytes);
  await waitForItem(stack, token, videoId);
}, 120_000);
afterAll(() => stack.stop());

const add = (body: Record<string, unknown>) =>
  api(stack, 'POST', '/channels/rtmp', { token, body: { key: `key-${Math.random().toString(36).slice(2)}`, ...body } });

/** What a 2160p60 output profile stores on an item (the local transcoder makes 1080p30 only). */
const makeUhd = () =>
  stack.deps.db.send(
    new UpdateCommand({
      TableName: stack.config.tables.app,
      Key: videoKey(userId, videoId),
      UpdateExpression: 'SET width = :w, height = :h, frameRate = :f, videoBitrate = :b, keyframeIntervalSeconds = :k',
      ExpressionAttributeValues: { ':w': 3840, ':h': 2160, ':f': 60, ':b': 20_000_000, ':k': 2 },
    }),
  );

describe('destinations', () => {
  test("a destination's platform: the one picked, else its server URL's; listed with it", async () => {
    const twitch = await add({ name: 'Twitch', url: 'rtmp://live-fra.twitch.tv/app' });
    expect(twitch).toMatchObject({ status: 201, body: { preset: 'twitch' } });
    const instagram = await add({ name: 'Instagram', url: 'rtmps://edgetee-upload.example.net:443/rtmp', preset: 'instagram' });
    expect(instagram).toMatchObject({ status: 201, body: { preset: 'instagram', rtmpUrl: 'rtmps://edgetee-upload.example.net:443/rtmp' } });
    const custom = await add({ name: 'My server', url: 'rtmp://127.0.0.1:1935/live' });
    expect(custom.body.preset).toBe('custom');
    const listed = (await api(stack, 'GET', '/channels', { token })).body.channels as { name: string; preset: string }[];
    expect(listed.map(({ name, preset }) => [name, preset])).toEqual([
      ['Twitch', 'twitch'],
      ['Instagram', 'instagram'],
      ['My server', 'custom'],
    ]);
  });

  test('a platform that takes RTMPS only refuses an rtmp:// server, on adding and on editing; an unknown platform is a 400', async () => {
    expect(await add({ name: 'Facebook', url: 'rtmp://live-api-s.facebook.com/rtmp', preset: 'facebook' })).toMatchObject({
      status: 422,
      body: { error: 'platform requires rtmps', details: { fields: { url: 'must start with rtmps://' }, preset: 'facebook' } },
    });
    // Read from the URL too: Facebook's own host over rtmp://.
    expect((await add({ name: 'Facebook', url: 'rtmp://live-api-s.facebook.com/rtmp' })).body.error).toBe('platform requires rtmps');
    const plain = await add({ name: 'Plain', url: 'rtmp://127.0.0.1:1935/app' });
    expect((await api(stack, 'PATCH', `/channels/${plain.body.id}`, { token, body: { preset: 'kick' } })).body.error).toBe('platform requires rtmps');
    expect(await api(stack, 'PATCH', `/channels/${plain.body.id}`, { token, body: { preset: 'trovo' } })).toMatchObject({
      status: 200,
      body: { preset: 'trovo' },
    });
    // A new server keeps the picked platform.
    expect(await api(stack, 'PATCH', `/channels/${plain.body.id}`, { token, body: { url: 'rtmp://127.0.0.1:1935/other' } })).toMatchObject({
      status: 200,
      body: { preset: 'trovo' },
    });
    expect(await add({ name: 'Nope', url: 'rtmp://127.0.0.1/live', preset: 'myspace' })).toMatchObject({ status: 400, body: { error: 'invalid request' } });
  });
});

describe("streams against their destinations' platforms", () => {
  test('a video within every limit: created, with the advice of platforms it is outside the recommendation of', async () => {
    const instagram = await add({ name: 'Insta live', url: 'rtmps://ig.example.net:443/rtmp', preset: 'instagram' });
    const created = await api(stack, 'POST', '/streams', { token, body: { title: 'Loop', videoId, channelIds: [instagram.body.id] } });
    expect(created.status).toBe(201);
    expect(created.body.platformAdvice).toEqual([
      {
        channelId: instagram.body.id,
        preset: 'instagram',
        findings: [{ limit: 'frame', actual: { long: 1920, short: 1080 }, max: { long: 1280, short: 720 } }, { limit: 'portrait' }],
      },
    ]);
    const youtube = await add({ name: 'YouTube', url: 'rtmps://a.rtmps.youtube.com:443/live2' });
    const edited = await api(stack, 'PATCH', `/streams/${created.body.id}`, { token, body: { channelIds: [youtube.body.id] } });
    expect(edited).toMatchObject({ status: 200, body: { platformAdvice: [] } });
  });

  test('a video beyond what a platform takes is refused on create, edit and start, saying where and why; nothing is stored', async () => {
    const facebook = await add({ name: 'Facebook page', url: 'rtmps://live-api-s.facebook.com:443/rtmp' });
    const youtube = await add({ name: 'YouTube 4K', url: 'rtmp://a.rtmp.youtube.com/live2' });
    const toYouTube = await api(stack, 'POST', '/streams', { token, body: { title: '4K loop', videoId, channelIds: [youtube.body.id] } });
    const before = (await api(stack, 'GET', '/streams', { token })).body.streams.length;
    const toFacebook = await api(stack, 'POST', '/streams', { token, body: { title: 'Loop for Facebook', videoId, channelIds: [facebook.body.id] } });
    expect(toFacebook.status).toBe(201); // 1080p30 is fine for Facebook
    await makeUhd();

    const refusal = {
      error: 'destination limits exceeded',
      details: {
        channelId: facebook.body.id,
        preset: 'facebook',
        findings: [
          { limit: 'frame', actual: { long: 3840, short: 2160 }, max: { long: 1920, short: 1080 } },
          { limit: 'bitrate', actual: 20_000_000, max: 9_000_000 },
        ],
      },
    };
    expect(await api(stack, 'POST', '/streams', { token, body: { title: 'Another', videoId, channelIds: [facebook.body.id] } })).toMatchObject({
      status: 422,
      body: refusal,
    });
    expect((await api(stack, 'GET', '/streams', { token })).body.streams.length).toBe(before + 1);
    expect(await api(stack, 'PATCH', `/streams/${toYouTube.body.id}`, { token, body: { channelIds: [facebook.body.id] } })).toMatchObject({
      status: 422,
      body: refusal,
    });
    expect((await api(stack, 'GET', `/streams/${toYouTube.body.id}`, { token })).body.channelIds).toEqual([youtube.body.id]);
    // Created before the item changed: its start is refused, and it stays stopped.
    expect(await api(stack, 'POST', `/streams/${toFacebook.body.id}/start`, { token })).toMatchObject({ status: 422, body: refusal });
    expect((await api(stack, 'GET', `/streams/${toFacebook.body.id}`, { token })).body.status).toBe('stopped');
  });
});
