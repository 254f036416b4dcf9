// Re-check of the security audit: partial and unfinished tus uploads were each checked against the storage left
// but not counted, so a trial account could park several times its plan in uploads never finished or never joined
// (tus keeps them for days). An upload now holds its declared length from its creation until it ends or expires.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { usageKey } from '../../lambdas/adapters/dynamo/keys';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const MB = 1_000_000;
const metadata = `filename ${Buffer.from('clip.mp4').toString('base64')},kind ${Buffer.from('video').toString('base64')}`;

/** A user whose other files leave `room` bytes of the plan's storage. */
async function userWithRoom(label: string, room: number) {
  const user = await signedInUser(stack, label);
  const { limits } = (await api(stack, 'GET', '/subscription', { token: user.token })).body;
  await stack.deps.db.send(
    new UpdateCommand({
      TableName: stack.config.tables.app,
      Key: usageKey(user.userId),
      UpdateExpression: 'SET storageBytes = :stored',
      ExpressionAttributeValues: { ':stored': limits.storageBytes - room },
    }),
  );
  return user;
}

function create(token: string, length: number, partial = false) {
  return fetch(`${stack.urls.api}/uploads`, {
    method: 'POST',
    headers: {
      'Tus-Resumable': '1.0.0',
      Authorization: `Bearer ${token}`,
      'Upload-Length': String(length),
      'Upload-Metadata': metadata,
      ...(partial ? { 'Upload-Concat': 'partial' } : {}),
    },
  });
}

const uploadUrl = (response: Response) => new URL(response.headers.get('location')!, `${stack.urls.api}/`).href;

async function refusal(response: Response) {
  return { status: response.status, error: ((await response.json()) as { error: string }).error };
}

test('unfinished uploads and partial uploads hold their length: together they stay within the plan', async () => {
  const user = await userWithRoom('parked', 100 * MB);
  const first = await create(user.token, 60 * MB, true);
  expect(first.status).toBe(201);
  expect(await refusal(await create(user.token, 60 * MB, true))).toEqual({ status: 403, error: 'storage limit' });
  expect(await refusal(await create(user.token, 60 * MB))).toEqual({ status: 403, error: 'storage limit' });
  // What is left beside the first is still there to take.
  const second = await create(user.token, 40 * MB);
  expect(second.status).toBe(201);
  expect(await refusal(await create(user.token, 1))).toEqual({ status: 403, error: 'storage limit' });

  // Terminating an upload gives its room back.
  expect((await fetch(uploadUrl(first), { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${user.token}` } })).status).toBe(204);
  expect((await create(user.token, 60 * MB, true)).status).toBe(201);
});

test('uploads created at the same time cannot both take the last room', async () => {
  const user = await userWithRoom('together', 100 * MB);
  const answers = await Promise.all(Array.from({ length: 6 }, () => create(user.token, 30 * MB, true)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 403, 403, 403]);
});
