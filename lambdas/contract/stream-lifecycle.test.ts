// The state machine definition itself, run by aws-local-stepfunctions with its Task states replaced: the paths
// prepare, restart (with the decided wait), handover (a fresh execution named by the decision) and stop, every
// timer explicit, a task that runs past the States Language's 60-second default, and what RunTask gets on each data
// plane (Fargate with its disk, ECS Anywhere with LaunchType EXTERNAL).
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import {
  LIFECYCLE_TIMEOUTS,
  STATES,
  streamLifecycleDefinition,
  timeoutsForNodeTimers,
  type LifecycleResources,
  type PrepareTaskPayload,
  type TaskEndedPayload,
  type TaskLaunch,
} from './stream-lifecycle';

type Json = Parameters<StateMachine['run']>[0];
const fargate: TaskLaunch = { dataPlane: 'fargate', capacityProvider: 'FARGATE', subnets: ['subnet-1'], securityGroups: ['sg-1'], publicIpv4: true };
const external: TaskLaunch = { dataPlane: 'external' };
const resources: LifecycleResources = {
  clusterArn: 'arn:aws:ecs:us-east-1:123456789012:cluster/c',
  taskDefinitionFamily: 'loopcast-test-stream-task',
  launch: fargate,
  lifecycleFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:lifecycle',
};
const input = { userId: 'u1', streamId: 's1', runId: 'r1', round: 0, taskError: null };

interface RunTaskInput {
  Group: string;
  LaunchType?: string;
  CapacityProviderStrategy?: unknown;
  NetworkConfiguration?: unknown;
  PlacementStrategy?: unknown;
  Overrides: { ContainerOverrides: { Name: string; Environment: { Name: string; Value: string }[] }[]; EphemeralStorage?: { SizeInGiB: number } };
}

interface Recorded {
  prepared: PrepareTaskPayload[];
  ended: TaskEndedPayload[];
  taskInputs: RunTaskInput[];
  handovers: unknown[];
}

/** Runs the definition once; `task(n)` is what the n-th RunStreamTask does. */
function runWith(options: {
  prepare?: (n: number) => Record<string, unknown>;
  decisions: Record<string, unknown>[];
  task: (n: number) => Promise<Json>;
  timeouts?: typeof LIFECYCLE_TIMEOUTS;
  launch?: TaskLaunch;
}) {
  // As the local stack runs it (local/stream-runner.ts): Node's timers cannot hold the year-long values.
  const definition = streamLifecycleDefinition({ ...resources, launch: options.launch ?? fargate, timeouts: timeoutsForNodeTimers(options.timeouts) });
  const machine = new StateMachine(definition as unknown as StateMachineDefinition, { validationOptions: { checkPaths: true, checkArn: true } });
  const recorded: Recorded = { prepared: [], ended: [], taskInputs: [], handovers: [] };
  const execution = machine.run(input as unknown as Json, {
    context: {
      Execution: { Name: 'r1-0', StartTime: '2026-11-24T10:00:00.000Z' },
      StateMachine: { Id: 'arn:aws:states:us-east-1:123456789012:stateMachine:m' },
    } as never,
    overrides: {
      waitTimeOverrides: { [STATES.backoff]: 0 },
      taskResourceLocalHandlers: {
        [STATES.prepareTask]: async (parameters) => {
          recorded.prepared.push((parameters as unknown as { Payload: PrepareTaskPayload }).Payload);
          const decision = options.prepare?.(recorded.prepared.length - 1) ?? {
            action: 'run',
            token: `token-${recorded.prepared.length}`,
            apiUrl: 'https://loopcast.example/api',
            fargateOverrides: {},
          };
          return { Payload: decision } as unknown as Json;
        },
        [STATES.runTask]: async (parameters) => {
          recorded.taskInputs.push(parameters as unknown as Recorded['taskInputs'][number]);
          return options.task(recorded.taskInputs.length - 1);
        },
        [STATES.taskEnded]: async (parameters) => {
          recorded.ended.push((parameters as unknown as { Payload: TaskEndedPayload }).Payload);
          return { Payload: options.decisions[recorded.ended.length - 1] } as unknown as Json;
        },
        [STATES.handOver]: async (parameters) => {
          recorded.handovers.push(parameters);
          return {} as Json;
        },
      },
    },
  });
  return { result: execution.result, recorded };
}

const crashed = async (): Promise<Json> => {
  const error = new Error('{"StoppedReason":"Essential container in task exited","Containers":[{"ExitCode":137}]}');
  error.name = 'States.TaskFailed';
  throw error;
};
const cleanExit = async (): Promise<Json> => ({}) as Json;

describe('stream lifecycle definition', () => {
  test('the local engine gets the same timers, except none above what a Node timer holds (24.8 days)', () => {
    expect(timeoutsForNodeTimers()).toEqual({ ...LIFECYCLE_TIMEOUTS, taskSeconds: 2_147_483, executionSeconds: 2_147_483 });
  });

  test('every Task state and the execution have an explicit TimeoutSeconds (the States Language default is 60 s)', () => {
    const definition = streamLifecycleDefinition({ ...resources, launch: external });
    expect(definition.TimeoutSeconds).toBe(LIFECYCLE_TIMEOUTS.executionSeconds);
    expect(definition.TimeoutSeconds).toBeLessThan(365 * 24 * 3600);
    const tasks = Object.entries(definition.States).filter(([, state]) => (state as { Type: string }).Type === 'Task');
    expect(tasks.map(([name]) => name).sort()).toEqual([STATES.handOver, STATES.prepareTask, STATES.runTask, STATES.taskEnded].sort());
    for (const [, state] of tasks) expect((state as { TimeoutSeconds?: number }).TimeoutSeconds).toBeGreaterThanOrEqual(60);
    expect(definition.States[STATES.runTask].TimeoutSeconds).toBe(180 * 24 * 3600);
  });

  test('PrepareTask before every task: the task gets its run, its token and the API; a failed task goes to TaskEnded with its error; restart prepares again; stop ends', async () => {
    const run = runWith({ decisions: [{ action: 'restart', delaySeconds: 3 }, { action: 'stop' }], task: (n) => (n === 0 ? crashed() : cleanExit()) });
    await run.result;
    const { prepared, ended, taskInputs, handovers } = run.recorded;
    expect(prepared).toEqual([
      { action: 'prepareTask', userId: 'u1', streamId: 's1', runId: 'r1', executionName: 'r1-0' },
      { action: 'prepareTask', userId: 'u1', streamId: 's1', runId: 'r1', executionName: 'r1-0' },
    ]);
    expect(taskInputs).toHaveLength(2);
    expect(taskInputs[0]!.Group).toBe('stream:s1');
    expect(taskInputs[0]!.Overrides.ContainerOverrides.map((c) => c.Name)).toEqual(['stream-task']);
    expect(taskInputs[0]!.Overrides.ContainerOverrides[0]!.Environment).toEqual([
      { Name: 'LOOPCAST_USER_ID', Value: 'u1' },
      { Name: 'LOOPCAST_STREAM_ID', Value: 's1' },
      { Name: 'LOOPCAST_RUN_ID', Value: 'r1' },
      { Name: 'LOOPCAST_TASK_TOKEN', Value: 'token-1' },
      { Name: 'LOOPCAST_API_URL', Value: 'https://loopcast.example/api' },
    ]);
    // Each task gets the token minted for it.
    expect(taskInputs[1]!.Overrides.ContainerOverrides[0]!.Environment[3]).toEqual({ Name: 'LOOPCAST_TASK_TOKEN', Value: 'token-2' });
    expect(ended[0]).toMatchObject({
      action: 'taskEnded',
      userId: 'u1',
      streamId: 's1',
      runId: 'r1',
      executionName: 'r1-0',
      executionStartedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      round: 0,
      taskError: { Error: 'States.TaskFailed' },
    });
    expect(ended[0]!.taskError!.Cause).toContain('ExitCode');
    // The next round counts up and carries no old error.
    expect(ended[1]).toMatchObject({ round: 1, taskError: null });
    expect(handovers).toEqual([]);
  });

  test('PrepareTask deciding stop ends the execution without a task', async () => {
    const run = runWith({ prepare: () => ({ action: 'stop' }), decisions: [], task: cleanExit });
    await run.result;
    expect(run.recorded.taskInputs).toEqual([]);
    expect(run.recorded.ended).toEqual([]);
  });

  test('handover starts a fresh execution named by the decision, with a fresh input, and ends this one', async () => {
    const run = runWith({ decisions: [{ action: 'handover', executionName: 'r1-1' }], task: crashed });
    await run.result;
    expect(run.recorded.handovers).toEqual([{ StateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:m', Name: 'r1-1', Input: input }]);
  });

  test('a round that reaches its TimeoutSeconds goes to TaskEnded as States.Timeout (a renewal)', async () => {
    const run = runWith({
      timeouts: { ...LIFECYCLE_TIMEOUTS, taskSeconds: 1 },
      decisions: [{ action: 'handover', executionName: 'r1-1' }],
      task: () => new Promise<Json>(() => undefined),
    });
    await run.result;
    expect(run.recorded.ended[0]!.taskError).toMatchObject({ Error: 'States.Timeout' });
    expect(run.recorded.handovers).toHaveLength(1);
  });

  test('Fargate: a capacity provider and awsvpc networking; the disk PrepareTask decided is merged into the overrides, and none is sent when the stream fits the free 20 GiB', async () => {
    const spot: TaskLaunch = { ...fargate, capacityProvider: 'FARGATE_SPOT', publicIpv4: false } as TaskLaunch;
    const run = runWith({
      launch: spot,
      prepare: (n) => ({
        action: 'run',
        token: `token-${n}`,
        apiUrl: 'https://loopcast.example/api',
        fargateOverrides: n === 0 ? { EphemeralStorage: { SizeInGiB: 48 } } : {},
      }),
      decisions: [{ action: 'restart', delaySeconds: 1 }, { action: 'stop' }],
      task: crashed,
    });
    await run.result;
    const [large, small] = run.recorded.taskInputs;
    expect(large).toMatchObject({
      CapacityProviderStrategy: [{ CapacityProvider: 'FARGATE_SPOT', Weight: 1 }],
      NetworkConfiguration: { AwsvpcConfiguration: { Subnets: ['subnet-1'], SecurityGroups: ['sg-1'], AssignPublicIp: 'DISABLED' } },
      Overrides: { EphemeralStorage: { SizeInGiB: 48 } },
    });
    expect(large!.LaunchType).toBeUndefined();
    expect(large!.Overrides.ContainerOverrides[0]!.Environment.map((e) => e.Name)).toEqual([
      'LOOPCAST_USER_ID',
      'LOOPCAST_STREAM_ID',
      'LOOPCAST_RUN_ID',
      'LOOPCAST_TASK_TOKEN',
      'LOOPCAST_API_URL',
    ]);
    expect(Object.keys(small!.Overrides)).toEqual(['ContainerOverrides']);
  });

  test('External (ECS Anywhere): LaunchType EXTERNAL spread over the hosts, no capacity provider, no awsvpc networking, no disk override; the same container environment', async () => {
    const run = runWith({
      launch: external,
      prepare: () => ({ action: 'run', token: 'token-x', apiUrl: 'https://loopcast.example/api', fargateOverrides: { EphemeralStorage: { SizeInGiB: 48 } } }),
      decisions: [{ action: 'stop' }],
      task: cleanExit,
    });
    await run.result;
    const [input] = run.recorded.taskInputs;
    expect(input).toEqual({
      Cluster: resources.clusterArn,
      TaskDefinition: 'loopcast-test-stream-task',
      PropagateTags: 'TASK_DEFINITION',
      Group: 'stream:s1',
      LaunchType: 'EXTERNAL',
      PlacementStrategy: [{ Type: 'spread', Field: 'instanceId' }],
      Overrides: {
        ContainerOverrides: [
          {
            Name: 'stream-task',
            Environment: [
              { Name: 'LOOPCAST_USER_ID', Value: 'u1' },
              { Name: 'LOOPCAST_STREAM_ID', Value: 's1' },
              { Name: 'LOOPCAST_RUN_ID', Value: 'r1' },
              { Name: 'LOOPCAST_TASK_TOKEN', Value: 'token-x' },
              { Name: 'LOOPCAST_API_URL', Value: 'https://loopcast.example/api' },
            ],
          },
        ],
      },
    });
    expect(run.recorded.ended[0]!.taskError).toBeNull();
  });

  test('a task that runs for 65 s, past the States Language default of 60 s, ends as it ended on either data plane: no timeout', async () => {
    const runs = [fargate, external].map((launch) =>
      runWith({ launch, decisions: [{ action: 'stop' }], task: () => new Promise<Json>((resolve) => setTimeout(() => resolve({} as Json), 65_000)) }),
    );
    await Promise.all(runs.map((run) => run.result));
    for (const run of runs) {
      expect(run.recorded.ended).toHaveLength(1);
      expect(run.recorded.ended[0]!.taskError).toBeNull();
    }
    expect(runs.map((run) => run.recorded.taskInputs[0]!.LaunchType)).toEqual([undefined, 'EXTERNAL']);
  }, 90_000);
});
