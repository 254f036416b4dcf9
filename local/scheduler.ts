// The local stand-in of EventBridge Scheduler: the part of its REST API Loopcast uses (CreateSchedule,
// UpdateSchedule, GetSchedule, DeleteSchedule of one-time `at()` schedules, restJson1 as the real service speaks it,
// so the real @aws-sdk/client-scheduler and lambdas/adapters/scheduler/ talk to it unchanged), with a timer per
// schedule that invokes its target, a function of the local stack named by the target's ARN, with the target's
// input. As the service does, it refuses a time in the past and a group that does not exist, keeps schedules across
// restarts (a file in the data folder for `npm start`; a time that passed while it was down fires at start), and
// deletes a schedule after it fired only with ActionAfterCompletion DELETE. Like DynamoDB Local and s3rver, it answers
// loopback Host names only and requests signed with the local stack's credentials only (a schedule starts or stops a
// stream): another user of the machine, or a DNS-rebinding page, can make none.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { instantOfWallClock } from '../lambdas/core/wall-clock';
import type { LocalCredentials } from '../lambdas/contract/local-credentials';
import { processLocalCredentials } from './credentials';
import { checkSignatureV4, isLoopbackHost } from './stand-in-access';

/** A schedule as the service stores it (the members Loopcast sends). */
export interface LocalSchedule {
  Name: string;
  GroupName: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  Description?: string;
  State: 'ENABLED' | 'DISABLED';
  ActionAfterCompletion: 'NONE' | 'DELETE';
  FlexibleTimeWindow: { Mode: 'OFF' | 'FLEXIBLE'; MaximumWindowInMinutes?: number };
  Target: { Arn: string; RoleArn: string; Input?: string; RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number } };
  CreationDate: number;
  LastModificationDate: number;
  /** Stand-in's own: when it fired (a one-time schedule fires once, also across restarts). */
  firedAt?: number;
}

/** A target function of the local stack: what Lambda would run with the schedule's input. */
export type ScheduleTarget = (input: unknown) => Promise<unknown>;

export interface LocalSchedulerOptions {
  /** Schedule groups that exist (the Streaming stack creates its group in AWS). */
  groups: string[];
  /** Target functions by ARN. */
  targets: Map<string, ScheduleTarget>;
  /** Where schedules are kept across restarts; in memory only without. */
  file?: string;
  region?: string;
  account?: string;
  log?: (message: string, error?: unknown) => void;
  /** The only credentials it takes (by default this process's, local/credentials.ts). */
  credentials?: LocalCredentials;
}

export interface LocalScheduler {
  endpoint: string;
  schedules: Map<string, LocalSchedule>;
  /** Every request: operation and schedule name (tests read it). */
  calls: { operation: string; name: string }[];
  /** Targets invoked: when, and with which input. */
  invocations: { arn: string; at: number; input: unknown }[];
  stop(): Promise<void>;
}

/** Node's timers hold at most 24.8 days: longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const AT_PATTERN = /^at\((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\)$/;
const NAME_PATTERN = /^[0-9a-zA-Z-_.]{1,64}$/;

class ServiceError extends Error {
  constructor(
    readonly type: 'ValidationException' | 'ResourceNotFoundException' | 'ConflictException' | 'AccessDeniedException' | 'UnrecognizedClientException',
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new ServiceError('ValidationException', 400, message);

/** The instant an `at()` expression names in its time zone. */
export function fireTimeOf(schedule: Pick<LocalSchedule, 'ScheduleExpression' | 'ScheduleExpressionTimezone'>): number {
  const match = AT_PATTERN.exec(schedule.ScheduleExpression);
  if (!match) throw invalid(`Invalid Schedule Expression ${schedule.ScheduleExpression}. Only at() expressions are supported locally.`);
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  try {
    return instantOfWallClock(wall, schedule.ScheduleExpressionTimezone ?? 'UTC');
  } catch {
    throw invalid(`Invalid ScheduleExpressionTimezone ${schedule.ScheduleExpressionTimezone}`);
  }
}

export async function startLocalScheduler(options: LocalSchedulerOptions): Promise<LocalScheduler> {
  const region = options.region ?? 'us-east-1';
  const account = options.account ?? '000000000000';
  const log = options.log ?? (() => undefined);
  const credentials = options.credentials ?? processLocalCredentials();
  const schedules = new Map<string, LocalSchedule>();
  const timers = new Map<string, NodeJS.Timeout>();
  const calls: LocalScheduler['calls'] = [];
  const invocations: LocalScheduler['invocations'] = [];
  const keyOf = (group: string, name: string) => `${group}/${name}`;
  const arnOf = (schedule: LocalSchedule) => `arn:aws:scheduler:${region}:${account}:schedule/${schedule.GroupName}/${schedule.Name}`;

  const save = () => {
    if (!options.file) return;
    mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
    writeFileSync(options.file, JSON.stringify([...schedules.values()], null, 2), { mode: 0o600 });
  };

  const invoke = async (schedule: LocalSchedule) => {
    const target = options.targets.get(schedule.Target.Arn);
    const input: unknown = schedule.Target.Input === undefined ? {} : JSON.parse(schedule.Target.Input);
    invocations.push({ arn: schedule.Target.Arn, at: Date.now(), input });
    if (!target) return log(`scheduler: schedule ${schedule.Name} names no local target ${schedule.Target.Arn}`);
    const attempts = Math.min(schedule.Target.RetryPolicy?.MaximumRetryAttempts ?? 185, 3) + 1;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        await target(input);
        return;
      } catch (error) {
        log(`scheduler: target of ${schedule.Name} failed (attempt ${attempt} of ${attempts})`, error);
        if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      }
    }
  };

  const fire = (key: string, schedule: LocalSchedule) => {
    timers.delete(key);
    if (schedules.get(key) !== schedule || schedule.State !== 'ENABLED') return;
    if (schedule.ActionAfterCompletion === 'DELETE') schedules.delete(key);
    else schedule.firedAt = Date.now();
    save();
    void invoke(schedule);
  };

  const arm = (key: string, schedule: LocalSchedule) => {
    clearTimeout(timers.get(key));
    timers.delete(key);
    if (schedule.State !== 'ENABLED') return;
    // A one-time schedule fires once: one that already fired (kept with NONE) is not armed again.
    if (schedule.firedAt !== undefined) return;
    const due = fireTimeOf(schedule);
    // Armed again rather than fired when the timer ends before the due time: a wait longer than a timer takes, or
    // a timer that ends a millisecond early by the wall clock (timers run on the monotonic one).
    const timer = setTimeout(() => (Date.now() < due ? arm(key, schedule) : fire(key, schedule)), Math.max(0, Math.min(due - Date.now(), MAX_TIMER_MS)));
    timer.unref();
    timers.set(key, timer);
  };

  const put = (name: string, body: Record<string, unknown>, existing: LocalSchedule | undefined): LocalSchedule => {
    const group = (body.GroupName as string | undefined) ?? 'default';
    if (!options.groups.includes(group)) throw new ServiceError('ResourceNotFoundException', 404, `Schedule group ${group} does not exist.`);
    if (!NAME_PATTERN.test(name)) throw invalid(`Invalid schedule name ${name}`);
    const target = body.Target as LocalSchedule['Target'] | undefined;
    if (!target?.Arn || !target.RoleArn) throw invalid('Target.Arn and Target.RoleArn are required.');
    const window = body.FlexibleTimeWindow as LocalSchedule['FlexibleTimeWindow'] | undefined;
    if (!window?.Mode) throw invalid('FlexibleTimeWindow is required.');
    const now = Date.now();
    const schedule: LocalSchedule = {
      Name: name,
      GroupName: group,
      ScheduleExpression: String(body.ScheduleExpression ?? ''),
      ...(body.ScheduleExpressionTimezone ? { ScheduleExpressionTimezone: String(body.ScheduleExpressionTimezone) } : {}),
      ...(body.Description ? { Description: String(body.Description) } : {}),
      State: body.State === 'DISABLED' ? 'DISABLED' : 'ENABLED',
      ActionAfterCompletion: body.ActionAfterCompletion === 'DELETE' ? 'DELETE' : 'NONE',
      FlexibleTimeWindow: window,
      Target: target,
      CreationDate: existing?.CreationDate ?? now,
      LastModificationDate: now,
    };
    if (fireTimeOf(schedule) < now - 1000) throw invalid('The schedule expression must be a time in the future.');
    return schedule;
  };

  const operations = async (request: IncomingMessage, body: Record<string, unknown>): Promise<[string, unknown]> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const name = decodeURIComponent(/^\/schedules\/([^/]+)$/.exec(url.pathname)?.[1] ?? '');
    if (!name) throw new ServiceError('ValidationException', 400, `Unsupported request ${request.method} ${url.pathname}`);
    const queryGroup = url.searchParams.get('groupName') ?? 'default';
    switch (request.method) {
      case 'POST': {
        const group = (body.GroupName as string | undefined) ?? 'default';
        if (schedules.has(keyOf(group, name))) throw new ServiceError('ConflictException', 409, `Schedule ${name} already exists.`);
        const schedule = put(name, body, undefined);
        schedules.set(keyOf(group, name), schedule);
        save();
        arm(keyOf(group, name), schedule);
        return ['CreateSchedule', { ScheduleArn: arnOf(schedule) }];
      }
      case 'PUT': {
        const group = (body.GroupName as string | undefined) ?? 'default';
        const existing = schedules.get(keyOf(group, name));
        if (!existing) throw new ServiceError('ResourceNotFoundException', 404, `Schedule ${name} does not exist.`);
        const schedule = put(name, body, existing);
        schedules.set(keyOf(group, name), schedule);
        save();
        arm(keyOf(group, name), schedule);
        return ['UpdateSchedule', { ScheduleArn: arnOf(schedule) }];
      }
      case 'GET': {
        const schedule = schedules.get(keyOf(queryGroup, name));
        if (!schedule) throw new ServiceError('ResourceNotFoundException', 404, `Schedule ${name} does not exist.`);
        const { firedAt: _fired, ...stored } = schedule;
        return [
          'GetSchedule',
          { ...stored, Arn: arnOf(schedule), CreationDate: schedule.CreationDate / 1000, LastModificationDate: schedule.LastModificationDate / 1000 },
        ];
      }
      case 'DELETE': {
        const key = keyOf(queryGroup, name);
        if (!schedules.has(key)) throw new ServiceError('ResourceNotFoundException', 404, `Schedule ${name} does not exist.`);
        clearTimeout(timers.get(key));
        timers.delete(key);
        schedules.delete(key);
        save();
        return ['DeleteSchedule', {}];
      }
      default:
        throw new ServiceError('ValidationException', 400, `Unsupported method ${request.method}`);
    }
  };

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers }).end(text);
  };

  const server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      const name = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname.split('/')[2] ?? '');
      try {
        if (!isLoopbackHost(request.headers.host)) throw new ServiceError('AccessDeniedException', 403, 'The local Scheduler answers loopback host names only');
        const signed = checkSignatureV4({ method: request.method ?? '', url: request.url ?? '/', headers: request.headers }, credentials, {
          payloadHash: createHash('sha256').update(body).digest('hex'),
          uriEscapePath: true,
        });
        if (!signed.ok) throw new ServiceError('UnrecognizedClientException', 403, signed.message);
        const [operation, answer] = await operations(request, text ? (JSON.parse(text) as Record<string, unknown>) : {});
        calls.push({ operation, name });
        send(response, 200, answer);
      } catch (error) {
        if (!(error instanceof ServiceError)) {
          log('scheduler: request failed', error);
          return send(response, 500, { Message: 'InternalServerException' }, { 'x-amzn-errortype': 'InternalServerException' });
        }
        calls.push({ operation: `${request.method} ${error.type}`, name });
        send(response, error.status, { Message: error.message }, { 'x-amzn-errortype': error.type });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, resolve);
  });

  if (options.file && existsSync(options.file)) {
    for (const schedule of JSON.parse(readFileSync(options.file, 'utf8')) as LocalSchedule[]) {
      const key = keyOf(schedule.GroupName, schedule.Name);
      schedules.set(key, schedule);
      arm(key, schedule);
    }
  }

  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    schedules,
    calls,
    invocations,
    stop: async () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
