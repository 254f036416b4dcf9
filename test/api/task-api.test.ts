// The task API as a compromised stream task would use it (security audit M7): its run token is all it holds, and it
// opens that run only. Played against a real local stack with a real running task, whose token and instance id are
// read from its environment as an attacker inside the task would.
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { streamPreviewKey } from '../../lambdas/contract/buckets';
import { TASK_API, type LeaseGrant } from '../../lambdas/contract/stream-task';
import type { LocalStack } from '../../local/stack';
import { api } from '../helpers/accounts';
import { createStream, creatorWithDestination, type Creator } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { startTestStack } from '../helpers/stack';
import { streamTaskProcesses, taskCredentials } from '../helpers/stream-tasks';
import { waitFor } from '../helpers/wait';

let stack: LocalStack;
let ada: Creator;
let bob: Creator;
let adaStreamId: string;
let bobStreamId: string;

beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
  [ada, bob] = [await creatorWithDestination(stack, 'ada'), await creatorWithDestination(stack, 'bob')];
  adaStreamId = (await createStream(stack, ada)).body.id;
  bobStreamId = (await createStream(stack, bob)).body.id;
  expect((await api(stack, 'POST', `/streams/${adaStreamId}/start`, { token: ada.token })).status).toBe(200);
  await waitForStreamStatus(stack, ada.token, adaStreamId, 'started', 90_000);
}, 180_000);
afterAll(async () => {
  await api(stack, 'POST', `/streams/${adaStreamId}/stop`, { token: ada.token });
  await stack.stop();
});

/** A request to the task API as a task makes it, with whatever token and caller it claims. */
async function taskRequest(path: string, token: string | undefined, body: unknown) {
  const response = await fetch(`${stack.urls.api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (response.status === 204 ? {} : await response.json()) as Record<string, any> };
}

test('the run token opens its own run only: another stream, another user, another instance or no token are refused', async () => {
  const [task] = streamTaskProcesses(adaStreamId);
  const { caller, token } = taskCredentials(task!);

  // The task's own lease, renewed: what to stream, with ada's destination only and her media as short-lived URLs.
  const granted = await taskRequest(TASK_API.lease, token, caller);
  expect(granted.status).toBe(200);
  const spec = (granted.body as LeaseGrant).spec;
  expect(spec.streamId).toBe(adaStreamId);
  expect(spec.destinations.map((destination) => destination.url)).toEqual([`${stack.urls.rtmp}/${ada.key}`]);
  expect(JSON.stringify(spec)).not.toContain(bob.key);
  expect(new URL(spec.video).searchParams.get('X-Amz-Expires')).toMatch(/^\d+$/);

  const refusals = {
    "bob's stream": await taskRequest(TASK_API.lease, token, { ...caller, userId: bob.userId, streamId: bobStreamId }),
    "ada's stream under bob's name": await taskRequest(TASK_API.lease, token, { ...caller, userId: bob.userId }),
    'a second instance': await taskRequest(TASK_API.lease, token, { ...caller, instanceId: 'attacker' }),
    'a forged token': await taskRequest(TASK_API.lease, `${token}x`, caller),
    'a session token': await taskRequest(TASK_API.lease, ada.token, caller),
    'no token': await taskRequest(TASK_API.lease, undefined, caller),
  };
  expect(Object.fromEntries(Object.entries(refusals).map(([what, answer]) => [what, `${answer.status} ${answer.body.error}`]))).toEqual({
    "bob's stream": '409 task lease lost',
    "ada's stream under bob's name": '409 task lease lost',
    'a second instance': '409 task lease lost',
    'a forged token': '409 task lease lost',
    'a session token': '409 task lease lost',
    'no token': '401 unauthorized',
  });
  for (const answer of Object.values(refusals)) expect(JSON.stringify(answer.body)).not.toContain(ada.key);
}, 60_000);

test("the task's probe of its video is kept with the item for the next task; only the run's lease holder reports one", async () => {
  const [task] = streamTaskProcesses(adaStreamId);
  const { caller, token } = taskCredentials(task!);
  const lease = async () => ((await taskRequest(TASK_API.lease, token, caller)).body as LeaseGrant).spec;
  // The task reported what its ffprobe found beside its start; a spec made after that hands it on.
  const spec = await waitFor('the kept probe in the spec', lease, (found) => found.videoProbe !== undefined, 10_000);
  const probe = spec.videoProbe!;
  // It names the bytes the spec's URL serves, and says what they are.
  const served = await fetch(spec.video, { headers: { range: 'bytes=0-0' } });
  await served.arrayBuffer();
  expect(probe.etag).toBe(served.headers.get('etag'));
  const item = (await api(stack, 'GET', `/videos/${ada.videoId}`, { token: ada.token })).body;
  expect(Math.abs(probe.durationUs / 1e6 - item.durationSeconds)).toBeLessThan(0.1);
  expect(probe.streams.map((stream) => `${stream.codecType} ${stream.codecName}`).sort()).toEqual(['audio aac', 'video h264']);
  expect(probe.timeline?.videoLength).toBeCloseTo(probe.durationUs / 1e6, 1);

  const forged = { ...probe, etag: '"forged"', durationUs: 1 };
  const reports = {
    'a forged token': await taskRequest(TASK_API.probe, `${token}x`, { ...caller, input: 'video', probe: forged }),
    "bob's stream": await taskRequest(TASK_API.probe, token, { ...caller, userId: bob.userId, streamId: bobStreamId, input: 'video', probe: forged }),
    'a probe that is not one': await taskRequest(TASK_API.probe, token, { ...caller, input: 'video', probe: { ...forged, streams: 'h264' } }),
    'an input the stream does not have': await taskRequest(TASK_API.probe, token, { ...caller, input: 'audio', probe: forged }),
  };
  expect(Object.fromEntries(Object.entries(reports).map(([what, answer]) => [what, `${answer.status} ${answer.body.error ?? ''}`]))).toEqual({
    'a forged token': '409 task lease lost',
    "bob's stream": '409 task lease lost',
    'a probe that is not one': '400 invalid request',
    // Nothing to keep it with: answered, and kept nowhere.
    'an input the stream does not have': '204 ',
  });
  expect((await lease()).videoProbe).toEqual(probe);
  expect((await lease()).audioProbe).toBeUndefined();
}, 60_000);

/** Whether a preview frame of the stream is in the media bucket. */
const previewStored = (creator: Creator, streamId: string) =>
  stack.deps.s3.send(new HeadObjectCommand({ Bucket: stack.config.buckets.media, Key: streamPreviewKey(creator.userId, streamId) })).then(
    () => true,
    (error: Error) => {
      if (error.name === 'NotFound') return false;
      throw error;
    },
  );

test('once the run is over, its token opens nothing, and a preview frame is refused without being stored', async () => {
  const [task] = streamTaskProcesses(adaStreamId);
  const { caller, token } = taskCredentials(task!);
  await api(stack, 'POST', `/streams/${adaStreamId}/stop`, { token: ada.token });
  await waitForStreamStatus(stack, ada.token, adaStreamId, 'stopped');
  expect((await taskRequest(TASK_API.lease, token, caller)).body.error).toBe('task lease lost');
  const preview = await fetch(`${stack.urls.api}${TASK_API.preview}?${new URLSearchParams(caller)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
    body: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]),
  });
  expect(preview.status).toBe(409);
  // Nobody watched the stream, so its task stored no frame of its own: the refused one is not there either.
  expect(await previewStored(ada, adaStreamId)).toBe(false);
}, 60_000);
