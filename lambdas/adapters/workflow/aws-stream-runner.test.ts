// The AWS stream runner with the real @aws-sdk/client-sfn and @aws-sdk/client-ecs, against fakes that follow the
// control planes' wire format (test/fakes/aws/control-planes.ts): what it asks Step Functions and ECS, in pages.
import { ECSClient, RunTaskCommand } from '@aws-sdk/client-ecs';
import { SFNClient } from '@aws-sdk/client-sfn';
import { startFakeControlPlanes, type FakeControlPlanes } from '../../../test/fakes/aws/control-planes';
import { STREAM_TASK_CONTAINER, TASK_ENVIRONMENT } from '../../contract/stream-lifecycle';
import { AwsStreamRunner } from './aws-stream-runner';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const stateMachineArn = 'arn:aws:states:us-east-1:123456789012:stateMachine:loopcast-test-stream-lifecycle';
let fakes: FakeControlPlanes;
let ecs: ECSClient;
let sfn: SFNClient;
let runner: AwsStreamRunner;

beforeEach(async () => {
  fakes = await startFakeControlPlanes({ pageSize: 2 });
  ecs = new ECSClient({ region: 'us-east-1', endpoint: fakes.ecsUrl, credentials });
  sfn = new SFNClient({ region: 'us-east-1', endpoint: fakes.sfnUrl, credentials });
  runner = new AwsStreamRunner({
    sfn,
    ecs,
    stateMachineArn,
    cluster: 'loopcast-test-streams',
    taskFamily: 'loopcast-test-stream-task',
    stopWaitMs: 1500,
    pollMs: 100,
  });
});
afterEach(async () => {
  ecs.destroy();
  sfn.destroy();
  await fakes.stop();
});

const run = (n: number) => ({ userId: `u${n}`, streamId: `s${n}`, runId: `r${n}`, executionName: `r${n}-0` });

/** A task as the lifecycle's RunStreamTask starts it: its run in the container's environment. */
async function streamTask(n: number, family = 'loopcast-test-stream-task', launchType?: 'EXTERNAL'): Promise<string> {
  const environment = [
    { name: TASK_ENVIRONMENT.userId, value: `u${n}` },
    { name: TASK_ENVIRONMENT.streamId, value: `s${n}` },
    { name: TASK_ENVIRONMENT.runId, value: `r${n}` },
    { name: TASK_ENVIRONMENT.token, value: 'not for the runner' },
  ];
  const { tasks } = await ecs.send(
    new RunTaskCommand({
      cluster: 'loopcast-test-streams',
      taskDefinition: family,
      launchType,
      group: `stream:s${n}`,
      overrides: { containerOverrides: [{ name: STREAM_TASK_CONTAINER, environment }] },
    }),
  );
  return tasks![0]!.taskArn!;
}

test('launch starts the execution named by the run with the lifecycle input; launching twice is harmless', async () => {
  await runner.launch(run(1));
  await runner.launch(run(1));
  expect([...fakes.executions.values()]).toEqual([expect.objectContaining({ name: 'r1-0', stateMachineArn, status: 'RUNNING' })]);
  expect(JSON.parse(fakes.executions.values().next().value!.input)).toEqual({ userId: 'u1', streamId: 's1', runId: 'r1', round: 0, taskError: null });
});

test('stopExecution stops it by its ARN; an execution that does not exist is fine', async () => {
  await runner.launch(run(1));
  await runner.stopExecution(run(1));
  await runner.stopExecution(run(2));
  expect(fakes.executions.get(`${stateMachineArn.replace(':stateMachine:', ':execution:')}:r1-0`)!.status).toBe('ABORTED');
});

test('runningExecutions: every running execution of the lifecycle, over pages', async () => {
  for (const n of [1, 2, 3, 4, 5]) await runner.launch(run(n));
  await runner.stopExecution(run(3));
  expect(await runner.runningExecutions()).toEqual(new Set(['r1-0', 'r2-0', 'r4-0', 'r5-0']));
  expect(fakes.calls.filter((c) => c.operation === 'ListExecutions').length).toBeGreaterThan(1);
});

test("tasks: the stream task family's running tasks with the run each was started for, over pages", async () => {
  const arns = [await streamTask(1), await streamTask(2), await streamTask(3)];
  await streamTask(4, 'something-else');
  const tasks = await runner.tasks();
  expect(tasks.map((t) => t.taskId).sort()).toEqual([...arns].sort());
  expect(tasks.find((t) => t.taskId === arns[1])).toEqual({ taskId: arns[1], userId: 'u2', streamId: 's2', runId: 'r2', startedAt: expect.any(String) });
  expect(
    fakes.calls.filter((c) => c.operation === 'ListTasks').every((c) => c.body.family === 'loopcast-test-stream-task' && c.body.desiredStatus === 'RUNNING'),
  ).toBe(true);
});

test('endTasks stops each task and waits until ECS reports it stopped', async () => {
  const [a, b] = [await streamTask(1), await streamTask(2)];
  await runner.endTasks([a]);
  expect(fakes.tasks.get(a)).toMatchObject({
    desiredStatus: 'STOPPED',
    lastStatus: 'STOPPED',
    stoppedReason: 'Loopcast: this task no longer carries its stream',
  });
  expect(fakes.tasks.get(b)!.lastStatus).toBe('RUNNING');
  await runner.endStreamTasks('s2', [b]);
  expect(fakes.tasks.get(b)!.lastStatus).toBe('STOPPED');
});

test('a task on a host that lost its connection never stops: endTasks gives up after its wait instead of holding the stream up', async () => {
  const arn = await streamTask(1);
  fakes.tasks.get(arn)!.hostOffline = true;
  const started = Date.now();
  await runner.endTasks([arn]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  expect(fakes.tasks.get(arn)).toMatchObject({ desiredStatus: 'STOPPED', lastStatus: 'RUNNING' });
});

test('a task on an ECS Anywhere host whose agent is disconnected is asked to stop but not waited for; one on a connected host is', async () => {
  const [dead, alive] = [fakes.registerHost('loopcast-test-streams'), fakes.registerHost('loopcast-test-streams')];
  const arns = [await streamTask(1, undefined, 'EXTERNAL'), await streamTask(2, undefined, 'EXTERNAL')];
  const onDead = arns.find((arn) => fakes.tasks.get(arn)!.containerInstanceArn === dead.containerInstanceArn)!;
  const onAlive = arns.find((arn) => fakes.tasks.get(arn)!.containerInstanceArn === alive.containerInstanceArn)!;
  expect([onDead, onAlive].every(Boolean)).toBe(true);
  dead.agentConnected = false;
  const started = Date.now();
  await runner.endTasks([onDead, onAlive]);
  // Only as long as the connected host's task took to stop (200 ms), far from the 1.5 s wait.
  expect(Date.now() - started).toBeLessThan(1000);
  expect(fakes.tasks.get(onDead)).toMatchObject({ desiredStatus: 'STOPPED', lastStatus: 'RUNNING' });
  expect(fakes.tasks.get(onAlive)).toMatchObject({ desiredStatus: 'STOPPED', lastStatus: 'STOPPED' });
  expect(fakes.calls.filter((c) => c.operation === 'DescribeContainerInstances').flatMap((c) => c.body.containerInstances as string[])).toContain(
    dead.containerInstanceArn,
  );
});
