// The stream runner in AWS: lifecycle executions on Step Functions, stream tasks on ECS (lambdas/core/streams/ports.ts).
import { DescribeContainerInstancesCommand, DescribeTasksCommand, ListTasksCommand, StopTaskCommand, type ECSClient, type Task } from '@aws-sdk/client-ecs';
import {
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  ListExecutionsCommand,
  StartExecutionCommand,
  StopExecutionCommand,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { STREAM_TASK_CONTAINER, TASK_ENVIRONMENT, type LifecycleInput } from '../../contract/stream-lifecycle';
import type { StreamRun, StreamRunner, StreamTask } from '../../core/streams/ports';
import { logger } from '../logger';

export interface AwsStreamRunnerOptions {
  sfn: SFNClient;
  ecs: ECSClient;
  stateMachineArn: string;
  /** The streams cluster (name or ARN) and the stream task's family: which tasks are stream tasks. */
  cluster: string;
  taskFamily: string;
  /** How long to wait for stopped tasks to be gone (ECS's stopTimeout is 15 s, so 30 s covers a clean stop). */
  stopWaitMs?: number;
  pollMs?: number;
}

const DESCRIBE_BATCH = 100;

/** The run a task was started for, from the environment the lifecycle gave its container. */
function streamTaskOf(task: Task): StreamTask | undefined {
  const environment = task.overrides?.containerOverrides?.find((c) => c.name === STREAM_TASK_CONTAINER)?.environment ?? [];
  const value = (name: string) => environment.find((entry) => entry.name === name)?.value;
  const [userId, streamId, runId] = [value(TASK_ENVIRONMENT.userId), value(TASK_ENVIRONMENT.streamId), value(TASK_ENVIRONMENT.runId)];
  if (!task.taskArn || !userId || !streamId || !runId) return undefined;
  return { taskId: task.taskArn, userId, streamId, runId, startedAt: (task.startedAt ?? task.createdAt ?? new Date()).toISOString() };
}

export class AwsStreamRunner implements StreamRunner {
  constructor(private readonly options: AwsStreamRunnerOptions) {}

  /** Execution names are the run's, so starting one twice is harmless. */
  async launch(run: StreamRun): Promise<void> {
    const input: LifecycleInput = { userId: run.userId, streamId: run.streamId, runId: run.runId, round: 0, taskError: null };
    try {
      await this.options.sfn.send(
        new StartExecutionCommand({ stateMachineArn: this.options.stateMachineArn, name: run.executionName, input: JSON.stringify(input) }),
      );
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  }

  /** Stopping an execution that waits on ecs:runTask.sync also asks ECS to stop its task; endStreamTasks makes sure. */
  async stopExecution(run: StreamRun): Promise<void> {
    const executionArn = `${this.options.stateMachineArn.replace(':stateMachine:', ':execution:')}:${run.executionName}`;
    try {
      await this.options.sfn.send(new StopExecutionCommand({ executionArn, cause: 'the run was stopped or moved to a fresh execution' }));
    } catch (error) {
      if (!(error instanceof ExecutionDoesNotExist)) throw error;
    }
  }

  /** The lease names the task that may be publishing; a task the lease does not name is left to the reconciler,
   * whose sweep of the cluster finds it within a minute (listing the whole cluster for every start would not scale). */
  async endStreamTasks(_streamId: string, taskIds: readonly string[]): Promise<void> {
    await this.endTasks(taskIds);
  }

  async runningExecutions(): Promise<Set<string>> {
    const names = new Set<string>();
    let nextToken: string | undefined;
    do {
      const page = await this.options.sfn.send(
        new ListExecutionsCommand({ stateMachineArn: this.options.stateMachineArn, statusFilter: 'RUNNING', maxResults: 1000, nextToken }),
      );
      for (const execution of page.executions ?? []) if (execution.name) names.add(execution.name);
      nextToken = page.nextToken;
    } while (nextToken);
    return names;
  }

  async tasks(): Promise<StreamTask[]> {
    const arns: string[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.options.ecs.send(
        new ListTasksCommand({ cluster: this.options.cluster, family: this.options.taskFamily, desiredStatus: 'RUNNING', nextToken }),
      );
      arns.push(...(page.taskArns ?? []));
      nextToken = page.nextToken;
    } while (nextToken);
    return (await this.describe(arns)).flatMap((task) => streamTaskOf(task) ?? []);
  }

  async endTasks(taskIds: readonly string[]): Promise<void> {
    if (!taskIds.length) return;
    await Promise.all(
      taskIds.map((task) =>
        this.options.ecs.send(new StopTaskCommand({ cluster: this.options.cluster, task, reason: 'Loopcast: this task no longer carries its stream' })),
      ),
    );
    const deadline = Date.now() + (this.options.stopWaitMs ?? 30_000);
    let left = [...taskIds];
    let unreachable: string[] = [];
    while (left.length) {
      const running = (await this.describe(left)).filter((task) => task.lastStatus !== 'STOPPED');
      // An ECS Anywhere host whose agent lost its connection: ECS cannot stop its tasks until it is back (nor tell
      // Step Functions that they stopped). Waiting would only hold the stream up (and the reconciler, which restarts
      // every stream of a dead host one after the other): the lease is revoked already, so such a task stops
      // publishing as soon as it can talk to us again, and its agent stops it when it reconnects.
      const disconnected = await this.onDisconnectedHosts(running);
      unreachable = [...new Set([...unreachable, ...disconnected])];
      left = running.flatMap((task) => (task.taskArn && !disconnected.includes(task.taskArn) ? [task.taskArn] : []));
      if (!left.length || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 1000));
    }
    if (unreachable.length) logger.warn('stream tasks on hosts whose ECS agent is disconnected: not waited for', { tasks: unreachable });
    // A task ECS still reports running after the wait: its lease is revoked already, so it stops publishing at its
    // next renewal. Waiting longer would only hold the stream up.
    if (left.length) logger.warn('stream tasks still running after StopTask', { tasks: left });
  }

  /** The tasks (of those given) on ECS Anywhere hosts whose agent is disconnected. Fargate tasks have no container
   * instance and are never among them. */
  private async onDisconnectedHosts(tasks: readonly Task[]): Promise<string[]> {
    const instances = [...new Set(tasks.flatMap((task) => task.containerInstanceArn ?? []))];
    const disconnected = new Set<string>();
    for (let i = 0; i < instances.length; i += DESCRIBE_BATCH) {
      const page = await this.options.ecs.send(
        new DescribeContainerInstancesCommand({ cluster: this.options.cluster, containerInstances: instances.slice(i, i + DESCRIBE_BATCH) }),
      );
      for (const instance of page.containerInstances ?? [])
        if (instance.agentConnected === false && instance.containerInstanceArn) disconnected.add(instance.containerInstanceArn);
    }
    return tasks.flatMap((task) => (task.taskArn && task.containerInstanceArn && disconnected.has(task.containerInstanceArn) ? [task.taskArn] : []));
  }

  private async describe(arns: readonly string[]): Promise<Task[]> {
    const tasks: Task[] = [];
    for (let i = 0; i < arns.length; i += DESCRIBE_BATCH) {
      const page = await this.options.ecs.send(new DescribeTasksCommand({ cluster: this.options.cluster, tasks: arns.slice(i, i + DESCRIBE_BATCH) }));
      tasks.push(...(page.tasks ?? []));
    }
    return tasks;
  }
}
