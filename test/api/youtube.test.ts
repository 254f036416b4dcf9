// YouTube integration through the real API with the real googleapis/google-auth-library clients pointed at a fake
// Google (OAuth + YouTube Data API v3 wire format): connect with PKCE and a session-bound state, scope and plan
// checks, broadcasts that follow the loop (created, bound, thumbnail, re-created when YouTube ends one, rotated at a
// scheduled restart, completed at stop), a revoked grant, liveStreamingNotEnabled, quota counting.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamo/billing-store';
import { DynamoBroadcastStore, DynamoYouTubeQuota, pacificDay } from '../../lambdas/adapters/dynamo/youtube-stores';
import type { PlanId } from '../../lambdas/core/plans';
import { upkeep } from '../../lambdas/core/streams/streams';
import { taskSpec } from '../../lambdas/core/streams/task-session';
import { streamsContext, taskSessionContext } from '../../lambdas/wiring/streams';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import type { LocalStack } from '../../local/stack';
import { YOUTUBE_SCOPES } from '../fakes/google/oauth';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { api, signedInUser } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { listenRealtime } from '../helpers/realtime';
import { startTestStack } from '../helpers/stack';
import { streamTaskProcesses, taskCredentials } from '../helpers/stream-tasks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let nginx: NginxRtmp;
let google: FakeGoogle;
let stack: LocalStack;
let unconfigured: LocalStack;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-youtube-'));
  // The fake hands out this local RTMP server as YouTube's ingestion address, so loops really publish somewhere.
  nginx = await startNginxRtmp({ dir, rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log') });
  google = await startFakeGoogle({ ingestionAddress: nginx.rtmpUrl });
  [stack, unconfigured] = await Promise.all([
    startTestStack({
      google: { clientId: google.clientId, clientSecret: google.clientSecret, endpoints: google.endpoints, youtubeRootUrl: google.youtubeRootUrl },
    }),
    startTestStack(),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([stack?.stop(), unconfigured?.stop()]);
  await Promise.all([google?.stop(), nginx?.stop()]);
});
afterEach(() => {
  stack.deps.now = () => new Date();
});

/** The browser's round trip: our consent URL -> Google -> our callback (with the session cookie) -> the page. */
async function connect(token: string, cookieToken: string | null = token): Promise<URL> {
  const started = await api(stack, 'POST', '/channels/youtube', { token, body: { language: 'en' } });
  expect(started.status).toBe(200);
  const consent = await fetch(started.body.url, { redirect: 'manual' });
  const callback = consent.headers.get('location')!;
  expect(callback.startsWith(`${stack.urls.api}/channels/youtube/callback?`)).toBe(true);
  const back = await fetch(callback, { redirect: 'manual', headers: cookieToken ? { cookie: `auth_token=${cookieToken}` } : {} });
  expect(back.status).toBe(302);
  return new URL(back.headers.get('location')!);
}

/** A paying (or, for Custom, operator-granted) subscriber, as the Stripe webhook leaves one (billing.test.ts covers
 * the checkout itself; streams.test.ts makes its Pro user the same way). */
async function subscribe(userId: string, plan: Exclude<PlanId, 'trial'>): Promise<void> {
  const now = new Date();
  await new DynamoBillingStore(stack.deps.db, stack.config.tables.app).saveSubscription(
    {
      userId,
      plan,
      ...(plan === 'custom' ? {} : { period: 'month' as const }),
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodStart: now.toISOString(),
      currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    },
    Math.floor(now.getTime() / 1000),
  );
}

/** Connects a new fake Google account with its own channel; returns the account and our channel id. */
async function connectAccount(token: string, channelTitle: string) {
  const account = google.addAccount({ channelTitle });
  google.nextConsent({ account: account.sub });
  const page = await connect(token);
  expect(page.searchParams.get('error')).toBeNull();
  return { account, channelId: page.searchParams.get('connected')! };
}

describe('connecting a YouTube account', () => {
  test('consent with PKCE and offline access; the channel with its name and avatar; tokens sealed', async () => {
    const user = await signedInUser(stack, 'yt');
    const page = await connect(user.token);
    expect(page.pathname).toBe('/app/channels');
    const channelId = page.searchParams.get('connected');
    expect(channelId).toBeTruthy();
    const consent = google.consents.at(-1)!;
    expect(consent).toMatchObject({
      accessType: 'offline',
      prompt: 'consent',
      codeChallengeMethod: 'S256',
      redirectUri: `${stack.urls.api}/channels/youtube/callback`,
    });
    expect(consent.scope).toContain(YOUTUBE_SCOPES.youtube);

    const { body } = await api(stack, 'GET', '/channels', { token: user.token });
    expect(body.youtubeAvailable).toBe(true);
    expect(body.channels).toEqual([
      expect.objectContaining({
        id: channelId,
        kind: 'youtube',
        name: google.defaultAccount.channel!.title,
        youtube: expect.objectContaining({ status: 'connected' }),
      }),
    ]);
    expect(JSON.stringify(body)).not.toMatch(/refresh|sealed/i);
    const { Items = [] } = await stack.deps.db.send(new ScanCommand({ TableName: stack.config.tables.app }));
    const stored = Items.find((item) => item.id === channelId)!;
    expect(stored.youtube.sealedRefreshToken).toMatch(/^local1\./);
  });

  test('the trial allows one YouTube account: the second is refused with the upgrade message', async () => {
    const user = await signedInUser(stack);
    await connect(user.token);
    const second = await api(stack, 'POST', '/channels/youtube', { token: user.token, body: {} });
    expect(second).toMatchObject({
      status: 403,
      body: { error: 'channel limit', message: 'Connecting more than one YouTube account needs the Pro or Custom plan' },
    });
  });

  test('Basic, like the trial, allows one YouTube account: a second is refused with the upgrade message, at the start and after consent', async () => {
    const user = await signedInUser(stack, 'basic');
    await subscribe(user.userId, 'basic');
    expect((await api(stack, 'GET', '/subscription', { token: user.token })).body).toMatchObject({ plan: 'basic', state: 'active' });
    // Two consents opened before either finished (two tabs): the second is refused once Google names its account.
    const [firstTab, secondTab] = await Promise.all([0, 1].map(() => api(stack, 'POST', '/channels/youtube', { token: user.token, body: {} })));
    const callbacks = [];
    for (const [tab, title] of [
      [firstTab!, 'Basic loops'],
      [secondTab!, 'Basic extra'],
    ] as const) {
      google.nextConsent({ account: google.addAccount({ channelTitle: title }).sub });
      callbacks.push((await fetch(tab.body.url, { redirect: 'manual' })).headers.get('location')!);
    }
    const finish = async (callback: string) =>
      new URL((await fetch(callback, { redirect: 'manual', headers: { cookie: `auth_token=${user.token}` } })).headers.get('location')!).searchParams;
    expect((await finish(callbacks[0]!)).get('connected')).toBeTruthy();
    expect((await finish(callbacks[1]!)).get('error')).toBe('channel limit');
    const second = await api(stack, 'POST', '/channels/youtube', { token: user.token, body: {} });
    expect(second).toMatchObject({
      status: 403,
      body: { error: 'channel limit', message: 'Connecting more than one YouTube account needs the Pro or Custom plan' },
    });
    expect((await api(stack, 'GET', '/channels', { token: user.token })).body.channels).toEqual([expect.objectContaining({ name: 'Basic loops' })]);
  });

  test('Pro and Custom connect more than one YouTube account', async () => {
    for (const plan of ['pro', 'custom'] as const) {
      const user = await signedInUser(stack, plan);
      await subscribe(user.userId, plan);
      const first = await connectAccount(user.token, `${plan} first`);
      const second = await connectAccount(user.token, `${plan} second`);
      const { body } = await api(stack, 'GET', '/channels', { token: user.token });
      expect([plan, body.channels.map((c: { id: string }) => c.id).sort()]).toEqual([plan, [first.channelId, second.channelId].sort()]);
    }
  });

  test('a trial user whose access was removed can reconnect that account, but not swap it for another', async () => {
    const user = await signedInUser(stack);
    const account = google.addAccount({ channelTitle: 'Comes back' });
    google.nextConsent({ account: account.sub });
    const channelId = (await connect(user.token)).searchParams.get('connected')!;
    // As the broadcasts mark it when Google refuses the grant (covered below with a running stream).
    const channels = streamsContext(stack.deps).channels;
    const stored = (await channels.get(user.userId, channelId))!;
    await channels.update({ ...stored, youtube: { ...stored.youtube!, status: 'revoked' } });

    google.nextConsent({ account: google.addAccount({ channelTitle: 'Someone else' }).sub });
    expect((await connect(user.token)).searchParams.get('error')).toBe('channel limit');
    google.nextConsent({ account: account.sub });
    expect((await connect(user.token)).searchParams.get('connected')).toBe(channelId);
    expect((await api(stack, 'GET', '/channels', { token: user.token })).body.channels).toEqual([
      expect.objectContaining({ id: channelId, youtube: expect.objectContaining({ status: 'connected' }) }),
    ]);
  });

  test('an unticked YouTube permission, a cancel, another session and a replayed state save nothing', async () => {
    const user = await signedInUser(stack);
    google.nextConsent({ withhold: [YOUTUBE_SCOPES.youtube] });
    expect((await connect(user.token)).searchParams.get('error')).toBe('youtube scope missing');
    google.nextConsent({ deny: true });
    expect((await connect(user.token)).searchParams.get('error')).toBe('youtube scope missing');
    const other = await signedInUser(stack, 'other');
    expect((await connect(user.token, other.token)).searchParams.get('error')).toBe('not owner');
    expect((await connect(user.token, null)).searchParams.get('error')).toBe('not owner');
    expect((await api(stack, 'GET', '/channels', { token: user.token })).body.channels).toEqual([]);

    const started = await api(stack, 'POST', '/channels/youtube', { token: user.token, body: {} });
    const callback = (await fetch(started.body.url, { redirect: 'manual' })).headers.get('location')!;
    const headers = { cookie: `auth_token=${user.token}` };
    await fetch(callback, { redirect: 'manual', headers });
    const replay = await fetch(callback, { redirect: 'manual', headers });
    expect(new URL(replay.headers.get('location')!).searchParams.get('error')).toBe('invalid token');
  });

  test('a channel without live streaming gets the catalogued message with the link', async () => {
    const user = await signedInUser(stack);
    const account = google.addAccount({ channelTitle: 'Not live yet', liveStreamingEnabled: false });
    google.nextConsent({ account: account.sub });
    expect((await connect(user.token)).searchParams.get('error')).toBe('livestreaming not enabled');
  });

  test('without a Google client configured, the page is told and connecting says so', async () => {
    const user = await signedInUser(unconfigured);
    expect((await api(unconfigured, 'GET', '/channels', { token: user.token })).body.youtubeAvailable).toBe(false);
    expect(await api(unconfigured, 'POST', '/channels/youtube', { token: user.token, body: {} })).toMatchObject({
      status: 503,
      body: { error: 'youtube not configured' },
    });
  });
});

describe('broadcasts that follow the loop', () => {
  test('start creates and binds a broadcast with the thumbnail; YouTube ending it or a scheduled restart makes a new one; a revoked grant warns; stop completes it', async () => {
    const user = await signedInUser(stack, 'live');
    const account = google.addAccount({ channelTitle: 'Lo-fi radio' });
    google.nextConsent({ account: account.sub });
    const channelId = (await connect(user.token)).searchParams.get('connected')!;
    const videoId = await uploadWithTus(stack, user.token, (await makeClip({ seconds: 4 })).bytes);
    await waitForItem(stack, user.token, videoId);
    const stream = (
      await api(stack, 'POST', '/streams', {
        token: user.token,
        body: { title: 'Lo-fi 24/7', description: 'Beats to loop to', privacy: 'unlisted', videoId, channelIds: [channelId] },
      })
    ).body;

    // The creator has the Streams page open (its realtime connection): the task stores preview frames while watched.
    const page = await listenRealtime(stack, user.token);
    const started = await api(stack, 'POST', `/streams/${stream.id}/start`, { token: user.token });
    expect(started.status).toBe(200);
    const inserted = google.calls.filter((c) => c.api === 'liveBroadcasts.insert' && c.status === 200);
    expect(inserted).toHaveLength(1);
    const [record] = await new DynamoBroadcastStore(stack.deps.db, stack.config.tables.app).list(user.userId, stream.id);
    const first = google.broadcast(record!.broadcastId)!;
    expect(first.snippet).toMatchObject({ title: 'Lo-fi 24/7', description: 'Beats to loop to' });
    expect(first.status).toMatchObject({ privacyStatus: 'unlisted' });
    expect(first.contentDetails).toMatchObject({ enableAutoStart: true, enableAutoStop: false, boundStreamId: expect.any(String) });
    expect(google.thumbnail(record!.broadcastId)?.contentType).toBe('image/jpeg');

    const live = await waitForStreamStatus(stack, user.token, stream.id, 'started');
    // Without the local test destination, the preview is the frame the task stores (as in AWS).
    let preview: { kind: string; url: string } | undefined;
    for (let i = 0; i < 80 && !preview; i++) {
      preview = (await api(stack, 'GET', `/streams/${stream.id}`, { token: user.token })).body.preview;
      if (!preview) await new Promise((r) => setTimeout(r, 250));
    }
    expect(preview?.kind).toBe('image');
    page.close();
    const frame = await fetch(`${stack.urls.web}${preview!.url}`);
    expect(frame.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await frame.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    google.setStreamStatus(first.contentDetails!.boundStreamId!, 'active');
    expect(google.broadcast(record!.broadcastId)!.status!.lifeCycleStatus).toBe('live');

    // YouTube ends the broadcast while the loop runs: the next check (half an hour later) makes a new one.
    google.endBroadcast(record!.broadcastId);
    stack.deps.now = () => new Date(Date.now() + 31 * 60_000);
    await upkeep(streamsContext(stack.deps));
    const afterEnd = google.calls.filter((c) => c.api === 'liveBroadcasts.insert' && c.status === 200);
    expect(afterEnd).toHaveLength(2);

    // A scheduled restart (the task's heartbeat counts it): fresh broadcast, the old one completed.
    stack.deps.now = () => new Date();
    const { caller, token, apiUrl } = taskCredentials(streamTaskProcesses(stream.id)[0]!);
    const at = new Date().toISOString();
    const heartbeat = {
      streamId: stream.id,
      desired: 'running',
      actual: 'started',
      since: at,
      uptimeSeconds: 1,
      bitrateKbps: 6000,
      fps: 30,
      speed: 1,
      loops: 1,
      restarts: live.health.taskRestarts,
      scheduledRestarts: live.health.scheduledRestarts + 1,
      destinations: live.health.destinations,
      at,
    };
    const reported = await fetch(`${apiUrl}/task/heartbeat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...caller, heartbeat }),
    });
    expect(reported.status).toBe(200);
    expect(google.calls.filter((c) => c.api === 'liveBroadcasts.insert' && c.status === 200)).toHaveLength(3);
    expect(google.calls.some((c) => c.api === 'liveBroadcasts.transition')).toBe(true);

    // The user removes the app in their Google account: the stream keeps running and tells them, open pages at once.
    const realtime = await listenRealtime(stack, user.token);
    google.revokeGrant(account.sub);
    stack.deps.now = () => new Date(Date.now() + 62 * 60_000);
    await upkeep(streamsContext(stack.deps));
    stack.deps.now = () => new Date();
    const warned = (await api(stack, 'GET', `/streams/${stream.id}`, { token: user.token })).body;
    expect(warned).toMatchObject({ status: 'started', warning: 'Google refresh token error' });
    for (let i = 0; i < 40 && !realtime.events.some((e) => e.type === 'stream.state'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(realtime.events).toContainEqual({ type: 'stream.state', streamId: stream.id, status: 'started' });
    realtime.close();
    expect((await api(stack, 'GET', '/channels', { token: user.token })).body.channels[0].youtube.status).toBe('revoked');

    await api(stack, 'POST', `/streams/${stream.id}/stop`, { token: user.token });
    expect((await api(stack, 'POST', `/streams/${stream.id}/start`, { token: user.token })).body.error).toBe('Google refresh token error');

    // Summed over the days around today: the upkeeps above booked their units on their own clock (+31 and +62 min),
    // which near Pacific midnight is the next quota day, and Google's count is on the real one.
    const quota = new DynamoYouTubeQuota(stack.deps.db, stack.config.tables.app, () => new Date());
    const days = [-1, 0, 1].map((offset) => pacificDay(new Date(Date.now() + offset * 86_400_000)));
    const spent = (await Promise.all(days.map((day) => quota.spentOn(day)))).reduce((sum, units) => sum + units, 0);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(Object.values(google.quota.byDay()).reduce((sum, units) => sum + units, 0));
  }, 180_000);

  test('multi-channel on Pro: two YouTube accounts, one stream to both, one broadcast per channel bound to its own liveStream', async () => {
    const user = await signedInUser(stack, 'multi');
    await subscribe(user.userId, 'pro');
    const connected = [await connectAccount(user.token, 'Rain loops'), await connectAccount(user.token, 'Jazz loops')];
    expect(new Set(connected.map((c) => c.channelId)).size).toBe(2);

    // Both on the channels list with the YouTube channel's name and avatar.
    const { body } = await api(stack, 'GET', '/channels', { token: user.token });
    expect(body.channels).toHaveLength(2);
    for (const { account, channelId } of connected) {
      expect(body.channels).toContainEqual(
        expect.objectContaining({
          id: channelId,
          kind: 'youtube',
          name: account.channel!.title,
          youtube: expect.objectContaining({
            channelId: account.channel!.id,
            status: 'connected',
            avatarUrl: expect.stringMatching(new RegExp(`^https://yt3\\.ggpht\\.com/.*${account.channel!.id}`)),
          }),
        }),
      );
    }

    const videoId = await uploadWithTus(stack, user.token, (await makeClip({ seconds: 4 })).bytes);
    await waitForItem(stack, user.token, videoId);
    const channelIds = connected.map((c) => c.channelId);
    const created = await api(stack, 'POST', '/streams', { token: user.token, body: { title: 'Two rooms', privacy: 'public', videoId, channelIds } });
    expect(created.status).toBe(201);
    const stream = created.body;
    const insertsBefore = google.calls.filter((c) => c.api === 'liveBroadcasts.insert' && c.status === 200).length;
    expect((await api(stack, 'POST', `/streams/${stream.id}/start`, { token: user.token })).status).toBe(200);

    // One broadcast per channel, made by that channel's Google account and bound to that channel's reusable liveStream.
    expect(google.calls.filter((c) => c.api === 'liveBroadcasts.insert' && c.status === 200)).toHaveLength(insertsBefore + 2);
    const records = await new DynamoBroadcastStore(stack.deps.db, stack.config.tables.app).list(user.userId, stream.id);
    expect(records.map((r) => r.channelId).sort()).toEqual([...channelIds].sort());
    const context = streamsContext(stack.deps);
    const liveStreamIds = new Set<string>();
    for (const { account, channelId } of connected) {
      const broadcast = google.broadcast(records.find((r) => r.channelId === channelId)!.broadcastId)!;
      const stored = (await context.channels.get(user.userId, channelId))!;
      expect(broadcast.snippet).toMatchObject({ channelId: account.channel!.id, title: 'Two rooms' });
      expect(broadcast.contentDetails!.boundStreamId).toBe(stored.youtube!.liveStreamId);
      liveStreamIds.add(stored.youtube!.liveStreamId);
    }
    expect(liveStreamIds.size).toBe(2);

    // The stream task gets both destinations (each liveStream's ingestion address and key; not printed here).
    const spec = await taskSpec(taskSessionContext(stack.deps), user.userId, stream.id);
    expect(spec.destinations.map((d) => d.id).sort()).toEqual([...channelIds].sort());
    expect(spec.destinations.every((d) => d.url.startsWith(`${nginx.rtmpUrl}/`))).toBe(true);
    expect(new Set(spec.destinations.map((d) => d.url)).size).toBe(2);

    // Live on both: the task's heartbeat reports each destination.
    await waitForStreamStatus(stack, user.token, stream.id, 'started', 90_000);
    let destinations: { id: string; state: string }[] = [];
    const bothOk = () => destinations.length === 2 && destinations.every((d) => d.state === 'ok');
    for (let i = 0; i < 120 && !bothOk(); i++) {
      destinations = (await api(stack, 'GET', `/streams/${stream.id}`, { token: user.token })).body.health?.destinations ?? [];
      if (!bothOk()) await new Promise((r) => setTimeout(r, 250));
    }
    expect([...destinations].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...channelIds].sort().map((id) => ({ id, state: 'ok' })));

    // Media reaches both ingestion points (the fake cannot see nginx): both broadcasts go live on their own; stop completes both.
    for (const id of liveStreamIds) google.setStreamStatus(id, 'active');
    for (const record of records) expect(google.broadcast(record.broadcastId)!.status!.lifeCycleStatus).toBe('live');
    expect((await api(stack, 'POST', `/streams/${stream.id}/stop`, { token: user.token })).status).toBe(200);
    for (const record of records) expect(google.broadcast(record.broadcastId)!.status!.lifeCycleStatus).toBe('complete');
  }, 180_000);

  test('stream thumbnails: JPEG or PNG of at most 2 MB', async () => {
    const user = await signedInUser(stack);
    const channel = await api(stack, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'x', url: nginx.rtmpUrl, key: 'thumb-test' } });
    const stream = (await api(stack, 'POST', '/streams', { token: user.token, body: { title: 'Thumb', channelIds: [channel.body.id] } })).body;
    const put = (body: Buffer, type: string) =>
      fetch(`${stack.urls.api}/streams/${stream.id}/thumbnail`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': type },
        body: new Uint8Array(body),
      });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]);
    const ok = await put(png, 'image/png');
    expect(ok.status).toBe(200);
    const withThumbnail = await ok.json();
    expect(withThumbnail.hasCustomThumbnail).toBe(true);
    // The form shows it back through a signed URL (an <img> sends no Bearer header); another stream's id does not fit it.
    const shown = await fetch(`${stack.urls.web}${withThumbnail.thumbnailUrl}`);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await shown.arrayBuffer())).toEqual(png);
    const forged = await fetch(`${stack.urls.web}${withThumbnail.thumbnailUrl.replace(stream.id, channel.body.id)}`);
    expect(forged.status).toBe(404);
    const gif = await put(Buffer.from('GIF89a................'), 'image/gif');
    expect(await gif.json()).toMatchObject({ error: 'unsupported image', message: 'The thumbnail must be a JPEG or PNG image of at most 2 MB' });
    const huge = await put(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]), 'image/png');
    expect((await huge.json()).error).toBe('unsupported image');
    const removed = await api(stack, 'DELETE', `/streams/${stream.id}/thumbnail`, { token: user.token });
    expect(removed.body.hasCustomThumbnail).toBe(false);
    expect(removed.body.thumbnailUrl).toBeUndefined();
  });
});
