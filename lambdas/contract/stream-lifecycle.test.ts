// The state machine definition itself, run by aws-local-stepfunctions with its Task states replaced: the paths
// restart (with the decided wait), handover (a fresh execution named by the decision) and stop.
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { STATES, streamLifecycleDefinition, type TaskEndedPayload } from './stream-lifecycle';

type Json = Parameters<StateMachine['run']>[0];
const definition = streamLifecycleDefinition({
  clusterArn: 'arn:aws:ecs:us-east-1:123456789012:cluster/c',
  taskDefinitionFamily: 'loopcast-test-stream-task',
  subnets: ['subnet-1'],
  securityGroups: ['sg-1'],
  capacityProvider: 'FARGATE',
  lifecycleFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:lifecycle',
});
const machine = new StateMachine(definition as unknown as StateMachineDefinition);
const input = { userId: 'u1', streamId: 's1', runId: 'r1', taskError: null };

function runWith(decisions: Record<string, unknown>[], taskFails: boolean[]) {
  const payloads: TaskEndedPayload[] = [];
  const taskInputs: unknown[] = [];
  const handovers: unknown[] = [];
  const execution = machine.run(input as unknown as Json, {
    context: { StateMachine: { Id: 'arn:aws:states:us-east-1:123456789012:stateMachine:m' } } as never,
    overrides: {
      waitTimeOverrides: { [STATES.backoff]: 0 },
      taskResourceLocalHandlers: {
        [STATES.runTask]: async (parameters) => {
          taskInputs.push(parameters);
          if (taskFails[taskInputs.length - 1]) {
            const error = new Error('{"StoppedReason":"Essential container in task exited","Containers":[{"ExitCode":137}]}');
            error.name = 'States.TaskFailed';
            throw error;
          }
          return {} as Json;
        },
        [STATES.taskEnded]: async (parameters) => {
          payloads.push((parameters as unknown as { Payload: TaskEndedPayload }).Payload);
          return { Payload: decisions[payloads.length - 1] } as unknown as Json;
        },
        [STATES.handOver]: async (parameters) => {
          handovers.push(parameters);
          return {} as Json;
        },
      },
    },
  });
  return { result: execution.result, payloads, taskInputs, handovers };
}

describe('stream lifecycle definition', () => {
  test('a failed task goes to TaskEnded with its error; restart runs a new task without the old error; stop ends', async () => {
    const run = runWith([{ action: 'restart', delaySeconds: 3 }, { action: 'stop' }], [true, false]);
    await run.result;
    expect(run.taskInputs).toHaveLength(2);
    const overrides = (run.taskInputs[0] as { Overrides: { ContainerOverrides: { Environment: { Name: string; Value: string }[] }[] } }).Overrides;
    expect(overrides.ContainerOverrides[0]!.Environment).toEqual([
      { Name: 'LOOPCAST_USER_ID', Value: 'u1' },
      { Name: 'LOOPCAST_STREAM_ID', Value: 's1' },
      { Name: 'LOOPCAST_RUN_ID', Value: 'r1' },
    ]);
    expect(run.payloads[0]).toMatchObject({ action: 'taskEnded', userId: 'u1', streamId: 's1', runId: 'r1', taskError: { Error: 'States.TaskFailed' } });
    expect(run.payloads[0]!.taskError!.Cause).toContain('ExitCode');
    expect(run.payloads[1]!.taskError).toBeNull();
    expect(run.handovers).toEqual([]);
  });

  test('handover starts a fresh execution named by the decision, with a fresh input, and ends this one', async () => {
    const run = runWith([{ action: 'handover', executionName: 'r1-1' }], [true]);
    await run.result;
    expect(run.handovers).toEqual([{ StateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:m', Name: 'r1-1', Input: input }]);
  });
});
