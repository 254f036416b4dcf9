// Managed mode's only contact with Loopcast: the task API (lambdas/contract/stream-task.ts), with the run token the
// lifecycle gave this task. The task holds no AWS credentials for data: it gets its spec (stream keys opened, media
// as short-lived URLs) when it takes the run's lease, renews the lease with every heartbeat, and stops when a
// renewal is refused (docs/streams.md, "The run lease").
import { randomUUID } from 'node:crypto';
// Types only from the task contract (its schemas load Zod): the lease is asked for before the rest of the task loads.
import type { Heartbeat, HeartbeatAnswer, LeaseGrant, MediaProbe, TaskCaller } from '../../lambdas/contract/stream-task';
import { TASK_API } from '../../lambdas/contract/task-api-paths';
import { TASK_ENVIRONMENT } from '../../lambdas/contract/stream-lifecycle';
import { buffer } from 'node:stream/consumers';
import { send } from './http';

/** A run this process was started for by the lifecycle. */
export interface ManagedRun {
  userId: string;
  streamId: string;
  runId: string;
  token: string;
  apiUrl: string;
}

export function managedRunFromEnv(env: NodeJS.ProcessEnv): ManagedRun | undefined {
  const [userId, streamId, runId, token, apiUrl] = [
    TASK_ENVIRONMENT.userId,
    TASK_ENVIRONMENT.streamId,
    TASK_ENVIRONMENT.runId,
    TASK_ENVIRONMENT.token,
    TASK_ENVIRONMENT.apiUrl,
  ].map((name) => env[name]);
  return userId && streamId && runId && token && apiUrl ? { userId, streamId, runId, token, apiUrl } : undefined;
}

/** The name this task holds the lease by: its ECS task ARN (from the task metadata endpoint, on Fargate and ECS
 * Anywhere alike), the local runner's task id, or failing both a random one. */
export async function taskInstanceId(env: NodeJS.ProcessEnv): Promise<string> {
  if (env.LOOPCAST_TASK_ID) return env.LOOPCAST_TASK_ID;
  const metadata = env.ECS_CONTAINER_METADATA_URI_V4;
  if (metadata) {
    const response = await send(new URL(`${metadata}/task`), { signal: AbortSignal.timeout(5000) });
    const { TaskARN } = JSON.parse((await buffer(response)).toString()) as { TaskARN?: string };
    if (TaskARN) return TaskARN;
  }
  return `task-${randomUUID()}`;
}

/** A managed run whose lease this process holds: the task API's client and what the lease granted. */
export interface LeasedRun {
  api: TaskApiClient;
  grant: LeaseGrant;
}

/** Managed mode: takes the lease of the run the environment names; undefined when the process runs standalone. */
export async function leaseManagedRun(env: NodeJS.ProcessEnv): Promise<LeasedRun | undefined> {
  const run = managedRunFromEnv(env);
  if (!run) return undefined;
  const api = new TaskApiClient(run, await taskInstanceId(env));
  return { api, grant: await api.lease() };
}

/** The task API refused: this task does not (or no longer) carry its run. */
export class LeaseLost extends Error {
  constructor(what: string, status: number) {
    super(`${what}: the run's lease was refused (HTTP ${status})`);
    this.name = 'LeaseLost';
  }
}

/** The one answer that means "another task carries the run, or it is over": 409 'task lease lost'. Anything else that
 * fails (the media gone: 404; no token: 401; the API down) is this task's failure, which the lifecycle restarts with
 * a backoff; a refusal is not, and is restarted at once (docs/streams.md). */
const REFUSALS = new Set([409]);
const REQUEST_TIMEOUT_MS = 5000;

export class TaskApiClient {
  private readonly caller: TaskCaller;

  constructor(
    private readonly run: ManagedRun,
    instanceId: string,
  ) {
    this.caller = { userId: run.userId, streamId: run.streamId, instanceId };
  }

  /** Takes the run's lease and gets the spec; throws LeaseLost when another task holds it or the run is over. */
  async lease(): Promise<LeaseGrant> {
    return JSON.parse((await this.send('lease', TASK_API.lease, 'POST', JSON.stringify(this.caller), 'application/json')).toString()) as LeaseGrant;
  }

  /** Reports a heartbeat, which renews the lease; throws LeaseLost when refused, another error when unreachable. */
  async heartbeat(heartbeat: Heartbeat): Promise<HeartbeatAnswer> {
    const answer = await this.send('heartbeat', TASK_API.heartbeat, 'POST', JSON.stringify({ ...this.caller, heartbeat }), 'application/json');
    return JSON.parse(answer.toString()) as HeartbeatAnswer;
  }

  /** Reports what the ffprobe found in an input, for its item to keep (later tasks then skip the probe). */
  async probe(input: 'video' | 'audio', probe: MediaProbe): Promise<void> {
    await this.send('probe', TASK_API.probe, 'POST', JSON.stringify({ ...this.caller, input, probe }), 'application/json');
  }

  async preview(jpeg: Buffer): Promise<void> {
    const query = new URLSearchParams(this.caller).toString();
    await this.send('preview', `${TASK_API.preview}?${query}`, 'PUT', jpeg, 'image/jpeg');
  }

  /** The answer's body, once the task API accepted the request. */
  private async send(what: string, path: string, method: string, body: string | Buffer, contentType: string): Promise<Buffer> {
    const response = await send(new URL(`${this.run.apiUrl}${path}`), {
      method,
      headers: { authorization: `Bearer ${this.run.token}`, 'content-type': contentType },
      body: typeof body === 'string' ? Buffer.from(body) : body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const answer = await buffer(response);
    const status = response.statusCode ?? 0;
    if (REFUSALS.has(status)) throw new LeaseLost(what, status);
    if (status < 200 || status > 299) throw new Error(`${what}: the task API answered HTTP ${status}`);
    return answer;
  }
}

/**
 * Knows whether this task may still publish. A refused renewal ends it at once; so does going too long without a
 * successful one (the API unreachable): after `ttl - renew` seconds, which leaves one renewal interval before the
 * lease could expire and be taken by another task. Checked every second.
 */
export class LeaseKeeper {
  private lastRenewedAt: number;
  private stopTimer?: () => void;
  private ended = false;

  constructor(
    private readonly lease: { renewSeconds: number; ttlSeconds: number },
    private readonly onLost: (reason: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.lastRenewedAt = now();
  }

  get lost(): boolean {
    return this.ended;
  }

  start(every: (ms: number, fn: () => void) => () => void): void {
    this.stopTimer = every(1000, () => this.check());
  }

  renewed(): void {
    this.lastRenewedAt = this.now();
  }

  refused(reason: string): void {
    this.end(reason);
  }

  close(): void {
    this.stopTimer?.();
  }

  private check(): void {
    const silentMs = this.now() - this.lastRenewedAt;
    if (silentMs >= (this.lease.ttlSeconds - this.lease.renewSeconds) * 1000) this.end(`the lease could not be renewed for ${Math.round(silentMs / 1000)} s`);
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.close();
    this.onLost(reason);
  }
}
