// At most one publisher per stream, whatever else runs: a second task started by force for the same run, a task
// whose lease is taken away, a task that hangs, an execution that vanishes while its task goes on. Each is played
// on a real local stack (real stream-task processes, nginx-rtmp, the task API) and watched through the processes on
// the machine, not the runner's bookkeeping.
import { hashToken } from '../../lambdas/core/accounts/tokens';
import { TASK_LEASE } from '../../lambdas/contract/stream-task';
import { reconcileStreams } from '../../lambdas/core/streams/reconcile';
import { runOf } from '../../lambdas/core/streams/streams';
import { streamsContext } from '../../lambdas/wiring/streams';
import type { LocalStack } from '../../local/stack';
import { api } from '../helpers/accounts';
import { createStream, creatorWithDestination, type Creator } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { alive } from '../helpers/processes';
import { publishingFfmpegs, rtmpPublishers, startDuplicateTask, streamTaskProcesses, type TaskProcess } from '../helpers/stream-tasks';
import { startTestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

let stack: LocalStack;
let cleo: Creator;
let streamId: string;

beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
  cleo = await creatorWithDestination(stack, 'cleo');
  streamId = (await createStream(stack, cleo)).body.id;
  expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: cleo.token })).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await api(stack, 'POST', `/streams/${streamId}/stop`, { token: cleo.token });
  await stack.stop();
});

const stream = async () => (await api(stack, 'GET', `/streams/${streamId}`, { token: cleo.token })).body;
const reconcileAt = (aheadMs: number) => reconcileStreams({ ...streamsContext(stack.deps), now: () => new Date(Date.now() + aheadMs) });

/** Live with exactly one task, one ffmpeg, one publisher at the destination: answers the task. */
async function liveWithOneTask(): Promise<TaskProcess> {
  await waitFor(
    'one task publishing',
    async () => ({
      tasks: streamTaskProcesses(streamId).length,
      ffmpegs: publishingFfmpegs(streamId).length,
      publishers: await rtmpPublishers(stack, cleo.key),
    }),
    (n) => n.tasks === 1 && n.ffmpegs === 1 && n.publishers === 1,
    90_000,
  );
  // After the processes: a fresh task publishes a moment before the lifecycle records it as started.
  await waitForStreamStatus(stack, cleo.token, streamId, 'started', 60_000);
  return streamTaskProcesses(streamId)[0]!;
}

test('a second task started by force for the same run is refused its lease and exits at once; the first goes on publishing', async () => {
  const first = await liveWithOneTask();
  const duplicate = await startDuplicateTask(first);
  const code = await new Promise<number | null>((resolve) => duplicate.once('exit', (exitCode) => resolve(exitCode)));
  expect(code).toBe(3);
  expect(streamTaskProcesses(streamId).map((t) => t.pid)).toEqual([first.pid]);
  expect(await rtmpPublishers(stack, cleo.key)).toBe(1);
  expect(await stream()).toMatchObject({ status: 'started', restarts: 0 });
}, 120_000);

test('a task whose lease is taken away stops publishing within one heartbeat interval; the lifecycle goes on with a fresh task, no restart counted', async () => {
  const first = await liveWithOneTask();
  const { streams } = streamsContext(stack.deps);
  // What PrepareTask of the run's execution does for the next task: the holder is revoked.
  const current = await streams.get(cleo.userId, streamId);
  const [ffmpeg] = publishingFfmpegs(streamId);
  const revokedAt = Date.now();
  expect(await streams.mintLease(runOf(current!)!, hashToken('another task'), new Date())).toEqual({ revokedHolder: first.environment.LOOPCAST_TASK_ID });
  await waitFor(
    'the revoked task to stop its ffmpeg',
    () => alive(ffmpeg!),
    (running) => !running,
    30_000,
  );
  const stoppedAfterMs = Date.now() - revokedAt;
  console.log(`[fencing] the revoked task's ffmpeg was gone ${(stoppedAfterMs / 1000).toFixed(1)} s after its lease was taken`);
  // At its next renewal (one interval), plus ffmpeg's SIGTERM grace (2 s).
  expect(stoppedAfterMs).toBeLessThan((TASK_LEASE.renewSeconds + 3) * 1000);
  await waitFor(
    'the revoked task to exit',
    () => alive(first.pid),
    (running) => !running,
    10_000,
  );
  const next = await liveWithOneTask();
  expect(next.pid).not.toBe(first.pid);
  expect(await stream()).toMatchObject({ status: 'started', restarts: 0 });
}, 180_000);

test('the reconciler ends a hung task whose run is over, and its ffmpeg with it', async () => {
  const task = await liveWithOneTask();
  const [ffmpeg] = publishingFfmpegs(streamId);
  process.kill(task.pid, 'SIGSTOP');
  const { streams } = streamsContext(stack.deps);
  const run = runOf((await streams.get(cleo.userId, streamId))!)!;
  // The run ends somewhere the task never hears of (its lease goes with it), while the task hangs.
  expect(await streams.finishRun(cleo.userId, streamId, run.runId, undefined, new Date())).toBe(true);
  expect(alive(ffmpeg!)).toBe(true);
  const outcome = await reconcileAt(0);
  expect(outcome).toMatchObject({ orphansEnded: 1 });
  expect(alive(task.pid)).toBe(false);
  await waitFor(
    'its ffmpeg to die with it',
    () => alive(ffmpeg!),
    (running) => !running,
    10_000,
  );
  await waitFor(
    'the publisher to leave the destination',
    () => rtmpPublishers(stack, cleo.key),
    (n) => n === 0,
    10_000,
  );
  expect((await stream()).status).toBe('stopped');
  expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: cleo.token })).status).toBe(200);
}, 180_000);

test('an execution that ended while its task ran: the reconciler ends the task and a fresh execution carries the run, no restart counted', async () => {
  const task = await liveWithOneTask();
  const { streams } = streamsContext(stack.deps);
  const before = (await streams.get(cleo.userId, streamId))!;
  // The execution goes (as one stopped by hand in the Step Functions console would); its task does not.
  await stack.streamRunner.stopExecution(runOf(before)!);
  expect(alive(task.pid)).toBe(true);
  expect(await reconcileAt(0)).toMatchObject({ orphansEnded: 0, relaunched: 0 }); // too soon: it may be starting
  expect(await reconcileAt(2 * 60_000)).toMatchObject({ relaunched: 1 });
  expect(alive(task.pid)).toBe(false);
  const next = await liveWithOneTask();
  expect(next.pid).not.toBe(task.pid);
  const after = (await streams.get(cleo.userId, streamId))!;
  expect(after.executionName).not.toBe(before.executionName);
  expect(after.restarts).toBe(before.restarts);
}, 180_000);

test('a task that stops reporting is restarted by the reconciler, counted as a restart with its reason shown', async () => {
  const task = await liveWithOneTask();
  const restartsBefore = (await stream()).restarts;
  process.kill(task.pid, 'SIGSTOP');
  expect(await reconcileAt(0)).toMatchObject({ staleRestarted: 0 });
  expect(await reconcileAt(4 * 60_000)).toMatchObject({ staleRestarted: 1 });
  expect(alive(task.pid)).toBe(false);
  const pending = await stream();
  expect(pending).toMatchObject({ restarts: restartsBefore + 1 });
  expect(pending.health?.lastError).toBe('the stream task stopped reporting');
  const next = await liveWithOneTask();
  expect(next.pid).not.toBe(task.pid);
}, 180_000);
