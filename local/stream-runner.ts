// The local stand-in for Step Functions + Fargate: the same state machine definition run by aws-local-stepfunctions,
// its Task states mapped to local handlers: RunStreamTask starts stream-task as a child process (as ECS would the
// container) and waits for it; TaskEnded calls the same lifecycle handler as the Lambda; HandOver starts a fresh
// local execution. Stopping a run aborts its execution and stops its child, as StopExecution does in AWS.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { logger } from '../lambdas/adapters/logger';
import { streamLifecycleDefinition, STATES, type LifecycleInput, type TaskEndedPayload } from '../lambdas/contract/stream-lifecycle';
import type { StreamRun, StreamRunner } from '../lambdas/core/streams/ports';
import type { LifecycleHandler } from '../lambdas/workflow/lifecycle';
import { repoRoot } from './paths';

/** The library's JSON value type (not exported by name). */
type Json = Parameters<StateMachine['run']>[0];
const asJson = (value: unknown) => value as Json;

const LOCAL_MACHINE_ARN = 'arn:aws:states:local:000000000000:stateMachine:loopcast-local-stream-lifecycle';

const definition = streamLifecycleDefinition({
  clusterArn: 'arn:aws:ecs:local:000000000000:cluster/loopcast-local',
  taskDefinitionFamily: 'loopcast-local-stream-task',
  subnets: ['subnet-local'],
  securityGroups: ['sg-local'],
  capacityProvider: 'FARGATE',
  lifecycleFunctionArn: 'arn:aws:lambda:local:000000000000:function:loopcast-local-lifecycle',
});

export interface LocalStreamRunnerOptions {
  lifecycle: LifecycleHandler;
  /** What EventBridge's execution-status rule does in AWS when an execution fails. */
  onExecutionFailed: (run: StreamRun) => Promise<unknown>;
  /** The environment the task container gets in AWS, pointed at the local stand-ins. */
  taskEnvironment: () => NodeJS.ProcessEnv;
  logDir: string;
  /** Grace between SIGTERM and SIGKILL when stopping a task (ECS's stopTimeout). */
  stopTimeoutMs?: number;
}

interface Execution {
  /** Set by stop: from then on the execution starts no task (a Backoff may end right after the stop). */
  stopped: boolean;
  abort(): void;
  child?: ChildProcess;
}

/** StopExecution: no further task, and the running one is stopped by the caller. */
function halt(entry: Execution): void {
  entry.stopped = true;
  entry.abort();
}

export class LocalStreamRunner implements StreamRunner {
  private readonly machine = new StateMachine(definition as unknown as StateMachineDefinition, { validationOptions: { checkPaths: true, checkArn: true } });
  private readonly executions = new Map<string, Execution>();

  constructor(private readonly options: LocalStreamRunnerOptions) {}

  /** Stream-task children alive now, by execution name (the fault tests kill them). */
  get tasks(): Map<string, ChildProcess> {
    return new Map([...this.executions].flatMap(([name, execution]) => (execution.child ? [[name, execution.child] as const] : [])));
  }

  async launch(run: StreamRun): Promise<void> {
    if (this.executions.has(run.executionName)) return; // as Step Functions: one execution per name
    const entry: Execution = { stopped: false, abort: () => undefined };
    this.executions.set(run.executionName, entry);
    const input: LifecycleInput = { userId: run.userId, streamId: run.streamId, runId: run.runId, taskError: null };
    const execution = this.machine.run(asJson(input), {
      noThrowOnAbort: true,
      context: {
        Execution: { Id: `${LOCAL_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${run.executionName}`, Name: run.executionName, Input: asJson(input), StartTime: new Date().toISOString() },
        StateMachine: { Id: LOCAL_MACHINE_ARN, Name: 'loopcast-local-stream-lifecycle' },
      },
      overrides: {
        taskResourceLocalHandlers: {
          [STATES.runTask]: async () => asJson(await this.runTask(run, entry)),
          [STATES.taskEnded]: async (parameters) => {
            const { Payload } = parameters as unknown as { Payload: TaskEndedPayload };
            return asJson({ Payload: await this.options.lifecycle(Payload) });
          },
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

  async stop(run: StreamRun): Promise<void> {
    const entry = this.executions.get(run.executionName);
    if (!entry) return;
    this.executions.delete(run.executionName);
    halt(entry);
    if (entry.child) await this.stopChild(entry.child);
  }

  async stopAll(): Promise<void> {
    const entries = [...this.executions.values()];
    this.executions.clear();
    for (const entry of entries) halt(entry);
    await Promise.all(entries.map((entry) => (entry.child ? this.stopChild(entry.child) : undefined)));
  }

  /** ECS RunTask .sync: resolves when the task stopped cleanly, fails (States.TaskFailed) when it exited badly. */
  private runTask(run: StreamRun, entry: Execution): Promise<Record<string, never>> {
    if (entry.stopped) return Promise.resolve({});
    mkdirSync(this.options.logDir, { recursive: true });
    const log = createWriteStream(join(this.options.logDir, `stream-${run.streamId}.log`), { flags: 'a' });
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'stream-task', 'src', 'main.ts')], {
      cwd: repoRoot,
      env: {
        ...this.options.taskEnvironment(),
        // The task's own log file keeps what CloudWatch would (the local stack's console is quieter).
        POWERTOOLS_LOG_LEVEL: 'INFO',
        LOOPCAST_USER_ID: run.userId,
        LOOPCAST_STREAM_ID: run.streamId,
        LOOPCAST_RUN_ID: run.runId,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    return new Promise((resolve, reject) => {
      child.once('exit', (code, signal) => {
        if (entry.child === child) delete entry.child;
        log.end();
        if (code === 0) return resolve({});
        const error = new Error(JSON.stringify({ StoppedReason: 'Essential container in task exited', Containers: [{ ExitCode: code ?? undefined, Reason: signal ? `killed by ${signal}` : undefined }] }));
        error.name = 'States.TaskFailed';
        reject(error);
      });
    });
  }

  private async stopChild(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs ?? 10_000);
    await exited;
    clearTimeout(timer);
  }
}
