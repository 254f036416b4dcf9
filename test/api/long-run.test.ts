// A stream that runs past every minute-scale timer of the product (the States Language's 60 s task default that
// once started a second task every minute, the 10 s heartbeat and lease renewal, the 30 s lease, the reconciler's
// minute), watched as a creator's tools would: the API, the processes on the machine, the RTMP server's own count of
// publishers, and a player reading every packet. Then Stop, and nothing may be left publishing.
import type { LocalStack } from '../../local/stack';
import { api } from '../helpers/accounts';
import { createStream, creatorWithDestination } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { noMediaWithin, RtmpPlayer } from '../helpers/player';
import { startTestStack } from '../helpers/stack';
import { publishingFfmpegs, rtmpPublishers, streamTaskProcesses } from '../helpers/stream-tasks';

const RUN_SECONDS = 200;
const CLIP_SECONDS = 2;
const CHECK_EVERY_MS = 5000;

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
});
afterAll(() => stack.stop());

test(`a stream runs ${RUN_SECONDS} s with one task and one publisher throughout, started at every check, never restarted; after Stop no media arrives and no task is left`, async () => {
  const ida = await creatorWithDestination(stack, 'ida', CLIP_SECONDS);
  const streamId = (await createStream(stack, ida)).body.id as string;
  const url = `${stack.urls.rtmp}/${ida.key}`;
  expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: ida.token })).status).toBe(200);
  await waitForStreamStatus(stack, ida.token, streamId, 'started', 90_000);
  const startedAt = Date.now();
  const player = new RtmpPlayer(url);
  const [task] = streamTaskProcesses(streamId);
  expect(task).toBeDefined();

  const checks: string[] = [];
  while (Date.now() - startedAt < RUN_SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
    const { body: stream } = await api(stack, 'GET', `/streams/${streamId}`, { token: ida.token });
    const seen = {
      at: Math.round((Date.now() - startedAt) / 1000),
      status: stream.status,
      restarts: stream.restarts,
      taskRestarts: stream.health?.taskRestarts,
      tasks: streamTaskProcesses(streamId).map((t) => t.pid),
      ffmpegs: publishingFfmpegs(streamId).length,
      publishers: await rtmpPublishers(stack, ida.key),
    };
    checks.push(JSON.stringify(seen));
    expect(seen).toEqual({ at: seen.at, status: 'started', restarts: 0, taskRestarts: 0, tasks: [task!.pid], ffmpegs: 1, publishers: 1 });
  }
  const { body: after } = await api(stack, 'GET', `/streams/${streamId}`, { token: ida.token });
  expect(after.health.loops).toBeGreaterThanOrEqual(RUN_SECONDS / CLIP_SECONDS - 10);
  const played = player.snapshot;
  console.log(`[long run] ${checks.length} checks over ${RUN_SECONDS} s; ${after.health.loops} loops; player: ${JSON.stringify(played)}`);
  for (const track of [played.video, played.audio]) {
    expect(track.dtsRegressions).toBe(0);
    expect(track.gaps).toBe(0);
    expect(track.mediaSeconds).toBeGreaterThan(RUN_SECONDS - 15);
  }

  const stopped = await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ida.token });
  const answeredAt = Date.now();
  expect(stopped.body).toMatchObject({ status: 'stopped' });
  // The task and its ffmpeg were gone before the answer; the player's last packet came before it.
  expect(streamTaskProcesses(streamId)).toEqual([]);
  expect(publishingFfmpegs(streamId)).toEqual([]);
  expect(player.snapshot.lastPacketAt).toBeLessThanOrEqual(answeredAt);
  await player.stop();
  await new Promise((resolve) => setTimeout(resolve, 5000));
  expect(await rtmpPublishers(stack, ida.key)).toBe(0);
  expect(await noMediaWithin(url, 5)).toBe(true);
  expect(streamTaskProcesses(streamId)).toEqual([]);
}, (RUN_SECONDS + 180) * 1000);
