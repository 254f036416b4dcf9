// Security audit M6: storage was counted on the uploaded source (a 153 KB source became 4.46 MB stored) and no
// plan capped a video's length. Now what is stored after transcoding (the stream-ready file and its thumbnail) is
// what counts, and a source longer than the plan's maxMediaSeconds fails with 'video too long' before encoding.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { plans } from '../../lambdas/core/plans';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { uploadWithTus, waitForItem } from '../helpers/media';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

/** A black still picture for `seconds`, one frame a second: a few kilobytes whatever its length. */
async function stillVideo(seconds: number): Promise<Buffer> {
  const path = join(mkdtempSync(join(tmpdir(), 'loopcast-still-')), 'still.mp4');
  await promisify(execFile)('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=black:s=64x64:r=1:d=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'stillimage',
    path,
  ]);
  return readFile(path);
}

const storedSize = async (key: string) => (await stack.deps.s3.send(new HeadObjectCommand({ Bucket: stack.config.buckets.media, Key: key }))).ContentLength!;

test('storage counts what is stored after transcoding: the stream-ready file and its thumbnail', async () => {
  const user = await signedInUser(stack, 'stored');
  const source = await stillVideo(4);
  const videoId = await uploadWithTus(stack, user.token, source);
  const ready = await waitForItem(stack, user.token, videoId);
  expect(ready.status).toBe('ready');
  const prefix = `media/${user.userId}/${videoId}/`;
  const stored = (await storedSize(`${prefix}stream.mp4`)) + (await storedSize(`${prefix}thumb.jpg`));
  expect(stored).toBeGreaterThan(10 * source.length);
  expect((await api(stack, 'GET', '/subscription', { token: user.token })).body.usage.storageBytes).toBe(stored);
  expect(ready.sizeBytes).toBe(stored);
}, 120_000);

test("a source longer than the plan's limit fails with 'video too long', before any encoding", async () => {
  const user = await signedInUser(stack, 'long');
  const source = await stillVideo(plans.trial.limits.maxMediaSeconds + 60);
  const videoId = await uploadWithTus(stack, user.token, source);
  const failed = await waitForItem(stack, user.token, videoId, 60_000);
  expect(failed).toMatchObject({ status: 'failed', error: { key: 'video too long' } });
  expect((await api(stack, 'GET', '/subscription', { token: user.token })).body.usage.storageBytes).toBe(source.length);
}, 120_000);
