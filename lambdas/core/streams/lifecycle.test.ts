import { LEASE_LOST_EXIT_CODE } from '../../contract/stream-lifecycle';
import { fargateEphemeralStorageGiB } from '../../contract/data-planes';
import { carriesRun, classifyTaskEnd, fargateOverridesFor, restartDelaySeconds, taskFailureReason } from './lifecycle';
import { executionNameOf, nextExecutionName, type Stream } from './stream';

const cause = (containers: unknown[], stoppedReason = 'Essential container in task exited') =>
  JSON.stringify({ StoppedReason: stoppedReason, Containers: containers });

describe('task failure reasons', () => {
  test("ECS's stop reason and the container's exit code, from Step Functions' error", () => {
    expect(taskFailureReason({ Error: 'States.TaskFailed', Cause: cause([{ ExitCode: 137, Reason: 'OutOfMemoryError' }]) })).toBe(
      'Essential container in task exited; OutOfMemoryError; exit code 137',
    );
  });

  test('no error, an unparsable cause, an empty cause', () => {
    expect(taskFailureReason(null)).toBeUndefined();
    expect(taskFailureReason({ Error: 'States.TaskFailed', Cause: 'not json' })).toBe('States.TaskFailed');
    expect(taskFailureReason({ Error: 'States.TaskFailed', Cause: '{}' })).toBe('States.TaskFailed');
  });
});

describe('why a round ended', () => {
  test('a round that reached its TimeoutSeconds is a renewal, never a problem', () => {
    expect(classifyTaskEnd({ Error: 'States.Timeout', Cause: 'Task timed out' })).toEqual({ kind: 'renewal' });
  });

  test('a task that did not or no longer hold the lease was superseded, never a problem', () => {
    expect(classifyTaskEnd({ Error: 'States.TaskFailed', Cause: cause([{ ExitCode: LEASE_LOST_EXIT_CODE }]) })).toEqual({ kind: 'superseded' });
  });

  test('a crash, a kill or a task that could not start is a failure with its reason; a clean exit nobody asked for ended', () => {
    expect(classifyTaskEnd({ Error: 'States.TaskFailed', Cause: cause([{ ExitCode: 1 }]) })).toEqual({
      kind: 'failed',
      reason: 'Essential container in task exited; exit code 1',
    });
    expect(classifyTaskEnd({ Error: 'States.TaskFailed', Cause: cause([{ Reason: 'killed by SIGKILL' }]) })).toEqual({
      kind: 'failed',
      reason: 'Essential container in task exited; killed by SIGKILL',
    });
    expect(classifyTaskEnd({ Error: 'AmazonECS.Unknown', Cause: 'RESOURCE:CPU' })).toEqual({ kind: 'failed', reason: 'AmazonECS.Unknown' });
    expect(classifyTaskEnd(null)).toEqual({ kind: 'ended' });
  });
});

describe('lifecycle arithmetic', () => {
  test('restart delays: whole seconds, doubling from 1 s to a minute, with at most 20 % jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => restartDelaySeconds(n, () => 0))).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(restartDelaySeconds(7, () => 0.999)).toBe(72);
    for (let n = 1; n < 20; n++) expect(Number.isInteger(restartDelaySeconds(n))).toBe(true);
  });

  test('executions of a run are numbered: each handover or relaunch takes the next name', () => {
    expect(executionNameOf('9f1c-run', 0)).toBe('9f1c-run-0');
    expect(nextExecutionName('9f1c-run-0')).toBe('9f1c-run-1');
    expect(nextExecutionName('9f1c-run-41')).toBe('9f1c-run-42');
    expect(() => nextExecutionName('no-number-x')).toThrow('not a lifecycle execution name');
  });
});

describe('which execution carries a run', () => {
  const now = new Date('2026-11-24T12:00:00Z').toISOString();
  const stream = (overrides: Partial<Stream> = {}): Stream => ({
    id: 's1',
    userId: 'u1',
    title: 'Loop',
    channelIds: ['c1'],
    restartTimes: [],
    timeZone: 'UTC',
    desired: 'running',
    status: 'started',
    runId: 'r1',
    executionName: 'r1-2',
    restarts: 0,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });
  const run = { userId: 'u1', streamId: 's1', runId: 'r1', executionName: 'r1-2' };

  test('only the current execution of the running run, while pending or started', () => {
    expect(carriesRun(stream(), run)).toBe(true);
    expect(carriesRun(stream({ status: 'pending' }), run)).toBe(true);
    expect(carriesRun(undefined, run)).toBe(false);
    expect(carriesRun(stream({ executionName: 'r1-3' }), run)).toBe(false);
    expect(carriesRun(stream({ runId: 'r2' }), run)).toBe(false);
    expect(carriesRun(stream({ desired: 'stopped', status: 'stopping' }), run)).toBe(false);
    expect(carriesRun(stream({ status: 'encoding' }), run)).toBe(false);
  });
});

describe("a Fargate task's disk", () => {
  const GB = 1e9;
  const GiB = 1024 ** 3;

  test('the free 20 GiB while the video (twice: download and loop-ready copy), its audio and the image fit: no override at all', () => {
    expect(fargateOverridesFor({ videoBytes: 2.76 * GB })).toEqual({}); // an hour at 6 Mbit/s
    expect(fargateOverridesFor({ videoBytes: 8 * GB, audioBytes: 0.1 * GB })).toEqual({});
    expect(fargateEphemeralStorageGiB({ videoBytes: 0 })).toBe(20);
  });

  test("larger media get the whole GiB they need, at least 21 (the smallest override ECS accepts), at most Fargate's 200", () => {
    // 2 GiB reserved + (2 × 10 GiB) × 1.1 = 24 GiB
    expect(fargateOverridesFor({ videoBytes: 10 * GiB })).toEqual({ EphemeralStorage: { SizeInGiB: 24 } });
    expect(fargateOverridesFor({ videoBytes: 8.2 * GiB })).toEqual({ EphemeralStorage: { SizeInGiB: 21 } });
    expect(fargateOverridesFor({ videoBytes: 20 * GiB, audioBytes: 2 * GiB })).toEqual({ EphemeralStorage: { SizeInGiB: 49 } });
    expect(fargateOverridesFor({ videoBytes: 120 * GiB })).toEqual({ EphemeralStorage: { SizeInGiB: 200 } });
  });
});
