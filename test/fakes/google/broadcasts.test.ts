// A loop going live on YouTube through the real googleapis client: one reusable stream per channel, broadcasts
// bound to it, YouTube's life cycle and its transition errors, auto start on a stream that is already live.
import { gaxios } from 'google-auth-library';
import type { youtube_v3 } from 'googleapis';
import { connect } from './connect';
import { startFakeGoogle, type FakeGoogle } from './server';

let fake: FakeGoogle;
let youtube: youtube_v3.Youtube;

beforeEach(async () => {
  fake = await startFakeGoogle({ ingestionAddress: 'rtmp://127.0.0.1:1935/live' });
  ({ youtube } = await connect(fake));
});
afterEach(() => fake.stop());

async function reason(call: Promise<unknown>): Promise<{ status: number | undefined; reason: string | undefined }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof gaxios.GaxiosError)) throw new Error(`expected a GaxiosError, got ${String(error)}`);
  const body = error.response?.data as { error?: { errors?: { reason?: string }[] } } | undefined;
  return { status: error.status, reason: body?.error?.errors?.[0]?.reason };
}

async function reusableStream(): Promise<youtube_v3.Schema$LiveStream> {
  const { data } = await youtube.liveStreams.insert({
    part: ['snippet', 'cdn', 'contentDetails', 'status'],
    requestBody: {
      snippet: { title: 'Loopcast' },
      cdn: { ingestionType: 'rtmp', resolution: '1080p', frameRate: '30fps' },
      contentDetails: { isReusable: true },
    },
  });
  return data;
}

async function newBroadcast(contentDetails: youtube_v3.Schema$LiveBroadcastContentDetails = {}): Promise<string> {
  const { data } = await youtube.liveBroadcasts.insert({
    part: ['snippet', 'status', 'contentDetails'],
    requestBody: {
      snippet: { title: 'Lo-fi loop 24/7', description: 'Looping forever', scheduledStartTime: new Date().toISOString() },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
      contentDetails,
    },
  });
  return data.id ?? '';
}

function transition(id: string, broadcastStatus: 'testing' | 'live' | 'complete') {
  return youtube.liveBroadcasts.transition({ id, broadcastStatus, part: ['status'] });
}

async function lifeCycle(id: string): Promise<string | null | undefined> {
  const { data } = await youtube.liveBroadcasts.list({ part: ['status'], id: [id] });
  return data.items?.[0]?.status?.lifeCycleStatus;
}

test('a reusable stream hands out its RTMP ingestion point and stream key', async () => {
  const stream = await reusableStream();
  expect(stream).toMatchObject({
    kind: 'youtube#liveStream',
    snippet: { title: 'Loopcast', channelId: fake.defaultAccount.channel?.id },
    cdn: { ingestionType: 'rtmp', resolution: '1080p', frameRate: '30fps', ingestionInfo: { ingestionAddress: 'rtmp://127.0.0.1:1935/live' } },
    status: { streamStatus: 'ready' },
    contentDetails: { isReusable: true },
  });
  expect(stream.cdn?.ingestionInfo?.streamName).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){4}$/);

  const { data } = await youtube.liveStreams.list({ part: ['id', 'status'], mine: true });
  expect(data.items?.map((item) => item.id)).toEqual([stream.id]);
  expect(data.items?.[0]?.cdn).toBeUndefined();
});

test('create, bind and transition through testing to live, then complete', async () => {
  const stream = await reusableStream();
  const id = await newBroadcast({ enableAutoStart: false, enableAutoStop: false, monitorStream: { enableMonitorStream: true } });
  expect(await lifeCycle(id)).toBe('created');

  const { data: bound } = await youtube.liveBroadcasts.bind({ id, part: ['id', 'contentDetails', 'status'], streamId: stream.id ?? '' });
  expect(bound).toMatchObject({ contentDetails: { boundStreamId: stream.id, enableAutoStart: false }, status: { lifeCycleStatus: 'ready' } });

  // Nothing reaches the ingestion point yet.
  expect(await reason(transition(id, 'live'))).toEqual({ status: 403, reason: 'errorStreamInactive' });

  fake.setStreamStatus(stream.id ?? '', 'active');
  const { data: testing } = await transition(id, 'testing');
  expect(testing.status?.lifeCycleStatus).toBe('testStarting');
  expect(await lifeCycle(id)).toBe('testing');
  expect(await reason(transition(id, 'testing'))).toEqual({ status: 403, reason: 'redundantTransition' });

  const { data: starting } = await transition(id, 'live');
  expect(starting.status?.lifeCycleStatus).toBe('liveStarting');
  const { data: live } = await youtube.liveBroadcasts.list({ part: ['snippet', 'status'], id: [id] });
  expect(live.items?.[0]).toMatchObject({ status: { lifeCycleStatus: 'live', recordingStatus: 'recording' } });
  expect(live.items?.[0]?.snippet?.actualStartTime).toBeDefined();

  const { data: done } = await transition(id, 'complete');
  expect(done.status?.lifeCycleStatus).toBe('complete');
  expect(await reason(transition(id, 'live'))).toEqual({ status: 403, reason: 'invalidTransition' });
});

test('auto start: a broadcast bound to a stream that is already live goes live by itself (rotation)', async () => {
  const stream = await reusableStream();
  fake.setStreamStatus(stream.id ?? '', 'active');
  const first = await newBroadcast({ enableAutoStart: true, enableAutoStop: false });
  await youtube.liveBroadcasts.bind({ id: first, part: ['id'], streamId: stream.id ?? '' });
  expect(await lifeCycle(first)).toBe('live');
  // Transitioning by hand as well is redundant.
  expect(await reason(transition(first, 'live'))).toEqual({ status: 403, reason: 'redundantTransition' });

  await transition(first, 'complete');
  const second = await newBroadcast({ enableAutoStart: true, enableAutoStop: false });
  await youtube.liveBroadcasts.bind({ id: second, part: ['id'], streamId: stream.id ?? '' });
  expect([await lifeCycle(first), await lifeCycle(second)]).toEqual(['complete', 'live']);
});

test('auto start waits for media; with auto stop off the broadcast outlives a stream hiccup', async () => {
  const stream = await reusableStream();
  const id = await newBroadcast({ enableAutoStart: true, enableAutoStop: false });
  await youtube.liveBroadcasts.bind({ id, part: ['id'], streamId: stream.id ?? '' });
  expect(await lifeCycle(id)).toBe('ready');
  fake.setStreamStatus(stream.id ?? '', 'active');
  expect(await lifeCycle(id)).toBe('live');
  fake.setStreamStatus(stream.id ?? '', 'inactive');
  expect(await lifeCycle(id)).toBe('live');

  const stopping = await newBroadcast({ enableAutoStart: true, enableAutoStop: true });
  fake.setStreamStatus(stream.id ?? '', 'active');
  await youtube.liveBroadcasts.bind({ id: stopping, part: ['id'], streamId: stream.id ?? '' });
  fake.setStreamStatus(stream.id ?? '', 'inactive');
  expect(await lifeCycle(stopping)).toBe('complete');
});

test('YouTube ends the broadcast on its own', async () => {
  const stream = await reusableStream();
  fake.setStreamStatus(stream.id ?? '', 'active');
  const id = await newBroadcast({ enableAutoStart: true });
  await youtube.liveBroadcasts.bind({ id, part: ['id'], streamId: stream.id ?? '' });
  fake.endBroadcast(id);
  const { data } = await youtube.liveBroadcasts.list({ part: ['snippet', 'status'], broadcastStatus: 'completed' });
  expect(data.items?.map((item) => item.id)).toEqual([id]);
  expect(data.items?.[0]?.snippet?.actualEndTime).toBeDefined();
  expect((await youtube.liveBroadcasts.list({ part: ['id'], broadcastStatus: 'active' })).data.items).toEqual([]);
});

test('a live broadcast can no longer be bound; binding checks the stream exists', async () => {
  const stream = await reusableStream();
  fake.setStreamStatus(stream.id ?? '', 'active');
  const id = await newBroadcast({ enableAutoStart: true });
  expect(await reason(youtube.liveBroadcasts.bind({ id, part: ['id'], streamId: 'nope' }))).toEqual({ status: 404, reason: 'liveStreamNotFound' });
  await youtube.liveBroadcasts.bind({ id, part: ['id'], streamId: stream.id ?? '' });
  expect(await reason(youtube.liveBroadcasts.bind({ id, part: ['id'], streamId: stream.id ?? '' }))).toEqual({
    status: 403,
    reason: 'liveBroadcastBindingNotAllowed',
  });
});

test('update replaces the named parts; insert validates its required properties', async () => {
  const id = await newBroadcast();
  const { data } = await youtube.liveBroadcasts.update({
    part: ['snippet'],
    requestBody: { id, snippet: { title: 'Rain sounds 24/7', scheduledStartTime: new Date().toISOString() } },
  });
  expect(data.snippet).toMatchObject({ title: 'Rain sounds 24/7', description: '' });
  expect(data.status).toBeUndefined();

  const noTitle = youtube.liveBroadcasts.insert({
    part: ['snippet', 'status'],
    requestBody: { snippet: { scheduledStartTime: new Date().toISOString() }, status: { privacyStatus: 'public' } },
  });
  expect(await reason(noTitle)).toEqual({ status: 400, reason: 'titleRequired' });
  const noPrivacy = youtube.liveBroadcasts.insert({
    part: ['snippet'],
    requestBody: { snippet: { title: 't', scheduledStartTime: new Date().toISOString() } },
  });
  expect(await reason(noPrivacy)).toEqual({ status: 400, reason: 'privacyStatusRequired' });
  expect(await reason(youtube.liveBroadcasts.insert({ part: ['nonsense'], requestBody: {} }))).toEqual({ status: 400, reason: 'unknownPart' });
});

test('delete, not found, and other channels’ broadcasts', async () => {
  const id = await newBroadcast();
  await youtube.liveBroadcasts.delete({ id });
  expect((await youtube.liveBroadcasts.list({ part: ['id'], mine: true })).data.items).toEqual([]);
  expect(await reason(transition(id, 'live'))).toEqual({ status: 404, reason: 'liveBroadcastNotFound' });

  const mine = await newBroadcast();
  fake.addAccount({ email: 'other@example.com' });
  const other = await connect(fake, { loginHint: 'other@example.com' });
  expect(await reason(other.youtube.liveBroadcasts.delete({ id: mine }))).toEqual({ status: 404, reason: 'liveBroadcastNotFound' });
});

test('list takes exactly one filter, pages with maxResults', async () => {
  for (let i = 0; i < 3; i++) await newBroadcast();
  expect(await reason(youtube.liveBroadcasts.list({ part: ['id'], mine: true, broadcastStatus: 'upcoming' }))).toEqual({
    status: 400,
    reason: 'incompatibleParameters',
  });
  expect(await reason(youtube.liveBroadcasts.list({ part: ['id'] }))).toEqual({ status: 400, reason: 'missingRequiredParameter' });

  const first = await youtube.liveBroadcasts.list({ part: ['id'], broadcastStatus: 'upcoming', maxResults: 2 });
  expect(first.data).toMatchObject({ kind: 'youtube#liveBroadcastListResponse', pageInfo: { totalResults: 3, resultsPerPage: 2 } });
  const second = await youtube.liveBroadcasts.list({ part: ['id'], broadcastStatus: 'upcoming', maxResults: 2, pageToken: first.data.nextPageToken ?? '' });
  expect([...(first.data.items ?? []), ...(second.data.items ?? [])]).toHaveLength(3);
  expect(second.data.nextPageToken).toBeUndefined();
});
