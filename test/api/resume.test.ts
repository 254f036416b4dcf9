// `npm start` run again after it stopped. In AWS, stream loops (Step Functions + Fargate) and transcodes
// (MediaConvert) go on without the API; locally they live in the stack's process, so the next start picks them up.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { videoKey } from '../../lambdas/adapters/dynamo/keys';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { alive, commandLine, descendants } from '../helpers/processes';
import { startTestStack } from '../helpers/stack';

const streamTasks = () => descendants(process.pid).filter((pid) => alive(pid) && commandLine(pid).includes('stream-task'));

let first: LocalStack | undefined;
let second: LocalStack | undefined;
afterAll(async () => {
  await first?.stop();
  await second?.stop();
});

test('a stream left running gets its loop back and an item left encoding is transcoded', async () => {
  first = await startTestStack({ rtmp: true });
  const user = await signedInUser(first);
  const videoId = await uploadWithTus(first, user.token, (await makeClip({ seconds: 4 })).bytes);
  await waitForItem(first, user.token, videoId);
  const channel = await api(first, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'Local', url: first.urls.rtmp!, key: 'resume-test' } });
  const stream = await api(first, 'POST', '/streams', { token: user.token, body: { title: 'Across restarts', videoId, channelIds: [channel.body.id] } });
  await api(first, 'POST', `/streams/${stream.body.id}/start`, { token: user.token });
  await waitForStreamStatus(first, user.token, stream.body.id, 'started', 90_000);

  // A 1080p clip long enough that its transcode (seconds of work) is still going when the stack stops right after the
  // upload; no longer, as making and transcoding it is CPU the rest of the suite shares.
  const interruptedId = await uploadWithTus(first, user.token, (await makeClip({ seconds: 20, size: '1920x1080' })).bytes);
  const stoppedAt = new Date().toISOString();
  await first.stop();
  const left = await first.deps.db.send(new GetCommand({ TableName: first.config.tables.app, Key: videoKey(user.userId, interruptedId) }));
  expect(left.Item?.status).toBe('encoding');
  expect(streamTasks()).toEqual([]);

  second = await startTestStack({ rtmp: true, continueFrom: first });
  expect(second.resumed).toEqual({ streams: 1, transcodes: 1 });
  // The transcode starts over in the new process, beside the rest of the suite: up to 4 minutes on a loaded 2-core
  // runner (it once took longer than 2, while other suites transcoded too).
  expect((await waitForItem(second, user.token, interruptedId, 240_000)).status).toBe('ready');
  // The loop is back: a stream task of the new process reports again.
  const deadline = Date.now() + 90_000;
  let health: { at?: string } | undefined;
  while (!(health?.at && health.at > stoppedAt)) {
    if (Date.now() > deadline) throw new Error(`no heartbeat after the restart; last: ${JSON.stringify(health)}`);
    await new Promise((r) => setTimeout(r, 500));
    health = (await api(second, 'GET', `/streams/${stream.body.id}`, { token: user.token })).body.health;
  }
  expect(second.streamRunner.children).toHaveLength(1);
  await second.stop();
  expect(streamTasks()).toEqual([]);
}, 480_000);
