// The stream lifecycle state machine (Amazon States Language, JSONPath), defined once: CDK deploys it to Step
// Functions with the real cluster, task definition and function ARNs (lib/streaming-stack.ts); the local stack
// runs the same definition with aws-local-stepfunctions, mapping its Task states to local handlers
// (local/stream-runner.ts). docs/streams.md draws it.
//
//   RunStreamTask (ECS RunTask .sync: waits while the loop runs)
//        |  the task ended (crash, kill, host gone) or failed to start
//   TaskEnded (lifecycle function: was the stop wanted? count the restart, choose a delay)
//        |-- restart --> Backoff (Wait) --> RunStreamTask
//        |-- handover -> HandOver (a fresh execution continues the run: Step Functions keeps 25,000 events)
//        '-- stop -----> Done
// A stop request ends the execution (StopExecution), which stops the task it waits on.

/** The execution's input: which run of which stream. `taskError` is always present (null until a task fails),
 * because a JSONPath to a missing field fails the execution. */
export interface LifecycleInput {
  userId: string;
  streamId: string;
  runId: string;
  taskError: null;
}

/** What the lifecycle function receives for TaskEnded: the execution state, with the task's failure if any. */
export interface TaskEndedPayload extends Omit<LifecycleInput, 'taskError'> {
  action: 'taskEnded';
  taskError: { Error?: string; Cause?: string } | null;
}

export const STATES = {
  runTask: 'RunStreamTask',
  taskEnded: 'TaskEnded',
  decide: 'Decide',
  backoff: 'Backoff',
  handOver: 'HandOver',
  done: 'Done',
} as const;

export const STREAM_TASK_CONTAINER = 'stream-task';

export interface LifecycleResources {
  clusterArn: string;
  /** The task definition's family, not a revision's ARN: ECS runs the latest active revision, so a restart after a
   * deploy uses the new image instead of a revision CloudFormation has deregistered. */
  taskDefinitionFamily: string;
  subnets: string[];
  securityGroups: string[];
  /** FARGATE or FARGATE_SPOT. */
  capacityProvider: string;
  lifecycleFunctionArn: string;
}

const runIdentity = { 'userId.$': '$.userId', 'streamId.$': '$.streamId', 'runId.$': '$.runId' };
const freshRound = { ...runIdentity, taskError: null };

export function streamLifecycleDefinition(resources: LifecycleResources) {
  return {
    Comment: 'Loopcast: keeps one run of a stream looping until it is stopped',
    StartAt: STATES.runTask,
    States: {
      [STATES.runTask]: {
        Type: 'Task',
        Resource: 'arn:aws:states:::ecs:runTask.sync',
        Parameters: {
          Cluster: resources.clusterArn,
          TaskDefinition: resources.taskDefinitionFamily,
          CapacityProviderStrategy: [{ CapacityProvider: resources.capacityProvider, Weight: 1 }],
          PropagateTags: 'TASK_DEFINITION',
          NetworkConfiguration: {
            AwsvpcConfiguration: { Subnets: resources.subnets, SecurityGroups: resources.securityGroups, AssignPublicIp: 'ENABLED' },
          },
          Overrides: {
            ContainerOverrides: [{
              Name: STREAM_TASK_CONTAINER,
              Environment: [
                { Name: 'LOOPCAST_USER_ID', 'Value.$': '$.userId' },
                { Name: 'LOOPCAST_STREAM_ID', 'Value.$': '$.streamId' },
                { Name: 'LOOPCAST_RUN_ID', 'Value.$': '$.runId' },
              ],
            }],
          },
        },
        ResultPath: null,
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.taskError', Next: STATES.taskEnded }],
        Next: STATES.taskEnded,
      },
      [STATES.taskEnded]: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke',
        Parameters: { FunctionName: resources.lifecycleFunctionArn, Payload: { action: 'taskEnded', ...runIdentity, 'taskError.$': '$.taskError' } },
        ResultSelector: { 'decision.$': '$.Payload' },
        ResultPath: '$.lifecycle',
        Retry: [{ ErrorEquals: ['Lambda.ServiceException', 'Lambda.TooManyRequestsException', 'Lambda.SdkClientException', 'States.TaskFailed'], IntervalSeconds: 2, MaxAttempts: 6, BackoffRate: 2 }],
        Next: STATES.decide,
      },
      [STATES.decide]: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.lifecycle.decision.action', StringEquals: 'restart', Next: STATES.backoff },
          { Variable: '$.lifecycle.decision.action', StringEquals: 'handover', Next: STATES.handOver },
        ],
        Default: STATES.done,
      },
      [STATES.backoff]: {
        Type: 'Wait',
        SecondsPath: '$.lifecycle.decision.delaySeconds',
        Next: 'ForgetLastTask',
      },
      // Drops the previous round's data, so a round that ends without error does not carry an old one.
      ForgetLastTask: {
        Type: 'Pass',
        Parameters: freshRound,
        Next: STATES.runTask,
      },
      [STATES.handOver]: {
        Type: 'Task',
        Resource: 'arn:aws:states:::states:startExecution',
        Parameters: {
          'StateMachineArn.$': '$$.StateMachine.Id',
          'Name.$': '$.lifecycle.decision.executionName',
          Input: freshRound,
        },
        End: true,
      },
      [STATES.done]: { Type: 'Succeed' },
    },
  };
}
