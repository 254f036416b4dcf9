// Output profiles end to end (issue 16, item 4): a creator picks a profile and tier at upload (tus metadata), the
// local transcoder makes the highest rung the source and the plan allow, and every rung's stream-ready file loops
// seamlessly: streamed by the real stream task to the local nginx-rtmp and read packet by packet by a player, no
// decode timestamp goes back and nothing jumps at any seam. Then the plan's gate and a quality change.
import { DetailedError } from 'tus-js-client';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamo/billing-store';
import { outputProfileIds, outputProfiles, type OutputProfileId } from '../../lambdas/core/media-spec';
import type { PlanId } from '../../lambdas/core/plans';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { RtmpPlayer } from '../helpers/player';
import { startTestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const CLIP_SECONDS = 2;
/** How long each player reads: at least five seams of every stream. */
// Every player listens until five seams have passed it (seven loops of media; longer when the machine is loaded).
const SEAMS = 5;

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
});
afterAll(() => stack.stop());

async function creatorOn(plan: PlanId, label: string) {
  const user = await signedInUser(stack, label);
  if (plan !== 'trial') {
    const now = new Date();
    await new DynamoBillingStore(stack.deps.db, stack.config.tables.app).saveSubscription(
      {
        userId: user.userId,
        plan,
        period: 'month',
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodStart: now.toISOString(),
        currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      },
      Math.floor(now.getTime() / 1000),
    );
  }
  return user;
}

/** A clip at the rung's own size and rate, uploaded asking for that rung. */
async function uploadRung(token: string, id: OutputProfileId): Promise<string> {
  const { width, height, frameRate } = outputProfiles[id];
  const clip = await makeClip({ seconds: CLIP_SECONDS, size: `${width}x${height}`, rate: frameRate, name: `${id}.mp4` });
  return uploadWithTus(stack, token, clip.bytes, { filename: `${id}.mp4`, filetype: 'video/mp4', kind: 'video', profile: id, tier: 'low' });
}

/** The refusal of a tus creation: its status and `{ error, message }`. */
async function tusRefusal(upload: Promise<string>): Promise<{ status: number | undefined; body: Record<string, unknown> }> {
  try {
    await upload;
  } catch (error) {
    if (!(error instanceof DetailedError)) throw error;
    return { status: error.originalResponse?.getStatus(), body: JSON.parse(error.originalResponse?.getBody() ?? '{}') as Record<string, unknown> };
  }
  throw new Error('the upload was accepted');
}

test(`every rung, chosen at upload, is made as asked and loops seamlessly at a real RTMP server (${SEAMS} seams each)`, async () => {
  const maker = await creatorOn('custom', 'ladder');
  const videoIds: Partial<Record<OutputProfileId, string>> = {};
  for (const id of outputProfileIds) videoIds[id] = await uploadRung(maker.token, id);

  const streams: { id: OutputProfileId; streamId: string; key: string }[] = [];
  for (const id of outputProfileIds) {
    const item = await waitForItem(stack, maker.token, videoIds[id]!, 300_000);
    const { width, height, frameRate, bitrates } = outputProfiles[id];
    expect(item).toMatchObject({
      status: 'ready',
      width,
      height,
      quality: { profile: id, tier: 'low' },
      output: { profile: id, tier: 'low', frameRate, videoBitrate: bitrates.low, limitedBy: [] },
    });
    const key = `ladder-${id}-${maker.userId.slice(0, 6)}`;
    const channel = await api(stack, 'POST', '/channels/rtmp', { token: maker.token, body: { name: `Test server ${id}`, url: stack.urls.rtmp, key } });
    expect(channel.status).toBe(201);
    const stream = await api(stack, 'POST', '/streams', {
      token: maker.token,
      body: { title: `Loop ${id}`, videoId: videoIds[id], channelIds: [channel.body.id] },
    });
    expect(stream.status).toBe(201);
    streams.push({ id, streamId: stream.body.id, key });
  }

  for (const { streamId } of streams) expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: maker.token })).status).toBe(200);
  for (const { streamId } of streams) await waitForStreamStatus(stack, maker.token, streamId, 'started', 120_000);
  const players = streams.map(({ key }) => new RtmpPlayer(`${stack.urls.rtmp}/${key}`));
  await waitFor(
    `${SEAMS} seams at every player`,
    () => players.map((player) => player.snapshot.video.mediaSeconds),
    (seconds) => seconds.every((media) => media > (SEAMS + 1) * CLIP_SECONDS),
    120_000,
  );
  const figures = players.map((player) => player.snapshot);
  await Promise.all(players.map((player) => player.stop()));
  for (const { streamId } of streams) await api(stack, 'POST', `/streams/${streamId}/stop`, { token: maker.token });

  const seen = streams.map(({ id }, i) => ({ id, video: figures[i]!.video, audio: figures[i]!.audio }));
  console.log(
    `[output profiles] ${seen.map(({ id, video, audio }) => `${id}: ${video.packets} video / ${audio.packets} audio packets over ${video.mediaSeconds.toFixed(1)} s, largest steps ${video.maxStepSeconds.toFixed(3)} / ${audio.maxStepSeconds.toFixed(3)} s`).join('; ')}`,
  );
  for (const { id, video, audio } of seen) {
    const frame = 1 / outputProfiles[id].frameRate;
    expect({ id, videoRegressions: video.dtsRegressions, audioRegressions: audio.dtsRegressions, videoGaps: video.gaps, audioGaps: audio.gaps }).toEqual({
      id,
      videoRegressions: 0,
      audioRegressions: 0,
      videoGaps: 0,
      audioGaps: 0,
    });
    // Five seams or more passed, and the picture moved on by one frame (FLV's millisecond) across each of them.
    expect(video.mediaSeconds).toBeGreaterThan(SEAMS * CLIP_SECONDS);
    expect(video.maxStepSeconds).toBeLessThanOrEqual(frame + 0.0015);
    // Frames per media second: the rung's rate.
    expect(video.packets / video.mediaSeconds).toBeCloseTo(outputProfiles[id].frameRate, -1);
  }
}, 900_000);

test("a profile the plan does not include is refused before any byte is sent; the plan's own are made", async () => {
  const trial = await creatorOn('trial', 'gate');
  const clip = await makeClip({ seconds: 1, size: '1920x1080', rate: 60 });
  for (const profile of ['1080p60', '1440p30', '2160p60']) {
    const refused = await tusRefusal(
      uploadWithTus(stack, trial.token, clip.bytes, { filename: 'fast.mp4', filetype: 'video/mp4', kind: 'video', profile, tier: 'low' }),
    );
    expect(refused).toEqual({
      status: 403,
      body: {
        error: 'plan feature unavailable',
        message: 'Your plan does not include this feature. Please upgrade your plan',
        details: { fields: { profile } },
      },
    });
  }
  const unknown = await tusRefusal(
    uploadWithTus(stack, trial.token, clip.bytes, { filename: 'fast.mp4', filetype: 'video/mp4', kind: 'video', profile: '8k', tier: 'low' }),
  );
  expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid request' } });
  expect((await api(stack, 'GET', '/videos', { token: trial.token })).body.videos).toEqual([]);

  // The 60 fps source on a Full HD plan: 1080p30 at the tier asked, its frames halved.
  const videoId = await uploadWithTus(stack, trial.token, clip.bytes, {
    filename: 'fast.mp4',
    filetype: 'video/mp4',
    kind: 'video',
    profile: '1080p30',
    tier: 'high',
  });
  expect(await waitForItem(stack, trial.token, videoId)).toMatchObject({
    status: 'ready',
    output: { profile: '1080p30', tier: 'high', frameRate: 30, videoBitrate: 6_000_000, limitedBy: [] },
  });
  expect(await api(stack, 'POST', `/videos/${videoId}/quality`, { token: trial.token, body: { profile: '1080p60', tier: 'low' } })).toMatchObject({
    status: 403,
    body: { error: 'plan feature unavailable' },
  });
}, 180_000);

test('a quality change lowers a ready video from its stream-ready file: new file, less storage, the old one gone; never higher', async () => {
  const pro = await creatorOn('pro', 'change');
  const clip = await makeClip({ seconds: 3, size: '1920x1080', rate: 60 });
  const videoId = await uploadWithTus(stack, pro.token, clip.bytes, {
    filename: 'fast.mp4',
    filetype: 'video/mp4',
    kind: 'video',
    profile: '1080p60',
    tier: 'medium',
  });
  const before = await waitForItem(stack, pro.token, videoId);
  expect(before).toMatchObject({ status: 'ready', output: { profile: '1080p60', tier: 'medium', frameRate: 60, videoBitrate: 6_750_000 } });
  const usage = async () => (await api(stack, 'GET', '/subscription', { token: pro.token })).body.usage.storageBytes as number;
  expect(await usage()).toBe(before.sizeBytes);

  // Nothing to do, or more than the file holds.
  expect(await api(stack, 'POST', `/videos/${videoId}/quality`, { token: pro.token, body: { profile: '1080p60', tier: 'medium' } })).toMatchObject({
    status: 200,
    body: { status: 'ready' },
  });
  for (const body of [
    { profile: '1080p60', tier: 'high' },
    { profile: '1440p30', tier: 'low' },
    { profile: '2160p60', tier: 'low' },
  ]) {
    expect(await api(stack, 'POST', `/videos/${videoId}/quality`, { token: pro.token, body })).toMatchObject({
      status: 422,
      body: { error: 'quality above current', details: { fields: { profile: '1080p60', tier: 'medium' } } },
    });
  }
  expect(await api(stack, 'POST', `/videos/${videoId}/quality`, { token: pro.token, body: { profile: '1080p30', tier: 'extreme' } })).toMatchObject({
    status: 400,
    body: { error: 'invalid request' },
  });

  const changing = await api(stack, 'POST', `/videos/${videoId}/quality`, { token: pro.token, body: { profile: '720p30', tier: 'medium' } });
  expect(changing).toMatchObject({ status: 200, body: { status: 'encoding', quality: { profile: '720p30', tier: 'medium' }, output: { profile: '1080p60' } } });
  expect(await api(stack, 'POST', `/videos/${videoId}/quality`, { token: pro.token, body: { profile: '720p30', tier: 'low' } })).toMatchObject({
    status: 409,
    body: { error: 'video encoding' },
  });
  const after = await waitForItem(stack, pro.token, videoId);
  expect(after).toMatchObject({
    status: 'ready',
    width: 1280,
    height: 720,
    output: { profile: '720p30', tier: 'medium', frameRate: 30, videoBitrate: 4_500_000, limitedBy: [] },
  });
  expect(after.sizeBytes).toBeLessThan(before.sizeBytes);
  expect(after.durationSeconds).toBeCloseTo(3, 1);
  expect(await usage()).toBe(after.sizeBytes);
  const stored = async (key: string) =>
    stack.deps.s3.send(new HeadObjectCommand({ Bucket: stack.config.buckets.media, Key: key })).then(
      () => true,
      () => false,
    );
  const folder = `media/${pro.userId}/${videoId}/`;
  expect([await stored(`${folder}r1/stream.mp4`), await stored(`${folder}r1/thumb.jpg`)]).toEqual([true, true]);
  expect([await stored(`${folder}stream.mp4`), await stored(`${folder}thumb.jpg`)]).toEqual([false, false]);
  const picture = await fetch(`${stack.urls.web}${after.thumbnailUrl}`);
  expect(picture.headers.get('content-type')).toBe('image/jpeg');

  // A change that fails (here: the file it reads was damaged) leaves the item ready with its file, and says why.
  await stack.deps.s3.send(new PutObjectCommand({ Bucket: stack.config.buckets.media, Key: `${folder}r1/stream.mp4`, Body: 'not a video any more' }));
  expect(await api(stack, 'POST', `/videos/${videoId}/quality`, { token: pro.token, body: { profile: '720p30', tier: 'low' } })).toMatchObject({
    status: 200,
    body: { status: 'encoding' },
  });
  const failed = await waitForItem(stack, pro.token, videoId);
  expect(failed).toMatchObject({
    status: 'ready',
    quality: { profile: '720p30', tier: 'medium' },
    output: { profile: '720p30', tier: 'medium' },
    sizeBytes: after.sizeBytes,
    qualityChangeError: { key: 'uploader encode error' },
  });
  expect(failed.error).toBeUndefined();
  expect(await usage()).toBe(after.sizeBytes);
  expect([await stored(`${folder}r2/stream.mp4`), await stored(`${folder}r2/thumb.jpg`), await stored(`${folder}r1/thumb.jpg`)]).toEqual([false, false, true]);
}, 300_000);
