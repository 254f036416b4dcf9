// Streams and destinations through the real API of a local stack with a real RTMP destination (nginx-rtmp):
// every rule with its catalogued error, the plan's concurrency limit under twenty parallel starts, and a stream
// that goes live, is read back with ffprobe, survives faults, and stops.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamo/billing-store';
import type { LocalStack } from '../../local/stack';
import { upkeep } from '../../lambdas/core/streams/streams';
import { streamsContext } from '../../lambdas/wiring/streams';
import { api, signedInUser } from '../helpers/accounts';
import { holdTranscodes, type HeldTranscodes } from '../helpers/held-transcodes';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { startTestStack } from '../helpers/stack';
import { noMediaWithin } from '../helpers/player';
import { streamTaskProcesses } from '../helpers/stream-tasks';
import { createStream as createStreamOf, creatorWithDestination, type Creator } from '../helpers/creators';

const run = promisify(execFile);

let stack: LocalStack;
let transcodes: HeldTranscodes;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
  transcodes = holdTranscodes(stack);
});
afterAll(() => stack.stop());

const creator = (label: string, clipSeconds = 4) => creatorWithDestination(stack, label, clipSeconds);
const createStream = (who: Creator, overrides: Record<string, unknown> = {}) => createStreamOf(stack, who, overrides);

describe('destinations', () => {
  test('an RTMP destination keeps its key sealed and shows only a hint', async () => {
    const user = await signedInUser(stack);
    const added = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Twitch', url: 'rtmp://live.twitch.tv/app/', key: 'live_123456789_abcdefXYZ' },
    });
    expect(added).toMatchObject({ status: 201, body: { kind: 'rtmp', name: 'Twitch', rtmpUrl: 'rtmp://live.twitch.tv/app', keyHint: '••••fXYZ' } });
    expect(JSON.stringify((await api(stack, 'GET', '/channels', { token: user.token })).body)).not.toContain('abcdef');
    for (const body of [
      { name: 'x', url: 'https://example.com/live', key: 'k' },
      { name: 'x', url: 'rtmp://host', key: 'k' },
      { name: 'x', url: 'rtmp://host/app', key: 'has space' },
    ]) {
      expect((await api(stack, 'POST', '/channels/rtmp', { token: user.token, body })).body.error).toBe('invalid request');
    }
  });
});

describe('stream rules', () => {
  let ana: Creator;
  beforeAll(async () => {
    ana = await creator('ana');
  }, 120_000);

  test('restart times: duplicates and invalid values get the catalogued messages; valid ones are kept sorted', async () => {
    const duplicate = await createStream(ana, { restartTimes: ['04:00', '4:00'], timeZone: 'Europe/Kyiv' });
    expect(duplicate).toMatchObject({
      status: 422,
      body: {
        error: 'duplicate restart times',
        message: 'You have two restart times scheduled for the same time. Please choose different times for each restart.',
      },
    });
    for (const bad of [['25:00'], ['12:61'], ['noon']]) {
      expect((await createStream(ana, { restartTimes: bad })).body).toMatchObject({ error: 'invalid number', message: 'Please enter a valid number' });
    }
    expect((await createStream(ana, { timeZone: 'Mars/Olympus' })).body.error).toBe('invalid number');
    const ok = await createStream(ana, { restartTimes: ['18:30', '06:00'], timeZone: 'Asia/Kolkata' });
    expect(ok.body).toMatchObject({ status: 'stopped', restartTimes: ['06:00', '18:30'], timeZone: 'Asia/Kolkata', verdict: 'offline' });
  });

  test("another user's streams, videos and destinations cannot be used or seen", async () => {
    const bob = await signedInUser(stack, 'bob');
    const mine = await createStream(ana);
    expect((await api(stack, 'GET', `/streams/${mine.body.id}`, { token: bob.token })).body.error).toBe('stream not found');
    expect((await api(stack, 'POST', `/streams/${mine.body.id}/start`, { token: bob.token })).status).toBe(404);
    expect((await api(stack, 'DELETE', `/streams/${mine.body.id}`, { token: bob.token })).status).toBe(404);
    const borrowing = await api(stack, 'POST', '/streams', { token: bob.token, body: { title: 'x', videoId: ana.videoId, channelIds: [ana.channelId] } });
    expect(borrowing).toMatchObject({ status: 404, body: { error: 'not found' } });
  });

  test('several destinations need multistreaming (Pro or Custom)', async () => {
    const second = await api(stack, 'POST', '/channels/rtmp', { token: ana.token, body: { name: 'Second', url: stack.urls.rtmp, key: 'second-key' } });
    const response = await createStream(ana, { channelIds: [ana.channelId, second.body.id] });
    expect(response).toMatchObject({ status: 403, body: { error: 'plan feature unavailable' } });
  });

  test('a stream whose video is still encoding waits in `encoding` and starts by itself when it is ready', async () => {
    const clip = await makeClip({ seconds: 4 });
    // ffmpeg does the work, but the item stays `encoding` until its outcome is released.
    transcodes.hold(ana.userId);
    let streamId: string | undefined;
    try {
      const videoId = await uploadWithTus(stack, ana.token, clip.bytes, { filename: 'later.mp4', filetype: 'video/mp4', kind: 'video' });
      expect((await transcodes.ended(videoId)).type).toBe('completed');
      const stream = await createStream(ana, { videoId });
      expect(stream.status).toBe(201);
      streamId = stream.body.id as string;
      const started = await api(stack, 'POST', `/streams/${streamId}/start`, { token: ana.token });
      expect(started).toMatchObject({ status: 200, body: { status: 'encoding' } });
      const refused = { error: 'stream encoding', message: 'Stream is currently being encoded. Please wait' };
      expect(await api(stack, 'PATCH', `/streams/${streamId}`, { token: ana.token, body: { title: 'x' } })).toMatchObject({ status: 409, body: refused });
      expect((await api(stack, 'GET', `/streams/${streamId}`, { token: ana.token })).body).toMatchObject({ status: 'encoding', title: 'Lo-fi loop' });

      await transcodes.release(ana.userId);
      expect(await waitForItem(stack, ana.token, videoId)).toMatchObject({ status: 'ready' });
      await waitForStreamStatus(stack, ana.token, streamId, 'started', 120_000);
    } finally {
      await transcodes.release(ana.userId);
      if (streamId) await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ana.token });
    }
  }, 180_000);
});

describe('plan limits under concurrency', () => {
  test('twenty parallel starts on the trial (one stream) let exactly one through', async () => {
    const carol = await creator('carol');
    const streams = await Promise.all(Array.from({ length: 20 }, (_, i) => createStream(carol, { title: `Loop ${i}` })));
    const starts = await Promise.all(streams.map((s) => api(stack, 'POST', `/streams/${s.body.id}/start`, { token: carol.token })));
    const statuses = starts.map((s) => s.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(19);
    expect(starts.find((s) => s.status === 403)?.body.message).toBe(
      "You've reached your streaming limit. Please upgrade your plan or wait until next billing cycle",
    );
    const running = starts.findIndex((s) => s.status === 200);
    await api(stack, 'POST', `/streams/${streams[running]!.body.id}/stop`, { token: carol.token });
    expect((await api(stack, 'GET', '/subscription', { token: carol.token })).body.usage.runningStreams).toBe(0);
  }, 180_000);

  test('twenty parallel starts on Pro (five streams) let exactly five through', async () => {
    const dan = await creator('dan');
    const now = new Date();
    await new DynamoBillingStore(stack.deps.db, stack.config.tables.app).saveSubscription(
      {
        userId: dan.userId,
        plan: 'pro',
        period: 'month',
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodStart: now.toISOString(),
        currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      },
      Math.floor(now.getTime() / 1000),
    );
    const streams = await Promise.all(Array.from({ length: 20 }, (_, i) => createStream(dan, { title: `Loop ${i}` })));
    const starts = await Promise.all(streams.map((s) => api(stack, 'POST', `/streams/${s.body.id}/start`, { token: dan.token })));
    expect(starts.filter((s) => s.status === 200)).toHaveLength(5);
    const refused = starts.filter((s) => s.status === 403);
    expect(refused).toHaveLength(15);
    expect(refused.every((s) => s.body.error === 'stream limit')).toBe(true);
    await Promise.all(streams.map((s) => api(stack, 'POST', `/streams/${s.body.id}/stop`, { token: dan.token })));
    expect((await api(stack, 'GET', '/subscription', { token: dan.token })).body.usage.runningStreams).toBe(0);
  }, 180_000);

  test('an expired trial cannot start streams', async () => {
    const erin = await creator('erin');
    const stream = await createStream(erin);
    stack.deps.now = () => new Date(Date.now() + 4 * 86_400_000);
    try {
      // Four days later the session (30 days) still works; the trial (3 days) does not.
      const refused = await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token: erin.token });
      expect(refused).toMatchObject({
        status: 402,
        body: { error: 'no active subscription', message: 'No active subscription found. Please subscribe to continue' },
      });
    } finally {
      stack.deps.now = () => new Date();
    }
  }, 120_000);
});

describe('a failed payment', () => {
  test('refuses new streams and uploads at once, keeps a running stream for the 24 h grace, then upkeep stops it; nothing stored is lost', async () => {
    const gil = await creator('gil');
    const billing = new DynamoBillingStore(stack.deps.db, stack.config.tables.app);
    const periodStart = new Date();
    const subscription = {
      userId: gil.userId,
      plan: 'pro' as const,
      period: 'month' as const,
      cancelAtPeriodEnd: false,
      currentPeriodStart: periodStart.toISOString(),
      currentPeriodEnd: new Date(periodStart.getTime() + 30 * 86_400_000).toISOString(),
    };
    await billing.saveSubscription({ ...subscription, status: 'active' }, Math.floor(periodStart.getTime() / 1000));
    const running = (await createStream(gil)).body.id as string;
    await api(stack, 'POST', `/streams/${running}/start`, { token: gil.token });
    await waitForStreamStatus(stack, gil.token, running, 'started', 90_000);

    // The renewal is declined (as the webhook mirrors it).
    const failedAt = new Date();
    await billing.saveSubscription({ ...subscription, status: 'past_due', paymentFailedAt: failedAt.toISOString() }, Math.floor(failedAt.getTime() / 1000) + 1);
    const noPayment = { error: 'no valid payment', message: 'No valid payment method found. Please add a payment method' };
    const other = (await createStream(gil, { title: 'Second loop' })).body.id as string;
    expect(await api(stack, 'POST', `/streams/${other}/start`, { token: gil.token })).toMatchObject({ status: 402, body: noPayment });
    const upload = await fetch(`${stack.urls.api}/uploads`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${gil.token}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '1000',
        'Upload-Metadata': 'filename aC5tcDQ=,filetype dmlkZW8vbXA0,kind dmlkZW8=',
      },
    });
    expect({ status: upload.status, body: await upload.json() }).toMatchObject({ status: 402, body: noPayment });

    const upkeepAt = async (offsetMs: number) => {
      stack.deps.now = () => new Date(failedAt.getTime() + offsetMs);
      try {
        await upkeep(streamsContext(stack.deps));
      } finally {
        stack.deps.now = () => new Date();
      }
    };
    await upkeepAt(23 * 3_600_000); // within the grace: the loop goes on
    expect((await api(stack, 'GET', `/streams/${running}`, { token: gil.token })).body.status).toBe('started');
    await upkeepAt(24 * 3_600_000 + 60_000); // the grace is over
    const stopped = (await api(stack, 'GET', `/streams/${running}`, { token: gil.token })).body;
    expect(stopped).toMatchObject({ status: 'stopped', lastError: 'no valid payment' });
    expect(streamTaskProcesses(running)).toEqual([]);
    expect(await noMediaWithin(`${stack.urls.rtmp}/${gil.key}`, 5)).toBe(true);
    expect((await api(stack, 'GET', `/videos/${gil.videoId}`, { token: gil.token })).body).toMatchObject({ id: gil.videoId, status: 'ready' });
    expect((await api(stack, 'GET', '/subscription', { token: gil.token })).body.usage.runningStreams).toBe(0);
  }, 180_000);
});

describe('a live stream', () => {
  let fay: Creator;
  let streamId: string;
  beforeAll(async () => {
    fay = await creator('fay', 4);
    streamId = (await createStream(fay)).body.id;
  }, 120_000);
  afterAll(async () => {
    await api(stack, 'POST', `/streams/${streamId}/stop`, { token: fay.token });
  });

  test('goes pending -> started, media arrives at the destination with 2 s keyframes and audio, and cannot be edited', async () => {
    const started = await api(stack, 'POST', `/streams/${streamId}/start`, { token: fay.token });
    expect(started.body.status).toBe('pending');
    expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: fay.token })).body.error).toBe('stream pending');
    const live = await waitForStreamStatus(stack, fay.token, streamId, 'started');
    expect(live.health).toMatchObject({ actual: 'started' });
    // An opaque name: the preview's URL never carries the stream key (security audit L13).
    expect(live.preview).toEqual({ kind: 'hls', url: expect.stringMatching(/^\/hls\/[\w-]{32}\.m3u8$/) });
    expect(live.preview.url).not.toContain(fay.key);
    for (const [method, path, body] of [
      ['PATCH', `/streams/${streamId}`, { title: 'x' }],
      ['DELETE', `/streams/${streamId}`, undefined],
    ] as const) {
      expect((await api(stack, method, path, { token: fay.token, body })).body).toEqual({
        error: 'stream started',
        message: "Cannot modify stream while it's currently live",
      });
    }
    expect((await api(stack, 'DELETE', `/videos/${fay.videoId}`, { token: fay.token })).body.error).toBe('video in use');

    const { stdout } = await run(
      'ffprobe',
      ['-v', 'error', '-rw_timeout', '10000000', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', `${stack.urls.rtmp}/${fay.key}`],
      { timeout: 30_000 },
    );
    const streams = (JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; width?: number }[] }).streams;
    expect(streams).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 1920 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
      ]),
    );
    // The preview plays from the stack's own origin.
    const playlist = await fetch(`${stack.urls.web}${live.preview.url}`);
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toContain('#EXTM3U');
  }, 120_000);

  test('when the whole stream task is killed, the lifecycle starts a new one and the stream is live again', async () => {
    const before = (await api(stack, 'GET', `/streams/${streamId}`, { token: fay.token })).body;
    const [task] = stack.streamRunner.children;
    expect(task?.pid).toBeDefined();
    process.kill(task!.pid!, 'SIGKILL');
    await waitForStreamStatus(stack, fay.token, streamId, 'pending', 30_000);
    const again = await waitForStreamStatus(stack, fay.token, streamId, 'started', 60_000);
    expect(again.restarts).toBe(before.restarts + 1);
  }, 120_000);

  test('stop ends the task and frees the slot; stopping again is harmless', async () => {
    const stopped = await api(stack, 'POST', `/streams/${streamId}/stop`, { token: fay.token });
    expect(stopped.body).toMatchObject({ status: 'stopped', verdict: 'offline' });
    expect(streamTaskProcesses(streamId)).toEqual([]);
    expect(await noMediaWithin(`${stack.urls.rtmp}/${fay.key}`, 5)).toBe(true);
    expect((await api(stack, 'POST', `/streams/${streamId}/stop`, { token: fay.token })).body.status).toBe('stopped');
    expect((await api(stack, 'GET', '/subscription', { token: fay.token })).body.usage.runningStreams).toBe(0);
    expect((await api(stack, 'PATCH', `/streams/${streamId}`, { token: fay.token, body: { title: 'Renamed' } })).body.title).toBe('Renamed');
  }, 60_000);
});
