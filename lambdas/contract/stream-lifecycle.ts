// The stream lifecycle state machine (Amazon States Language, JSONPath), defined once: CDK deploys it to Step
// Functions with the real cluster, task definition and function ARNs (lib/streaming-stack.ts); the local stack
// runs the same definition with aws-local-stepfunctions, mapping its Task states to local handlers
// (local/stream-runner.ts). docs/streams.md draws it.
//
//   PrepareTask (lifecycle function: is this execution still the run's? end every earlier task of the stream,
//        |        revoke its lease, mint the next task's token, size a Fargate task's disk)
//   TaskOverrides (the container's environment: the run, its token, the task API)
//   RunStreamTask (ECS RunTask .sync on the stage's data plane, Fargate or ECS Anywhere: waits while the loop runs)
//        |  the task ended (crash, kill, host gone, lease lost), failed to start, or timed out
//   TaskEnded (lifecycle function: was the stop wanted? a real restart or a renewal? choose a delay)
//        |-- restart --> Backoff (Wait) --> NextRound --> PrepareTask
//        |-- handover -> HandOver (a fresh execution continues the run)
//        '-- stop -----> Done
// A stop request ends the execution (StopExecution) and the stream's tasks (lambdas/core/streams/streams.ts).
//
// Every Task state has an explicit TimeoutSeconds: the States Language default is 60 s, which aws-local-stepfunctions
// applies (AWS treats a missing value as 99,999,999 s), and a stream task runs for months.

/** The execution's input: which run of which stream, and how many task rounds this execution has run.
 * `taskError` is always present (null until a task fails), because a JSONPath to a missing field fails the execution. */
export interface LifecycleInput {
  userId: string;
  streamId: string;
  runId: string;
  round: number;
  taskError: null;
}

type RunIdentity = Pick<LifecycleInput, 'userId' | 'streamId' | 'runId'> & { executionName: string };

/** PrepareTask: before every task of the run. */
export interface PrepareTaskPayload extends RunIdentity {
  action: 'prepareTask';
}

/** TaskEnded: the execution state, with the task's failure if any. */
export interface TaskEndedPayload extends RunIdentity {
  action: 'taskEnded';
  /** When this execution started (ISO 8601): executions hand over long before Step Functions' one-year limit. */
  executionStartedAt: string;
  round: number;
  taskError: { Error?: string; Cause?: string } | null;
}

export type LifecyclePayload = PrepareTaskPayload | TaskEndedPayload;

/** What a Fargate task of this stream needs beyond its task definition, merged into RunTask's task overrides: a
 * larger disk when the stream's media does not fit in the free 20 GiB (lambdas/contract/data-planes.ts), else
 * nothing. ECS's own field names: the state machine passes it on as it is. The external data plane ignores it
 * (ECS Anywhere hosts have their own disks, and ECS accepts no ephemeral storage override there). */
export interface FargateTaskOverrides {
  EphemeralStorage?: { SizeInGiB: number };
}

/** What PrepareTask decided: run a task (with its run token, where it reports, and its Fargate overrides), or stop:
 * the run is over or carried by another execution. */
export type PrepareDecision = { action: 'run'; token: string; apiUrl: string; fargateOverrides: FargateTaskOverrides } | { action: 'stop' };

export type LifecycleDecision = { action: 'restart'; delaySeconds: number } | { action: 'handover'; executionName: string } | { action: 'stop' };

export const STATES = {
  prepareTask: 'PrepareTask',
  prepared: 'Prepared',
  taskOverrides: 'TaskOverrides',
  runTask: 'RunStreamTask',
  taskEnded: 'TaskEnded',
  decide: 'Decide',
  backoff: 'Backoff',
  nextRound: 'NextRound',
  handOver: 'HandOver',
  done: 'Done',
} as const;

export const STREAM_TASK_CONTAINER = 'stream-task';

const DAY = 24 * 60 * 60;

/** The timers of the lifecycle, each explicit (docs/streams.md, "Timers"). */
export const LIFECYCLE_TIMEOUTS = {
  /** A task round: a healthy loop runs this long before the execution renews itself (a task restart, not counted
   * as one). AWS's maximum for a Task state is 99,999,999 s. */
  taskSeconds: 180 * DAY,
  /** PrepareTask may wait for an earlier task to stop (ECS stopTimeout 15 s) and for DynamoDB. */
  prepareSeconds: 120,
  /** TaskEnded reads and writes one stream. */
  decideSeconds: 60,
  handOverSeconds: 60,
  /** The whole execution: Step Functions ends a Standard execution after one year. A backstop only: executions
   * hand over after HANDOVER_AFTER_SECONDS, and a round lasts at most taskSeconds, so none comes near it. */
  executionSeconds: 364 * DAY,
} as const;

/** aws-local-stepfunctions times states with setTimeout, which Node caps at 2^31 - 1 ms (24.8 days): a longer
 * timeout fires at once. The timeouts for the local engine: the same, but none above 24.8 days (the 180-day round
 * and the 364-day execution become 24.8 days locally; AWS gets the real values). */
export function timeoutsForNodeTimers(timeouts: typeof LIFECYCLE_TIMEOUTS = LIFECYCLE_TIMEOUTS): typeof LIFECYCLE_TIMEOUTS {
  const maxSeconds = Math.floor((2 ** 31 - 1) / 1000);
  return Object.fromEntries(Object.entries(timeouts).map(([name, seconds]) => [name, Math.min(seconds, maxSeconds)])) as typeof LIFECYCLE_TIMEOUTS;
}

/** An execution older than this hands over at its next TaskEnded (at most taskSeconds later: 360 days < 364). */
export const HANDOVER_AFTER_SECONDS = 180 * DAY;

/** Step Functions keeps 25,000 history events per execution; a round (PrepareTask, RunStreamTask, TaskEnded, Backoff)
 * costs about 25, so an execution hands over after this many rounds. */
export const ROUNDS_PER_EXECUTION = 250;

/** The stream task's exit code when it does not (or no longer) hold its run's lease: the run ended or another task
 * carries it. Not a failure of the stream: never counted as a restart (stream-task/src/task.ts). */
export const LEASE_LOST_EXIT_CODE = 3;

/** Where RunStreamTask runs the stream task: the stage's data plane (lambdas/contract/data-planes.ts). */
export type TaskLaunch =
  | {
      dataPlane: 'fargate';
      capacityProvider: 'FARGATE' | 'FARGATE_SPOT';
      subnets: string[];
      securityGroups: string[];
      /** A public IPv4 address per task (ENABLED), or none: IPv6-only subnets (`-c taskNetwork=ipv6-only`). */
      publicIpv4: boolean;
    }
  /** ECS Anywhere hosts: LaunchType EXTERNAL, bridge networking on the host (no awsvpc configuration, no capacity
   * provider), tasks spread over the hosts. */
  | { dataPlane: 'external' };

export interface LifecycleResources {
  clusterArn: string;
  /** The task definition's family, not a revision's ARN: ECS runs the latest active revision, so a restart after a
   * deploy uses the new image instead of a revision CloudFormation has deregistered. */
  taskDefinitionFamily: string;
  launch: TaskLaunch;
  lifecycleFunctionArn: string;
  /** Defaults to LIFECYCLE_TIMEOUTS; the local engine and tests shorten them (local/stream-runner.ts). */
  timeouts?: typeof LIFECYCLE_TIMEOUTS;
}

const runIdentity = { 'userId.$': '$.userId', 'streamId.$': '$.streamId', 'runId.$': '$.runId', 'executionName.$': '$$.Execution.Name' };
const lambdaRetry = [
  {
    ErrorEquals: ['Lambda.ServiceException', 'Lambda.TooManyRequestsException', 'Lambda.SdkClientException', 'States.TaskFailed'],
    IntervalSeconds: 2,
    MaxAttempts: 6,
    BackoffRate: 2,
  },
];

/** The container's environment: the run's ids, the task's run token and the API it reports to. */
export const TASK_ENVIRONMENT = {
  userId: 'LOOPCAST_USER_ID',
  streamId: 'LOOPCAST_STREAM_ID',
  runId: 'LOOPCAST_RUN_ID',
  token: 'LOOPCAST_TASK_TOKEN',
  apiUrl: 'LOOPCAST_API_URL',
} as const;

/** RunTask's parameters for the data plane. Fargate: a capacity provider (FARGATE or FARGATE_SPOT), awsvpc networking,
 * and the overrides PrepareTask decided merged in (a larger disk). External: LaunchType EXTERNAL (ECS Anywhere takes
 * no capacity provider and no awsvpc configuration here), spread over the hosts so a host that dies takes as few
 * streams as possible, and the container's environment only. */
function launchParameters(launch: TaskLaunch): Record<string, unknown> {
  if (launch.dataPlane === 'external') {
    return { LaunchType: 'EXTERNAL', PlacementStrategy: [{ Type: 'spread', Field: 'instanceId' }], 'Overrides.$': '$.task.overrides' };
  }
  return {
    CapacityProviderStrategy: [{ CapacityProvider: launch.capacityProvider, Weight: 1 }],
    NetworkConfiguration: {
      AwsvpcConfiguration: { Subnets: launch.subnets, SecurityGroups: launch.securityGroups, AssignPublicIp: launch.publicIpv4 ? 'ENABLED' : 'DISABLED' },
    },
    'Overrides.$': 'States.JsonMerge($.task.overrides, $.prepared.decision.fargateOverrides, false)',
  };
}

export function streamLifecycleDefinition(resources: LifecycleResources) {
  const timeouts = resources.timeouts ?? LIFECYCLE_TIMEOUTS;
  const invoke = (payload: Record<string, unknown>) => ({
    Type: 'Task',
    Resource: 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: resources.lifecycleFunctionArn, Payload: payload },
    ResultSelector: { 'decision.$': '$.Payload' },
    Retry: lambdaRetry,
  });
  return {
    Comment: 'Loopcast: keeps one run of a stream looping until it is stopped',
    TimeoutSeconds: timeouts.executionSeconds,
    StartAt: STATES.prepareTask,
    States: {
      [STATES.prepareTask]: {
        ...invoke({ action: 'prepareTask', ...runIdentity }),
        TimeoutSeconds: timeouts.prepareSeconds,
        ResultPath: '$.prepared',
        Next: STATES.prepared,
      },
      [STATES.prepared]: {
        Type: 'Choice',
        Choices: [{ Variable: '$.prepared.decision.action', StringEquals: 'run', Next: STATES.taskOverrides }],
        Default: STATES.done,
      },
      // The container's environment, as an object RunStreamTask can merge the plane's overrides into.
      [STATES.taskOverrides]: {
        Type: 'Pass',
        Parameters: {
          overrides: {
            ContainerOverrides: [
              {
                Name: STREAM_TASK_CONTAINER,
                Environment: [
                  { Name: TASK_ENVIRONMENT.userId, 'Value.$': '$.userId' },
                  { Name: TASK_ENVIRONMENT.streamId, 'Value.$': '$.streamId' },
                  { Name: TASK_ENVIRONMENT.runId, 'Value.$': '$.runId' },
                  { Name: TASK_ENVIRONMENT.token, 'Value.$': '$.prepared.decision.token' },
                  { Name: TASK_ENVIRONMENT.apiUrl, 'Value.$': '$.prepared.decision.apiUrl' },
                ],
              },
            ],
          },
        },
        ResultPath: '$.task',
        Next: STATES.runTask,
      },
      [STATES.runTask]: {
        Type: 'Task',
        Resource: 'arn:aws:states:::ecs:runTask.sync',
        TimeoutSeconds: timeouts.taskSeconds,
        Parameters: {
          Cluster: resources.clusterArn,
          TaskDefinition: resources.taskDefinitionFamily,
          PropagateTags: 'TASK_DEFINITION',
          // Shown in the console and the reconciler's view of the cluster: which stream a task belongs to.
          'Group.$': "States.Format('stream:{}', $.streamId)",
          ...launchParameters(resources.launch),
        },
        ResultPath: null,
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.taskError', Next: STATES.taskEnded }],
        Next: STATES.taskEnded,
      },
      [STATES.taskEnded]: {
        ...invoke({
          action: 'taskEnded',
          ...runIdentity,
          'executionStartedAt.$': '$$.Execution.StartTime',
          'round.$': '$.round',
          'taskError.$': '$.taskError',
        }),
        TimeoutSeconds: timeouts.decideSeconds,
        ResultPath: '$.lifecycle',
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
        Next: STATES.nextRound,
      },
      // Drops the previous round's data (its error, its token), so a round that ends without error carries no old one.
      [STATES.nextRound]: {
        Type: 'Pass',
        Parameters: { 'userId.$': '$.userId', 'streamId.$': '$.streamId', 'runId.$': '$.runId', 'round.$': 'States.MathAdd($.round, 1)', taskError: null },
        Next: STATES.prepareTask,
      },
      [STATES.handOver]: {
        Type: 'Task',
        Resource: 'arn:aws:states:::states:startExecution',
        TimeoutSeconds: timeouts.handOverSeconds,
        Parameters: {
          'StateMachineArn.$': '$$.StateMachine.Id',
          'Name.$': '$.lifecycle.decision.executionName',
          Input: { 'userId.$': '$.userId', 'streamId.$': '$.streamId', 'runId.$': '$.runId', round: 0, taskError: null },
        },
        End: true,
      },
      [STATES.done]: { Type: 'Succeed' },
    },
  };
}
