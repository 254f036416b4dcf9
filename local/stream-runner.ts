// The local stand-in for Step Functions + ECS: the same state machine definition run by aws-local-stepfunctions, its
// Task states mapped to local handlers: PrepareTask and TaskEnded call the same lifecycle handler as the Lambda;
// RunStreamTask starts stream-task as a child process with the container environment the definition gives (as ECS
// would) and waits for it; HandOver starts a fresh local execution. Every child is tracked by task id, across
// executions, until it is gone: the runner ends a stream's tasks on request (PrepareTask, a stop, the reconciler),
// and none outlives the stack (Ctrl-C, or the stack's process killed: each child dies with its parent).
// The definition is the stage's data plane's (lambdas/contract/data-planes.ts): Fargate, or ECS Anywhere (LaunchType
// EXTERNAL), where this machine stands in for a host. RunStreamTask's parameters are checked as ECS checks them for
// that plane, and a task can be cut off as a host that lost its connection is (`disconnect`).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { logger } from '../lambdas/adapters/logger';
import { DEFAULT_DATA_PLANE, type DataPlane } from '../lambdas/contract/data-planes';
import {
  LIFECYCLE_TIMEOUTS,
  STATES,
  type TaskLaunch,
  STREAM_TASK_CONTAINER,
  streamLifecycleDefinition,
  timeoutsForNodeTimers,
  type LifecycleInput,
  type LifecyclePayload,
} from '../lambdas/contract/stream-lifecycle';
import type { StreamRun, StreamRunner, StreamTask } from '../lambdas/core/streams/ports';
import { localStreamTaskBundle } from '../stream-task/bundle';
import { repoRoot } from './paths';

/** The library's JSON value type (not exported by name). */
type Json = Parameters<StateMachine['run']>[0];
const asJson = (value: unknown) => value as Json;

const LOCAL_MACHINE_ARN = 'arn:aws:states:local:000000000000:stateMachine:loopcast-local-stream-lifecycle';

export interface LocalStreamRunnerOptions {
  /** The lifecycle function (lambdas/workflow/lifecycle.ts), for PrepareTask and TaskEnded. */
  lifecycle: (payload: LifecyclePayload) => Promise<unknown>;
  /** What EventBridge's execution-status rule does in AWS when an execution fails or times out. */
  onExecutionFailed: (run: StreamRun) => Promise<unknown>;
  /** The environment the task container gets from its task definition, pointed at the local stand-ins. */
  taskEnvironment: () => NodeJS.ProcessEnv;
  logDir: string;
  /** Grace between SIGTERM and SIGKILL when stopping a task (ECS's stopTimeout). */
  stopTimeoutMs?: number;
  /** The lifecycle's timers; tests shorten them (clamped to what Node's timers can hold either way). */
  timeouts?: typeof LIFECYCLE_TIMEOUTS;
  /** Which data plane's definition runs (default fargate). */
  dataPlane?: DataPlane;
}

interface Execution {
  run: StreamRun;
  /** Set by stopExecution: from then on it starts no task (a state may finish right after the abort). */
  stopped: boolean;
  abort(): void;
}

interface LocalTask extends StreamTask {
  child: ChildProcess;
  executionName: string;
  gone: Promise<void>;
  /** Its host lost its connection (`disconnect`): ECS can neither stop it nor see it stop. */
  disconnected?: { stopRequested: boolean; exited?: { code: number | null; signal: NodeJS.Signals | null } };
  /** Completes its RunStreamTask: ECS's task state change, which Step Functions' .sync waits for. */
  settle(code: number | null, signal: NodeJS.Signals | null): void;
}

/** RunStreamTask's parameters, as the definition gives them to ECS RunTask. */
interface RunTaskParameters {
  LaunchType?: string;
  CapacityProviderStrategy?: unknown[];
  NetworkConfiguration?: { AwsvpcConfiguration?: { AssignPublicIp?: string } };
  PlacementStrategy?: unknown[];
  Overrides: {
    ContainerOverrides: { Name: string; Environment: { Name: string; Value: string }[] }[];
    EphemeralStorage?: { SizeInGiB: number };
  };
}

const launches: Record<DataPlane, TaskLaunch> = {
  fargate: { dataPlane: 'fargate', capacityProvider: 'FARGATE', subnets: ['subnet-local'], securityGroups: ['sg-local'], publicIpv4: true },
  external: { dataPlane: 'external' },
};

/** What ECS's RunTask refuses for the plane (InvalidParameterException), so the local stack fails as AWS would when
 * the definition sends one plane's parameters to the other: EXTERNAL takes no capacity provider, no awsvpc
 * configuration and no ephemeral storage; Fargate needs its capacity provider and awsvpc configuration, and a disk
 * override of 21 to 200 GiB. */
export function runTaskProblem(dataPlane: DataPlane, parameters: RunTaskParameters): string | undefined {
  const storage = parameters.Overrides.EphemeralStorage?.SizeInGiB;
  if (dataPlane === 'external') {
    if (parameters.LaunchType !== 'EXTERNAL') return `launch type ${parameters.LaunchType ?? '(none)'} on ECS Anywhere hosts`;
    if (parameters.CapacityProviderStrategy) return 'a capacity provider strategy and a launch type together';
    if (parameters.NetworkConfiguration) return 'an awsvpc network configuration for a bridge-mode task definition';
    if (storage !== undefined) return 'an ephemeral storage override outside Fargate';
    return undefined;
  }
  if (parameters.LaunchType) return `launch type ${parameters.LaunchType} beside Fargate's capacity providers`;
  if (!parameters.CapacityProviderStrategy?.length) return 'no capacity provider';
  if (!parameters.NetworkConfiguration?.AwsvpcConfiguration) return 'no awsvpc network configuration';
  if (storage !== undefined && !(Number.isInteger(storage) && storage >= 21 && storage <= 200)) return `ephemeral storage of ${storage} GiB`;
  return undefined;
}

export class LocalStreamRunner implements StreamRunner {
  private readonly machine: StateMachine;
  private readonly executions = new Map<string, Execution>();
  private readonly running = new Map<string, LocalTask>();

  readonly dataPlane: DataPlane;

  constructor(private readonly options: LocalStreamRunnerOptions) {
    this.dataPlane = options.dataPlane ?? DEFAULT_DATA_PLANE;
    const definition = streamLifecycleDefinition({
      clusterArn: 'arn:aws:ecs:local:000000000000:cluster/loopcast-local',
      taskDefinitionFamily: 'loopcast-local-stream-task',
      launch: launches[this.dataPlane],
      lifecycleFunctionArn: 'arn:aws:lambda:local:000000000000:function:loopcast-local-lifecycle',
      timeouts: timeoutsForNodeTimers(options.timeouts),
    });
    this.machine = new StateMachine(definition as unknown as StateMachineDefinition, { validationOptions: { checkPaths: true, checkArn: true } });
  }

  /** The stream-task processes alive now (tests signal them). */
  get children(): ChildProcess[] {
    return [...this.running.values()].map((task) => task.child);
  }

  async launch(run: StreamRun): Promise<void> {
    if (this.executions.has(run.executionName)) return; // as Step Functions: one execution per name
    const entry: Execution = { run, stopped: false, abort: () => undefined };
    this.executions.set(run.executionName, entry);
    const input: LifecycleInput = { userId: run.userId, streamId: run.streamId, runId: run.runId, round: 0, taskError: null };
    const invoke = async (parameters: unknown) => asJson({ Payload: await this.options.lifecycle((parameters as { Payload: LifecyclePayload }).Payload) });
    const execution = this.machine.run(asJson(input), {
      noThrowOnAbort: true,
      context: {
        Execution: {
          Id: `${LOCAL_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${run.executionName}`,
          Name: run.executionName,
          Input: asJson(input),
          StartTime: new Date().toISOString(),
        },
        StateMachine: { Id: LOCAL_MACHINE_ARN, Name: 'loopcast-local-stream-lifecycle' },
      },
      overrides: {
        taskResourceLocalHandlers: {
          [STATES.prepareTask]: invoke,
          [STATES.taskEnded]: invoke,
          [STATES.runTask]: async (parameters) => asJson(await this.runTask(entry, parameters as unknown as RunTaskParameters)),
          [STATES.handOver]: async (parameters) => {
            const { Name } = parameters as unknown as { Name: string };
            await this.launch({ ...run, executionName: Name });
            return asJson({ ExecutionArn: Name });
          },
        },
      },
    });
    entry.abort = execution.abort;
    execution.result
      .catch(async (error: unknown) => {
        logger.error('local stream lifecycle failed', { executionName: run.executionName, error: error as Error });
        await this.options.onExecutionFailed(run);
      })
      .finally(() => {
        if (this.executions.get(run.executionName) === entry) this.executions.delete(run.executionName);
      });
  }

  async stopExecution(run: StreamRun): Promise<void> {
    const entry = this.executions.get(run.executionName);
    if (!entry) return;
    this.executions.delete(run.executionName);
    entry.stopped = true;
    entry.abort();
  }

  async endStreamTasks(streamId: string, taskIds: readonly string[]): Promise<void> {
    await this.endTasks([...this.running.values()].filter((task) => task.streamId === streamId || taskIds.includes(task.taskId)).map((task) => task.taskId));
  }

  async runningExecutions(): Promise<Set<string>> {
    return new Set([...this.executions.values()].filter((entry) => !entry.stopped).map((entry) => entry.run.executionName));
  }

  /** As ECS lists tasks whose desired status is RUNNING: a disconnected host's task until a stop was requested. */
  async tasks(): Promise<StreamTask[]> {
    return [...this.running.values()]
      .filter((task) => !task.disconnected?.stopRequested)
      .map(({ taskId, userId, streamId, runId, startedAt }) => ({ taskId, userId, streamId, runId, startedAt }));
  }

  /** ECS StopTask: SIGTERM, SIGKILL after the stop timeout; resolves when the processes are gone. A task whose host
   * is disconnected only notes the request (ECS delivers it when the host is back) and is not waited for, as
   * AwsStreamRunner does not wait for it. */
  async endTasks(taskIds: readonly string[]): Promise<void> {
    await Promise.all(
      taskIds
        .map((id) => this.running.get(id))
        .map((task) => {
          if (!task) return undefined;
          if (task.disconnected) {
            task.disconnected.stopRequested = true;
            return undefined;
          }
          return this.stopChild(task);
        }),
    );
  }

  /**
   * The host of this task loses its connection to ECS (ECS Anywhere): ECS still lists the task as running, StopTask
   * no longer reaches it, and its RunStreamTask (.sync) hears nothing of it, whatever the process does (the tests
   * play the host itself with signals: frozen, killed). `reconnect` ends that: a stop requested meanwhile is
   * delivered, and an exit meanwhile reaches its execution.
   */
  disconnect(taskId: string): void {
    const task = this.running.get(taskId);
    if (!task) throw new Error(`no local task ${taskId}`);
    task.disconnected = { stopRequested: false };
  }

  async reconnect(taskId: string): Promise<void> {
    const task = this.running.get(taskId);
    if (!task?.disconnected) return;
    const { stopRequested, exited } = task.disconnected;
    delete task.disconnected;
    if (exited) return task.settle(exited.code, exited.signal);
    if (stopRequested) await this.stopChild(task);
  }

  /** Ctrl-C: no execution goes on, no task is left. */
  async stopAll(): Promise<void> {
    for (const entry of this.executions.values()) {
      entry.stopped = true;
      entry.abort();
    }
    this.executions.clear();
    await Promise.all([...this.running.values()].map((task) => this.stopChild(task)));
  }

  /** ECS RunTask .sync: resolves when the task stopped cleanly, fails (States.TaskFailed) when it exited badly, or
   * when ECS would have refused the parameters. */
  private async runTask(entry: Execution, parameters: RunTaskParameters): Promise<Record<string, never>> {
    if (entry.stopped) return {};
    const problem = runTaskProblem(this.dataPlane, parameters);
    if (problem) {
      const error = new Error(`InvalidParameterException: RunTask refused ${problem} (${this.dataPlane} data plane)`);
      error.name = 'ECS.InvalidParameterException';
      throw error;
    }
    // The file the container runs (stream-task/bundle.ts), rebuilt if a source changed since the last task.
    const bundle = await localStreamTaskBundle();
    if (entry.stopped) return {};
    const { run } = entry;
    const container = parameters.Overrides.ContainerOverrides.find((c) => c.Name === STREAM_TASK_CONTAINER);
    const taskId = `local-task-${randomUUID()}`;
    mkdirSync(this.options.logDir, { recursive: true });
    const log = createWriteStream(join(this.options.logDir, `stream-${run.streamId}.log`), { flags: 'a' });
    // Through setpriv: the kernel sends the task SIGTERM if the stack's process dies without stopping it (kill -9),
    // and the task's own ffmpeg goes with it (stream-task/src/runtime.ts), so nothing keeps publishing.
    const child = spawn('setpriv', ['--pdeathsig', 'SIGTERM', '--', process.execPath, bundle], {
      cwd: repoRoot,
      env: {
        ...this.options.taskEnvironment(),
        // The task's own log file keeps what CloudWatch would (the local stack's console is quieter).
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...Object.fromEntries((container?.Environment ?? []).map((variable) => [variable.Name, variable.Value])),
        // What the ECS task metadata endpoint gives a task in AWS: its own id, the name it holds the lease by.
        LOOPCAST_TASK_ID: taskId,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    return await new Promise((resolve, reject) => {
      const gone = new Promise<void>((done) => child.once('close', () => done()));
      const settle = (code: number | null, signal: NodeJS.Signals | null) => {
        this.running.delete(taskId);
        if (code === 0) return resolve({});
        const error = new Error(
          JSON.stringify({
            StoppedReason: 'Essential container in task exited',
            Containers: [{ ExitCode: code ?? undefined, Reason: signal ? `killed by ${signal}` : undefined }],
          }),
        );
        error.name = 'States.TaskFailed';
        reject(error);
      };
      this.running.set(taskId, {
        taskId,
        userId: run.userId,
        streamId: run.streamId,
        runId: run.runId,
        executionName: run.executionName,
        startedAt: new Date().toISOString(),
        child,
        gone,
        settle,
      });
      child.once('close', (code, signal) => {
        log.end();
        const task = this.running.get(taskId);
        // A disconnected host's task may exit, but ECS (and so the execution) hears of it only when the host is back.
        if (task?.disconnected) task.disconnected.exited = { code, signal };
        else settle(code, signal);
      });
    });
  }

  private async stopChild(task: LocalTask): Promise<void> {
    const { child } = task;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs ?? 15_000);
      await task.gone;
      clearTimeout(timer);
    }
    await task.gone;
  }
}
