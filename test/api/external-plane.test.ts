// The external data plane (ECS Anywhere) on the local stack: the lifecycle definition with LaunchType EXTERNAL runs in
// the local Step Functions stand-in (whose RunTask refuses Fargate's parameters on this plane, as ECS would), and this
// machine stands in for the host. A stream goes live and stops; then the two things ECS may do when a host dies,
// which no local test can settle for AWS (docs/deploy.md, "When a host dies"): ECS reports the task stopped (the
// lifecycle restarts it at once), or ECS hears nothing and the execution's .sync waits for ever (the reconciler
// restarts the stream once its lease goes stale, and the run lease keeps the half-dead host from publishing again).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reconcileStreams } from '../../lambdas/core/streams/reconcile';
import { streamsContext } from '../../lambdas/wiring/streams';
import type { LocalStack } from '../../local/stack';
import { api } from '../helpers/accounts';
import { createStream, creatorWithDestination, type Creator } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { noMediaWithin, RtmpPlayer } from '../helpers/player';
import { alive } from '../helpers/processes';
import { publishingFfmpegs, rtmpPublishers, streamTaskProcesses, type TaskProcess } from '../helpers/stream-tasks';
import { startTestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

let stack: LocalStack;
let ext: Creator;
let streamId: string;

beforeAll(async () => {
  stack = await startTestStack({ rtmp: true, dataPlane: 'external' });
  ext = await creatorWithDestination(stack, 'ext');
  streamId = (await createStream(stack, ext)).body.id;
}, 180_000);
afterAll(async () => {
  await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ext.token });
  await stack.stop();
});

const stream = async () => (await api(stack, 'GET', `/streams/${streamId}`, { token: ext.token })).body;
const reconcileAt = (aheadMs: number) => reconcileStreams({ ...streamsContext(stack.deps), now: () => new Date(Date.now() + aheadMs) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Live with exactly one task (besides `except`, a dead host's), one ffmpeg and one publisher at the destination. */
async function liveWithOneTask(except?: TaskProcess): Promise<TaskProcess> {
  await waitForStreamStatus(stack, ext.token, streamId, 'started', 90_000);
  const others = () => streamTaskProcesses(streamId).filter((task) => task.pid !== except?.pid);
  await waitFor(
    'one task publishing',
    async () => ({ tasks: others().length, ffmpegs: publishingFfmpegs(streamId).length, publishers: await rtmpPublishers(stack, ext.key) }),
    (n) => n.tasks === 1 && n.ffmpegs === 1 && n.publishers === 1,
    60_000,
  );
  return others()[0]!;
}

test('the external lifecycle runs a stream: live at nginx-rtmp, then Stop leaves no task, no ffmpeg and no media', async () => {
  expect(stack.streamRunner.dataPlane).toBe('external');
  expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: ext.token })).status).toBe(200);
  await liveWithOneTask();
  const player = new RtmpPlayer(`${stack.urls.rtmp}/${ext.key}`);
  await player.receiving();
  await sleep(3000);
  const figures = player.snapshot;
  await player.stop();
  expect(figures.video.packets).toBeGreaterThan(0);
  expect(figures.audio.packets).toBeGreaterThan(0);
  expect(figures.video.dtsRegressions).toBe(0);
  expect(await stream()).toMatchObject({ status: 'started', restarts: 0 });

  const stopped = await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ext.token });
  expect(stopped.body).toMatchObject({ status: 'stopped' });
  expect(streamTaskProcesses(streamId)).toEqual([]);
  expect(publishingFfmpegs(streamId)).toEqual([]);
  expect(await stack.streamRunner.tasks()).toEqual([]);
  expect(await stack.streamRunner.runningExecutions()).toEqual(new Set());
  expect(await noMediaWithin(`${stack.urls.rtmp}/${ext.key}`, 5)).toBe(true);
  expect(await rtmpPublishers(stack, ext.key)).toBe(0);
}, 180_000);

test('a host that dies and ECS reports its task stopped: the lifecycle starts the stream again at once, counted as a restart', async () => {
  expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: ext.token })).status).toBe(200);
  const task = await liveWithOneTask();
  const restarts = (await stream()).restarts;
  process.kill(task.pid, 'SIGKILL');
  await waitForStreamStatus(stack, ext.token, streamId, 'pending', 30_000);
  const next = await liveWithOneTask();
  expect(next.pid).not.toBe(task.pid);
  expect(await waitForStreamStatus(stack, ext.token, streamId, 'started', 30_000)).toMatchObject({ restarts: restarts + 1 });
}, 180_000);

test('a host that dies and ECS hears nothing (StopTask cannot reach it, .sync never completes): the reconciler restarts the stream on another host; when the half-dead host comes back to life its task is refused the lease and stops, and no second publisher ever appears', async () => {
  const dead = await liveWithOneTask();
  const deadTaskId = dead.environment.LOOPCAST_TASK_ID!;
  const restarts = (await stream()).restarts;
  // The host freezes and ECS loses it: nothing reports, its connection to the destination drops with it.
  stack.streamRunner.disconnect(deadTaskId);
  process.kill(dead.pid, 'SIGSTOP');
  for (const ffmpeg of publishingFfmpegs(streamId)) process.kill(ffmpeg, 'SIGKILL');
  await waitFor(
    'the destination to lose the publisher',
    () => rtmpPublishers(stack, ext.key),
    (n) => n === 0,
    30_000,
  );

  // Before the lease is stale nothing happens; after 3 minutes of silence the reconciler moves the run to a fresh
  // execution, whose PrepareTask revokes the dead task's lease. Nobody waits for the unreachable task.
  expect(await reconcileAt(0)).toMatchObject({ staleRestarted: 0, orphansEnded: 0 });
  const restartStarted = Date.now();
  expect(await reconcileAt(4 * 60_000)).toMatchObject({ staleRestarted: 1 });
  const reconcileMs = Date.now() - restartStarted;
  console.log(`[external] the reconciler moved the dead host's stream in ${reconcileMs} ms, not waiting for its task`);
  expect(reconcileMs).toBeLessThan(10_000);
  expect(alive(dead.pid)).toBe(true);
  const pending = await stream();
  expect(pending).toMatchObject({ restarts: restarts + 1 });
  expect(pending.health?.lastError).toBe('the stream task stopped reporting');
  const next = await liveWithOneTask(dead);
  expect(await stream()).toMatchObject({ status: 'started', restarts: restarts + 1 });

  // The host comes back to life, still cut off from ECS (no stop reaches it): its task resumes, finds its ffmpeg
  // gone, reports at once, is refused the lease and exits. Meanwhile the destination never sees two publishers.
  const watchFrom = Date.now();
  process.kill(dead.pid, 'SIGCONT');
  let mostPublishers = 0;
  while (alive(dead.pid) && Date.now() - watchFrom < 45_000) {
    mostPublishers = Math.max(mostPublishers, await rtmpPublishers(stack, ext.key));
    await sleep(200);
  }
  const goneAfterMs = Date.now() - watchFrom;
  expect(alive(dead.pid)).toBe(false);
  // Why it stopped, in its own log (what CloudWatch keeps in AWS): its lease, not a signal.
  const stops = readFileSync(join(stack.dataDir, 'logs', `stream-${streamId}.log`), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"stopping: '))
    .map((line) => JSON.parse(line) as { message: string; timestamp: string })
    .filter((line) => Date.parse(line.timestamp) >= watchFrom);
  expect(stops.map((line) => line.message)).toEqual([expect.stringMatching(/lease was refused|lease could not be renewed/)]);
  console.log(`[external] the half-dead host's task was gone ${(goneAfterMs / 1000).toFixed(1)} s after it came back: "${stops[0]!.message}"`);
  for (let i = 0; i < 10; i++) {
    mostPublishers = Math.max(mostPublishers, await rtmpPublishers(stack, ext.key));
    await sleep(300);
  }
  expect(mostPublishers).toBe(1);
  expect(streamTaskProcesses(streamId).map((task) => task.pid)).toEqual([next.pid]);
  expect(await stream()).toMatchObject({ status: 'started', restarts: restarts + 1 });
  // ECS hears of it when the host's agent reconnects; the run carries on untouched.
  await stack.streamRunner.reconnect(deadTaskId);
  expect((await stack.streamRunner.tasks()).map((task) => task.taskId)).toEqual([next.environment.LOOPCAST_TASK_ID]);
  expect(await reconcileAt(0)).toMatchObject({ orphansEnded: 0, relaunched: 0, staleRestarted: 0 });
}, 300_000);
