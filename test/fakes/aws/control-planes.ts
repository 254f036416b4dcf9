// Fakes of the two AWS control planes the stream runner talks to, speaking their real wire format (the AWS JSON
// protocol: POST / with X-Amz-Target, JSON in and out, errors as `{ "__type": ... }`), so the real
// @aws-sdk/client-ecs and @aws-sdk/client-sfn talk to them unchanged:
// - ECS (AmazonEC2ContainerServiceV20141113, JSON 1.1): ListTasks, DescribeTasks, StopTask, DescribeContainerInstances,
//   and RunTask for tests to put tasks in the cluster as Step Functions would (LaunchType EXTERNAL places them on a
//   registered ECS Anywhere host, `registerHost`);
// - Step Functions (AWSStepFunctions, JSON 1.0): StartExecution, StopExecution, ListExecutions.
// Each list answers pages of `pageSize` so pagination is exercised. A stopped task becomes STOPPED after
// `stopDelayMs`, or never when its host is offline: a task marked `hostOffline`, or one on a host whose agent is
// disconnected (as ECS keeps a disconnected ECS Anywhere host's tasks until the agent is back).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { listen, readBody, sendJson, type Listening } from '../shared/http';

export interface FakeTask {
  taskArn: string;
  clusterArn: string;
  taskDefinitionArn: string;
  group?: string;
  lastStatus: 'PROVISIONING' | 'RUNNING' | 'STOPPED';
  desiredStatus: 'RUNNING' | 'STOPPED';
  createdAt: number;
  startedAt?: number;
  stoppedReason?: string;
  overrides: { containerOverrides: { name: string; environment: { name: string; value: string }[] }[] };
  /** Its host lost its connection: StopTask is accepted but the task never stops. */
  hostOffline?: boolean;
  /** ECS Anywhere: the host it runs on. */
  containerInstanceArn?: string;
}

/** An ECS Anywhere host registered into the cluster. */
export interface FakeHost {
  containerInstanceArn: string;
  /** The host's ECS agent is connected to ECS; while not, its tasks cannot be stopped. */
  agentConnected: boolean;
}

export interface FakeExecution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';
  startDate: number;
  input: string;
}

export interface FakeControlPlanes {
  ecsUrl: string;
  sfnUrl: string;
  tasks: Map<string, FakeTask>;
  executions: Map<string, FakeExecution>;
  hosts: Map<string, FakeHost>;
  /** Registers an ECS Anywhere host into the cluster; EXTERNAL tasks are placed on the hosts in turn. */
  registerHost(cluster: string): FakeHost;
  /** Every call: operation and request body. */
  calls: { service: 'ecs' | 'sfn'; operation: string; body: Body }[];
  stop(): Promise<void>;
}

/** A request body as the SDK sends it (the fakes read only the members they need). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

const epoch = (ms: number) => ms / 1000;
const error = (response: ServerResponse, type: string, message: string) =>
  sendJson(response, 400, { __type: type, message }, { 'content-type': 'application/x-amz-json-1.0' });

export async function startFakeControlPlanes(
  options: { region?: string; account?: string; pageSize?: number; stopDelayMs?: number } = {},
): Promise<FakeControlPlanes> {
  const region = options.region ?? 'us-east-1';
  const account = options.account ?? '123456789012';
  const pageSize = options.pageSize ?? 2;
  const tasks = new Map<string, FakeTask>();
  const executions = new Map<string, FakeExecution>();
  const hosts = new Map<string, FakeHost>();
  const calls: FakeControlPlanes['calls'] = [];

  /** A page of `items` after `nextToken` (the fakes' tokens are plain offsets). */
  const page = <T>(items: T[], nextToken: unknown, max = pageSize) => {
    const from = typeof nextToken === 'string' ? Number(nextToken) : 0;
    const next = from + max;
    return { items: items.slice(from, next), ...(next < items.length ? { nextToken: String(next) } : {}) };
  };
  const clusterArnOf = (cluster: string) => (cluster.startsWith('arn:') ? cluster : `arn:aws:ecs:${region}:${account}:cluster/${cluster}`);
  const findTask = (cluster: string, task: string) =>
    tasks.get(task) ?? [...tasks.values()].find((t) => t.clusterArn === clusterArnOf(cluster) && t.taskArn.endsWith(`/${task}`));
  const registerHost = (cluster: string): FakeHost => {
    const host = {
      containerInstanceArn: `arn:aws:ecs:${region}:${account}:container-instance/${clusterArnOf(cluster).split('/').pop()}/${randomUUID().replaceAll('-', '')}`,
      agentConnected: true,
    };
    hosts.set(host.containerInstanceArn, host);
    return host;
  };
  const unreachable = (task: FakeTask) =>
    task.hostOffline || (task.containerInstanceArn !== undefined && hosts.get(task.containerInstanceArn)?.agentConnected === false);
  const taskJson = (task: FakeTask) => {
    const { hostOffline: _offline, createdAt, startedAt, ...wire } = task;
    return { ...wire, createdAt: epoch(createdAt), ...(startedAt ? { startedAt: epoch(startedAt) } : {}) };
  };

  const ecs: Record<string, (body: Body, response: ServerResponse) => void> = {
    RunTask(body, response) {
      const clusterArn = clusterArnOf(body.cluster ?? 'default');
      const clusterName = clusterArn.split('/').pop()!;
      const now = Date.now();
      const task: FakeTask = {
        taskArn: `arn:aws:ecs:${region}:${account}:task/${clusterName}/${randomUUID().replaceAll('-', '')}`,
        clusterArn,
        taskDefinitionArn: `arn:aws:ecs:${region}:${account}:task-definition/${body.taskDefinition}:1`,
        ...(body.group ? { group: body.group } : {}),
        lastStatus: 'RUNNING',
        desiredStatus: 'RUNNING',
        createdAt: now,
        startedAt: now,
        overrides: (body.overrides as unknown as FakeTask['overrides']) ?? { containerOverrides: [] },
      };
      if (body.launchType === 'EXTERNAL') {
        const candidates = [...hosts.values()].filter((host) => host.agentConnected && host.containerInstanceArn.includes(`/${clusterName}/`));
        if (!candidates.length) return sendJson(response, 200, { tasks: [], failures: [{ reason: 'RESOURCE:MEMORY' }] });
        task.containerInstanceArn = candidates[tasks.size % candidates.length]!.containerInstanceArn;
      }
      tasks.set(task.taskArn, task);
      sendJson(response, 200, { tasks: [taskJson(task)], failures: [] });
    },
    ListTasks(body, response) {
      const family = body.family as string | undefined;
      const matching = [...tasks.values()].filter(
        (t) =>
          t.clusterArn === clusterArnOf(body.cluster ?? 'default') &&
          t.desiredStatus === (body.desiredStatus ?? 'RUNNING') &&
          (!family || t.taskDefinitionArn.split('/')[1]!.split(':')[0] === family),
      );
      const { items, nextToken } = page(
        matching.map((t) => t.taskArn),
        body.nextToken,
        Number(body.maxResults ?? pageSize),
      );
      sendJson(response, 200, { taskArns: items, ...(nextToken ? { nextToken } : {}) });
    },
    DescribeTasks(body, response) {
      const wanted = body.tasks as unknown as string[];
      if (wanted.length > 100) return error(response, 'InvalidParameterException', 'Tasks cannot be longer than 100.');
      const found = wanted.map((arn) => findTask(body.cluster ?? 'default', arn));
      sendJson(response, 200, {
        tasks: found.filter((t): t is FakeTask => !!t).map(taskJson),
        failures: wanted.filter((_, i) => !found[i]).map((arn) => ({ arn, reason: 'MISSING' })),
      });
    },
    StopTask(body, response) {
      const task = findTask(body.cluster ?? 'default', body.task);
      if (!task) return error(response, 'InvalidParameterException', 'The referenced task was not found.');
      task.desiredStatus = 'STOPPED';
      task.stoppedReason = body.reason;
      if (!unreachable(task))
        setTimeout(() => {
          task.lastStatus = 'STOPPED';
        }, options.stopDelayMs ?? 200);
      sendJson(response, 200, { task: taskJson(task) });
    },
    DescribeContainerInstances(body, response) {
      const wanted = body.containerInstances as unknown as string[];
      if (wanted.length > 100) return error(response, 'InvalidParameterException', 'containerInstances cannot be longer than 100.');
      const found = wanted.map((arn) => hosts.get(arn));
      sendJson(response, 200, {
        containerInstances: found.filter((host): host is FakeHost => !!host).map((host) => ({ ...host, status: 'ACTIVE' })),
        failures: wanted.filter((_, i) => !found[i]).map((arn) => ({ arn, reason: 'MISSING' })),
      });
    },
  };

  const sfn: Record<string, (body: Body, response: ServerResponse) => void> = {
    StartExecution(body, response) {
      const executionArn = `${body.stateMachineArn.replace(':stateMachine:', ':execution:')}:${body.name}`;
      if (executions.has(executionArn)) return error(response, 'ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
      const execution: FakeExecution = {
        executionArn,
        stateMachineArn: body.stateMachineArn,
        name: body.name,
        status: 'RUNNING',
        startDate: Date.now(),
        input: body.input,
      };
      executions.set(executionArn, execution);
      sendJson(response, 200, { executionArn, startDate: epoch(execution.startDate) });
    },
    StopExecution(body, response) {
      const execution = executions.get(body.executionArn);
      if (!execution) return error(response, 'ExecutionDoesNotExist', `Execution Does Not Exist: '${body.executionArn}'`);
      if (execution.status === 'RUNNING') execution.status = 'ABORTED';
      sendJson(response, 200, { stopDate: epoch(Date.now()) });
    },
    ListExecutions(body, response) {
      const matching = [...executions.values()].filter(
        (e) => e.stateMachineArn === body.stateMachineArn && (!body.statusFilter || e.status === body.statusFilter),
      );
      const { items, nextToken } = page(matching, body.nextToken);
      sendJson(response, 200, {
        executions: items.map(({ input: _input, startDate, ...wire }) => ({ ...wire, startDate: epoch(startDate) })),
        ...(nextToken ? { nextToken } : {}),
      });
    },
  };

  const serve = (service: 'ecs' | 'sfn', prefix: string, operations: typeof ecs) => async (request: IncomingMessage, response: ServerResponse) => {
    const target = String(request.headers['x-amz-target'] ?? '');
    const operation = target.startsWith(`${prefix}.`) ? target.slice(prefix.length + 1) : '';
    const body = JSON.parse((await readBody(request)).toString() || '{}') as Body;
    calls.push({ service, operation, body });
    const handle = operations[operation];
    if (!handle) return error(response, 'UnknownOperationException', `the fake does not know ${target}`);
    handle(body, response);
  };

  const servers: Listening[] = [await listen(serve('ecs', 'AmazonEC2ContainerServiceV20141113', ecs)), await listen(serve('sfn', 'AWSStepFunctions', sfn))];
  return {
    ecsUrl: servers[0]!.url,
    sfnUrl: servers[1]!.url,
    tasks,
    executions,
    hosts,
    registerHost,
    calls,
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
}
