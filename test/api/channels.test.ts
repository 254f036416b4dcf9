// Destinations can be renamed and given a new server URL or stream key (PATCH /channels/{id}); a user's
// destinations never share a name or a target (server URL + stream key), whether added or changed; a running stream's
// destination keeps its address until the stream stops.
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
}, 60_000);
afterAll(() => stack.stop());

const duplicate = (field: 'name' | 'key') => ({
  status: 409,
  body: {
    error: 'duplicate destination',
    message: 'You already have a destination with this name or stream key',
    details: { fields: { [field]: 'duplicate' } },
  },
});

describe('changing a destination', () => {
  test('rename, new stream key, new server: the key stays sealed, the hint follows', async () => {
    const user = await signedInUser(stack);
    const added = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Twitch', url: 'rtmp://live.twitch.tv/app', key: 'live_1_abcdWXYZ' },
    });
    const id = added.body.id as string;

    const renamed = await api(stack, 'PATCH', `/channels/${id}`, { token: user.token, body: { name: '  Twitch main ' } });
    expect(renamed).toMatchObject({ status: 200, body: { id, kind: 'rtmp', name: 'Twitch main', rtmpUrl: 'rtmp://live.twitch.tv/app', keyHint: '••••WXYZ' } });

    const rekeyed = await api(stack, 'PATCH', `/channels/${id}`, { token: user.token, body: { key: ' live_2_newKEY9 ' } });
    expect(rekeyed.body).toMatchObject({ name: 'Twitch main', keyHint: '••••KEY9' });
    const moved = await api(stack, 'PATCH', `/channels/${id}`, { token: user.token, body: { url: 'rtmps://ingest.global-contribute.live-video.net/app/' } });
    expect(moved.body).toMatchObject({ rtmpUrl: 'rtmps://ingest.global-contribute.live-video.net/app', keyHint: '••••KEY9' });

    const listed = await api(stack, 'GET', '/channels', { token: user.token });
    expect(listed.body.channels).toEqual([moved.body]);
    expect(JSON.stringify(listed.body)).not.toMatch(/live_1|live_2|newKEY/);
  });

  test('bad changes are refused with the same rules as adding, and nothing changes', async () => {
    const user = await signedInUser(stack);
    const other = await signedInUser(stack);
    const { body: channel } = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Main', url: 'rtmp://a.rtmp.youtube.com/live2', key: 'aaaa-bbbb-cccc' },
    });
    for (const body of [{}, { name: '' }, { url: 'https://a.rtmp.youtube.com/live2' }, { url: 'rtmp://host' }, { key: 'has space' }, { key: 'a/b' }]) {
      expect(await api(stack, 'PATCH', `/channels/${channel.id}`, { token: user.token, body })).toMatchObject({
        status: 400,
        body: { error: 'invalid request' },
      });
    }
    expect((await api(stack, 'PATCH', `/channels/${channel.id}`, { token: other.token, body: { name: 'Mine now' } })).body.error).toBe('not found');
    expect((await api(stack, 'PATCH', '/channels/no-such-id', { token: user.token, body: { name: 'X' } })).status).toBe(404);
    expect((await api(stack, 'GET', '/channels', { token: user.token })).body.channels).toEqual([channel]);
  });

  test('duplicates are refused: the same name (any case) or the same server and key, when adding and when changing', async () => {
    const user = await signedInUser(stack);
    const first = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'YouTube main', url: 'rtmp://a.rtmp.youtube.com/live2', key: 'aaaa-bbbb-cccc' },
    });
    const second = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Kick', url: 'rtmps://fa723fc1b171.global-contribute.live-video.net/app', key: 'sk_kick_1' },
    });
    expect([first.status, second.status]).toEqual([201, 201]);

    expect(
      await api(stack, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'youtube MAIN', url: 'rtmp://b.rtmp.youtube.com/live2', key: 'other' } }),
    ).toMatchObject(duplicate('name'));
    // The same target, however the URL is written (a trailing slash is the same server).
    expect(
      await api(stack, 'POST', '/channels/rtmp', {
        token: user.token,
        body: { name: 'Backup', url: 'rtmp://a.rtmp.youtube.com/live2/', key: ' aaaa-bbbb-cccc ' },
      }),
    ).toMatchObject(duplicate('key'));
    // The same key on another server is another target.
    expect(
      (
        await api(stack, 'POST', '/channels/rtmp', {
          token: user.token,
          body: { name: 'Backup', url: 'rtmp://b.rtmp.youtube.com/live2', key: 'aaaa-bbbb-cccc' },
        })
      ).status,
    ).toBe(201);

    expect(await api(stack, 'PATCH', `/channels/${second.body.id}`, { token: user.token, body: { name: 'Youtube Main' } })).toMatchObject(duplicate('name'));
    expect(
      await api(stack, 'PATCH', `/channels/${second.body.id}`, {
        token: user.token,
        body: { url: 'rtmp://a.rtmp.youtube.com/live2', key: 'aaaa-bbbb-cccc', preset: 'youtube' },
      }),
    ).toMatchObject(duplicate('key'));
    // Changing only the server onto a server where the same key is already used is a duplicate too.
    const kickOnYoutube = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Spare', url: 'rtmp://c.rtmp.youtube.com/live2', key: 'aaaa-bbbb-cccc' },
    });
    expect(
      await api(stack, 'PATCH', `/channels/${kickOnYoutube.body.id}`, { token: user.token, body: { url: 'rtmp://a.rtmp.youtube.com/live2' } }),
    ).toMatchObject(duplicate('key'));
    // A destination keeps its own name and key: "changing" to them is no duplicate.
    expect((await api(stack, 'PATCH', `/channels/${first.body.id}`, { token: user.token, body: { name: 'YouTube main', key: 'aaaa-bbbb-cccc' } })).status).toBe(
      200,
    );
    // Another user may have the very same destination.
    const other = await signedInUser(stack);
    expect(
      (
        await api(stack, 'POST', '/channels/rtmp', {
          token: other.token,
          body: { name: 'YouTube main', url: 'rtmp://a.rtmp.youtube.com/live2', key: 'aaaa-bbbb-cccc' },
        })
      ).status,
    ).toBe(201);
  });

  test('a running stream keeps its destination address: a new key or server is refused until it stops; a new name is fine', async () => {
    const user = await signedInUser(stack, 'live');
    const clip = await makeClip({ seconds: 3 });
    const videoId = await uploadWithTus(stack, user.token, clip.bytes, { filename: 'loop.mp4', filetype: 'video/mp4', kind: 'video' });
    await waitForItem(stack, user.token, videoId);
    const channel = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Local', url: stack.urls.rtmp!, key: `live-${user.userId.slice(0, 8)}` },
    });
    const stream = await api(stack, 'POST', '/streams', { token: user.token, body: { title: 'Loop', videoId, channelIds: [channel.body.id] } });
    expect((await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token: user.token })).status).toBeLessThan(300);
    try {
      await waitForStreamStatus(stack, user.token, stream.body.id, 'started');
      expect(await api(stack, 'PATCH', `/channels/${channel.body.id}`, { token: user.token, body: { key: 'another-key' } })).toMatchObject({
        status: 409,
        body: { error: 'stream started', message: "Cannot modify stream while it's currently live" },
      });
      expect(await api(stack, 'PATCH', `/channels/${channel.body.id}`, { token: user.token, body: { name: 'Local test server' } })).toMatchObject({
        status: 200,
        body: { name: 'Local test server' },
      });
    } finally {
      await api(stack, 'POST', `/streams/${stream.body.id}/stop`, { token: user.token });
      await waitForStreamStatus(stack, user.token, stream.body.id, 'stopped');
    }
    expect((await api(stack, 'PATCH', `/channels/${channel.body.id}`, { token: user.token, body: { key: 'another-stream-key' } })).body.keyHint).toBe(
      '••••-key',
    );
  }, 120_000);
});
