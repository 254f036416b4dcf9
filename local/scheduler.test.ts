// The EventBridge Scheduler adapter (lambdas/adapters/scheduler/) with the real @aws-sdk/client-scheduler against the
// local stand-in of the service, which speaks its REST API: one schedule per stream, updated in place, an at()
// expression a minute before the transition (never in the past), the wake-up as the target's input, and the stand-in's
// own behaviour (refusals, firing, restarts) that the local stack relies on; and whom it answers (loopback Host names,
// the stack's credentials).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateScheduleCommand, GetScheduleCommand, ResourceNotFoundException, SchedulerClient, ValidationException } from '@aws-sdk/client-scheduler';
import { localCredentials } from '../lambdas/adapters/aws-clients';
import { atExpression, EventBridgeStreamWakeups, scheduleNameOf, wakeupTime } from '../lambdas/adapters/scheduler/eventbridge-stream-wakeups';
import type { ScheduledWakeup } from '../lambdas/core/streams/scheduled-runs';
import { randomLocalCredentials, type LocalCredentials } from './credentials';
import { fireTimeOf, startLocalScheduler, type LocalScheduler, type ScheduleTarget } from './scheduler';
import { sendingHost } from '../test/helpers/foreign-host';

const GROUP = 'loopcast-test-streams';
const TARGET = 'arn:aws:lambda:us-east-1:000000000000:function:loopcast-test-stream-schedule';
const ROLE = 'arn:aws:iam::000000000000:role/loopcast-test-stream-schedules';

const clientFor = (scheduler: LocalScheduler) => new SchedulerClient({ region: 'us-east-1', endpoint: scheduler.endpoint, credentials: localCredentials });

describe('wakeupTime', () => {
  test('a minute before the transition, on a whole minute', () => {
    expect(wakeupTime(new Date('2025-05-01T10:00:30Z'), new Date('2025-05-01T09:00:00Z')).toISOString()).toBe('2025-05-01T09:59:00.000Z');
    expect(wakeupTime(new Date('2025-05-01T10:00:00Z'), new Date('2025-05-01T09:00:00Z')).toISOString()).toBe('2025-05-01T09:59:00.000Z');
  });

  test('never sooner than 5 s from now, on a whole second: Scheduler refuses a time in the past', () => {
    expect(wakeupTime(new Date('2025-05-01T10:00:30Z'), new Date('2025-05-01T10:00:00.200Z')).toISOString()).toBe('2025-05-01T10:00:06.000Z');
    expect(atExpression(new Date('2025-05-01T10:00:06.000Z'))).toBe('at(2025-05-01T10:00:06)');
  });
});

describe('EventBridgeStreamWakeups against the local Scheduler', () => {
  let scheduler: LocalScheduler;
  const fired: unknown[] = [];
  const targets = new Map<string, ScheduleTarget>([[TARGET, async (input) => void fired.push(input)]]);

  beforeEach(async () => {
    fired.length = 0;
    scheduler = await startLocalScheduler({ groups: [GROUP], targets });
  });
  afterEach(() => scheduler.stop());

  const wakeups = () => new EventBridgeStreamWakeups({ scheduler: clientFor(scheduler), groupName: GROUP, targetArn: TARGET, roleArn: ROLE });
  const wakeup = (streamId: string, at: Date, action: 'start' | 'stop' = 'start'): ScheduledWakeup => ({
    userId: 'u1',
    streamId,
    action,
    at: at.toISOString(),
  });

  test("arming creates the stream's one schedule, arming again updates it in place, disarming deletes it", async () => {
    const adapter = wakeups();
    const at = new Date(Date.now() + 3_600_000);
    await adapter.arm(wakeup('s1', at));
    await adapter.arm(wakeup('s1', new Date(at.getTime() + 60_000), 'stop'));
    expect(scheduler.calls.map((call) => call.operation)).toEqual(['PUT ResourceNotFoundException', 'CreateSchedule', 'UpdateSchedule']);
    expect(scheduler.schedules.size).toBe(1);
    const stored = await clientFor(scheduler).send(new GetScheduleCommand({ Name: scheduleNameOf('s1'), GroupName: GROUP }));
    expect(stored).toMatchObject({
      Name: 'stream-s1',
      GroupName: GROUP,
      ScheduleExpression: atExpression(wakeupTime(new Date(at.getTime() + 60_000), new Date())),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      State: 'ENABLED',
      Target: { Arn: TARGET, RoleArn: ROLE, RetryPolicy: { MaximumRetryAttempts: 20, MaximumEventAgeInSeconds: 3600 } },
    });
    expect(JSON.parse(stored.Target!.Input!)).toEqual(wakeup('s1', new Date(at.getTime() + 60_000), 'stop'));
    await adapter.disarm('s1');
    await adapter.disarm('s1');
    expect(scheduler.schedules.size).toBe(0);
    expect(scheduler.calls.slice(-2).map((call) => call.operation)).toEqual(['DeleteSchedule', 'DELETE ResourceNotFoundException']);
  });

  test('a wake-up fires its target with the wake-up as input, at most a minute early, and stays (NONE) without firing again', async () => {
    const adapter = wakeups();
    const at = new Date(Date.now() + 6_500);
    const before = new Date();
    await adapter.arm(wakeup('s2', at));
    const after = new Date();
    // The adapter took its own now between the two: the wake-up is the one it stored, 5 s from then on a whole second.
    const wake = new Date(fireTimeOf([...scheduler.schedules.values()][0]!));
    expect(wake.getTime()).toBeGreaterThanOrEqual(wakeupTime(at, before).getTime());
    expect(wake.getTime()).toBeLessThanOrEqual(wakeupTime(at, after).getTime());
    await new Promise((resolve) => setTimeout(resolve, wake.getTime() - Date.now() + 300));
    expect(fired).toEqual([wakeup('s2', at)]);
    expect(scheduler.invocations[0]!.at).toBeGreaterThanOrEqual(wake.getTime());
    expect(scheduler.invocations[0]!.at).toBeLessThanOrEqual(at.getTime());
    expect(scheduler.schedules.size).toBe(1);
  });

  test("the service's refusals reach the adapter as the SDK's exceptions: a time in the past, a group that does not exist", async () => {
    const client = clientFor(scheduler);
    const request = {
      Name: 'stream-past',
      GroupName: GROUP,
      ScheduleExpression: atExpression(new Date(Date.now() - 120_000)),
      FlexibleTimeWindow: { Mode: 'OFF' as const },
      Target: { Arn: TARGET, RoleArn: ROLE },
    };
    await expect(client.send(new CreateScheduleCommand(request))).rejects.toBeInstanceOf(ValidationException);
    await expect(
      client.send(new CreateScheduleCommand({ ...request, GroupName: 'nope', ScheduleExpression: atExpression(new Date(Date.now() + 60_000)) })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
    await expect(
      new EventBridgeStreamWakeups({ scheduler: client, groupName: 'nope', targetArn: TARGET, roleArn: ROLE }).arm(
        wakeup('s3', new Date(Date.now() + 600_000)),
      ),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  test('schedules outlive a restart of the stand-in; one whose time passed while it was down fires at start', async () => {
    await scheduler.stop();
    const file = join(mkdtempSync(join(tmpdir(), 'loopcast-scheduler-')), 'schedules.json');
    let first = await startLocalScheduler({ groups: [GROUP], targets, file });
    const adapter = new EventBridgeStreamWakeups({ scheduler: clientFor(first), groupName: GROUP, targetArn: TARGET, roleArn: ROLE });
    const at = new Date(Date.now() + 6_000);
    await adapter.arm(wakeup('s4', at));
    await adapter.arm(wakeup('s5', new Date(Date.now() + 3_600_000)));
    await first.stop();
    await new Promise((resolve) => setTimeout(resolve, wakeupTime(at, new Date()).getTime() - Date.now() + 200));
    expect(fired).toEqual([]);
    first = await startLocalScheduler({ groups: [GROUP], targets, file });
    scheduler = first;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fired).toEqual([wakeup('s4', at)]);
    expect([...first.schedules.keys()].sort()).toEqual([`${GROUP}/stream-s4`, `${GROUP}/stream-s5`]);
    // Fired once: a further restart does not fire it again.
    await first.stop();
    scheduler = await startLocalScheduler({ groups: [GROUP], targets, file });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fired).toHaveLength(1);
  });
});

describe('whom the local Scheduler answers', () => {
  const targets = new Map<string, ScheduleTarget>([[TARGET, async () => undefined]]);
  let scheduler: LocalScheduler;
  beforeAll(async () => {
    scheduler = await startLocalScheduler({ groups: [GROUP], targets });
  });
  afterAll(() => scheduler.stop());

  /** GetSchedule of a schedule that does not exist: ResourceNotFoundException is an answer, anything else a refusal. */
  const get = (credentials: LocalCredentials | typeof localCredentials, host?: string) => {
    const client = sendingHost(new SchedulerClient({ region: 'us-east-1', endpoint: scheduler.endpoint, credentials, maxAttempts: 1 }), host);
    return client.send(new GetScheduleCommand({ Name: 'stream-nobody', GroupName: GROUP })).then(
      () => 'answered',
      (error: Error) => error.name,
    );
  };

  test("requests signed with the stack's credentials only, naming a loopback host", async () => {
    const port = new URL(scheduler.endpoint).port;
    expect(await get(localCredentials)).toBe('ResourceNotFoundException');
    expect(await get(localCredentials, `localhost:${port}`)).toBe('ResourceNotFoundException');
    expect(await get(localCredentials, `evil.example:${port}`)).toBe('AccessDeniedException');
    expect(await get({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' })).toBe('UnrecognizedClientException');
    expect(await get(randomLocalCredentials())).toBe('UnrecognizedClientException');
    const unsigned = await fetch(`${scheduler.endpoint}/schedules/stream-nobody?groupName=${GROUP}`);
    expect([unsigned.status, unsigned.headers.get('x-amzn-errortype')]).toEqual([403, 'UnrecognizedClientException']);
  });
});
