// The support tool end to end against a local test stack: `bin/support.ts --local` run as a child process, as an
// operator runs it (find, suspend, reactivate, terminate, audit), checked through the API, the table and the
// bucket; and its use cases in process with Stripe (the fake) for a paying account and an injected failure.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamo/billing-store';
import { DynamoStreamStore } from '../../lambdas/adapters/dynamo/stream-store';
import { DynamoVideoStore } from '../../lambdas/adapters/dynamo/video-store';
import { emailKey, userKey } from '../../lambdas/adapters/dynamo/keys';
import { StripeSubscriptionControl } from '../../lambdas/adapters/stripe/support-subscriptions';
import { supportContext } from '../../lambdas/wiring/support';
import { billingPeriods, periodPriceCents, plans, stripeLookupKey } from '../../lambdas/core/plans';
import type { AuditEntry } from '../../lambdas/core/support/ports';
import {
  auditTrail,
  PAYMENT_RETENTION_YEARS,
  reactivateUser,
  SupportRefusal,
  suspendUser,
  terminateUser,
  type FindResult,
} from '../../lambdas/core/support/support';
import { repoRoot } from '../../local/paths';
import type { LocalStack } from '../../local/stack';
import type { WebhookDelivery } from '../fakes/stripe/events';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe/server';
import { api, mailsTo, signedInUser, strongPassword, tokenOf } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';
import { createStream, creatorWithDestination, type Creator as DestinationCreator } from '../helpers/creators';
import { noMediaWithin } from '../helpers/player';
import { streamTaskProcesses } from '../helpers/stream-tasks';
import { waitFor } from '../helpers/wait';

const execFileAsync = promisify(execFile);

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
}, 60_000);
afterAll(() => stack.stop());

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run support -- --local ...` against this file's stack (its own table, bucket and data folder). */
async function support(...args: string[]): Promise<CliResult> {
  const argv = [
    '--import',
    'tsx',
    join(repoRoot, 'bin', 'support.ts'),
    '--local',
    '--table',
    stack.config.tables.app,
    '--bucket',
    stack.config.buckets.media,
    '--operator',
    'test-operator',
    ...args,
  ];
  const env = {
    ...process.env,
    LOOPCAST_DATA_DIR: stack.dataDir,
    LOOPCAST_DYNAMODB_ENDPOINT: stack.urls.dynamodb,
    LOOPCAST_S3_ENDPOINT: stack.urls.s3,
  };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, argv, { cwd: repoRoot, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function supportJson<T>(...args: string[]): Promise<T> {
  const result = await support(...args, '--json');
  if (result.code !== 0) throw new Error(`support ${args.join(' ')}: exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

interface Creator extends DestinationCreator {
  streamId: string;
}

/** A signed-in user with a ready video, a destination on the local RTMP server and a (stopped) stream. */
async function creator(label: string): Promise<Creator> {
  const user = await creatorWithDestination(stack, label);
  const stream = await createStream(stack, user, { title: `${label} loop` });
  expect(stream.status).toBe(201);
  return { ...user, streamId: stream.body.id };
}

const streamItem = (userId: string, streamId: string) => new DynamoStreamStore(stack.deps.db, stack.config.tables.app).get(userId, streamId);
const login = (email: string) => api(stack, 'POST', '/login', { body: { email, password: strongPassword } });

async function objectKeys(target: LocalStack, userId: string): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of [`uploads/${userId}/`, `media/${userId}/`]) {
    const listed = await target.deps.s3.send(new ListObjectsV2Command({ Bucket: target.config.buckets.media, Prefix: prefix }));
    keys.push(...(listed.Contents ?? []).map((object) => object.Key!));
  }
  return keys;
}

async function partition(target: LocalStack, userId: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await target.deps.db.send(
    new QueryCommand({ TableName: target.config.tables.app, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': userKey(userId).pk } }),
  );
  return Items;
}

describe('support tool (bin/support.ts --local)', () => {
  let ana: Creator;
  beforeAll(async () => {
    ana = await creator('ana');
  }, 120_000);

  test('find shows the account, its plan, storage and streams, as text and as JSON', async () => {
    const found = await supportJson<FindResult>('find', ana.email.toUpperCase());
    expect(found.found).toBe(true);
    if (!found.found) return;
    expect(found.report).toMatchObject({
      user: { id: ana.userId, email: ana.email, status: 'active' },
      subscription: { plan: 'trial', state: 'trial', active: true },
      media: { items: 1, encoding: 0 },
      streams: [{ id: ana.streamId, status: 'stopped', restarts: 0 }],
      audit: [],
    });
    expect(found.report.usage.storageBytes).toBeGreaterThan(0);

    const text = await support('find', ana.userId);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^User\\s+${ana.userId}  ${ana.email}`, 'm'));
    expect(text.stdout).toMatch(/^Plan\s+trial · trial;/m);
    expect(text.stdout).toMatch(new RegExp(`^${ana.streamId}\\s+ana loop\\s+stopped\\s+0`, 'm'));
  });

  test('suspend stops the running stream with its task, ends the sessions and refuses sign-in; nothing is deleted', async () => {
    expect((await api(stack, 'POST', `/streams/${ana.streamId}/start`, { token: ana.token })).status).toBe(200);
    await waitFor(
      'stream start',
      () => streamItem(ana.userId, ana.streamId),
      (s) => s?.status === 'started',
      90_000,
    );
    const task = stack.streamRunner.children[0];
    expect(task?.exitCode).toBeNull();

    const refused = await support('suspend', ana.email);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('suspend needs --reason') });

    const suspended = await supportJson<AuditEntry>('suspend', ana.email, '--reason', 'copyright strike, ticket 4711');
    expect(suspended).toMatchObject({
      userId: ana.userId,
      action: 'suspend',
      outcome: 'done',
      reason: 'copyright strike, ticket 4711',
      operator: { name: 'test-operator', credentials: 'local' },
      details: { previousStatus: 'active', streamsStopped: 1, billingPaused: 'none' },
    });
    // The task was signalled (as ECS StopTask) and exited; the stream is stopped with the reason.
    await waitFor(
      'stream task to exit',
      async () => task!.exitCode ?? task!.signalCode,
      (end) => end !== null,
      5_000,
    );
    expect(await streamItem(ana.userId, ana.streamId)).toMatchObject({ status: 'stopped', desired: 'stopped', lastError: 'account suspended' });
    await waitFor(
      'lifecycle execution to end',
      async () => stack.streamRunner.children.length,
      (count) => count === 0,
    );
    expect(streamTaskProcesses(ana.streamId)).toEqual([]);
    expect(await noMediaWithin(`${stack.urls.rtmp}/${ana.key}`, 5)).toBe(true);

    expect((await api(stack, 'GET', '/me', { token: ana.token })).status).toBe(401);
    expect(await login(ana.email)).toMatchObject({
      status: 403,
      body: { error: 'account suspended', message: 'This account is suspended. Please contact support' },
    });
    expect((await new DynamoVideoStore(stack.deps.db, stack.config.tables.app).list(ana.userId)).map((v) => v.id)).toEqual([ana.videoId]);
    expect((await objectKeys(stack, ana.userId)).length).toBeGreaterThan(0);

    expect(await support('suspend', ana.email, '--reason', 'again')).toMatchObject({ code: 1, stderr: expect.stringContaining('already suspended') });
  }, 150_000);

  test('reactivate lets the user sign in again; streams stay stopped until started', async () => {
    const entry = await supportJson<AuditEntry>('reactivate', ana.userId, '--reason', 'rights cleared');
    expect(entry).toMatchObject({ action: 'reactivate', outcome: 'done', details: { status: 'active', billingResumed: 'none' } });
    const signedIn = await login(ana.email);
    expect(signedIn.status).toBe(200);
    expect((await api(stack, 'GET', `/streams/${ana.streamId}`, { token: signedIn.body.token })).body.status).toBe('stopped');
    expect(await support('reactivate', ana.userId)).toMatchObject({ code: 1, stderr: expect.stringContaining('is active, not suspended') });
  });

  test('terminate deletes the objects and items of the account, keeps payments (with an expiry) and the audit trail', async () => {
    const bob = await creator('bob');
    await new DynamoBillingStore(stack.deps.db, stack.config.tables.app).recordPayment({
      userId: bob.userId,
      id: 'in_test_1',
      amountCents: 899,
      currency: 'usd',
      paidAt: '2025-03-01T10:00:00.000Z',
    });
    // An upload still in progress: parts of a multipart upload, not yet an object.
    const bucket = stack.config.buckets.media;
    await stack.deps.s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: `uploads/${bob.userId}/unfinished` }));
    await stack.deps.s3.send(new PutObjectCommand({ Bucket: bucket, Key: `uploads/${bob.userId}/stray.info`, Body: '{}' }));
    expect((await api(stack, 'POST', `/streams/${bob.streamId}/start`, { token: bob.token })).status).toBe(200);
    await waitFor(
      'stream start',
      () => streamItem(bob.userId, bob.streamId),
      (s) => s?.status === 'started',
      90_000,
    );
    const objectsBefore = (await objectKeys(stack, bob.userId)).length;

    expect(await support('terminate', bob.email, '--reason', 'repeated strikes')).toMatchObject({ code: 2, stderr: expect.stringContaining('add --yes') });
    const entry = await supportJson<AuditEntry>('terminate', bob.email, '--reason', 'repeated strikes', '--yes');
    expect(entry).toMatchObject({
      userId: bob.userId,
      action: 'terminate',
      outcome: 'done',
      details: {
        previousStatus: 'active',
        streamsStopped: 1,
        subscriptionCanceled: 'none',
        paymentCustomer: 'none',
        transcodesInFlight: 0,
        objectsDeleted: objectsBefore,
        uploadsAborted: 1,
        paymentsKept: 1,
      },
    });
    await waitFor(
      'lifecycle execution to end',
      async () => stack.streamRunner.children.length,
      (count) => count === 0,
    );

    expect(await objectKeys(stack, bob.userId)).toEqual([]);
    const uploads = await stack.deps.s3.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: `uploads/${bob.userId}/` }));
    expect(uploads.Uploads ?? []).toEqual([]);
    const left = await partition(stack, bob.userId);
    expect(left).toEqual([expect.objectContaining({ sk: 'PAYMENT#in_test_1', amountCents: 899 })]);
    const tenYears = Date.parse('2025-03-01T10:00:00.000Z') / 1000 + PAYMENT_RETENTION_YEARS * 365.25 * 86_400;
    expect(Math.abs((left[0]!.expiresAt as number) - tenYears)).toBeLessThan(86_400);
    const claim = await stack.deps.db.send(new GetCommand({ TableName: stack.config.tables.app, Key: emailKey(bob.email) }));
    expect(claim.Item).toBeUndefined();
    expect((await api(stack, 'GET', '/me', { token: bob.token })).status).toBe(401);
    expect((await login(bob.email)).body.error).toBe('invalid credentials');

    // The audit trail outlives the account, by address and by id; the address is free again.
    const byEmail = await supportJson<AuditEntry[]>('audit', bob.email);
    expect(byEmail).toEqual([
      expect.objectContaining({ action: 'terminate', reason: 'repeated strikes', operator: { name: 'test-operator', credentials: 'local' } }),
    ]);
    expect(await supportJson<AuditEntry[]>('audit', bob.userId)).toEqual(byEmail);
    const gone = await support('find', bob.email);
    expect(gone.stdout).toContain(`No account matches "${bob.email}"`);
    expect(gone.stdout).toMatch(/terminate\s+done\s+test-operator \(local\)\s+repeated strikes/);
    // The address is free again: signing up makes a new account, whose confirmation link arrives.
    expect(
      (
        await api(stack, 'POST', '/register', {
          body: { displayName: 'bob again', email: bob.email, password: strongPassword, acceptTerms: true, ageConfirmed: true },
        })
      ).status,
    ).toBe(202);
    const confirmation = (await mailsTo(stack, bob.email)).at(-1);
    expect(confirmation?.subject).toBe('Confirm your e-mail for Loopcast');
    expect((await api(stack, 'POST', '/confirm', { body: { token: tokenOf(confirmation) } })).body.user).toMatchObject({ displayName: 'bob again' });
  }, 240_000);

  test('terminate again on a terminated id sweeps what arrived since (a late transcode output)', async () => {
    const carol = await signedInUser(stack, 'carol');
    expect((await supportJson<AuditEntry>('terminate', carol.email, '--reason', 'closed on request', '--yes')).details.itemsDeleted).toBeGreaterThan(0);
    await stack.deps.s3.send(new PutObjectCommand({ Bucket: stack.config.buckets.media, Key: `media/${carol.userId}/late/stream.mp4`, Body: 'late output' }));

    const again = await supportJson<AuditEntry>('terminate', carol.userId, '--reason', 'sweep after transcode', '--yes');
    expect(again).toMatchObject({ userId: carol.userId, action: 'terminate', outcome: 'done', details: { objectsDeleted: 1, itemsDeleted: 0 } });
    expect(await objectKeys(stack, carol.userId)).toEqual([]);
    expect((await supportJson<AuditEntry[]>('audit', carol.email)).map((e) => e.reason)).toEqual(['closed on request', 'sweep after transcode']);
    expect(await support('terminate', 'never-was@example.com', '--reason', 'x', '--yes')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no account matches'),
    });
  }, 60_000);
});

describe('support use cases with a paying account (in process, fake Stripe)', () => {
  let fake: FakeStripe;
  let paying: LocalStack;
  const operator = { name: 'test-operator', credentials: 'local' };

  beforeAll(async () => {
    fake = await startFakeStripe();
    for (const period of billingPeriods) {
      fake.seedPrice({
        lookupKey: stripeLookupKey('basic', period),
        unitAmount: periodPriceCents(plans.basic, period)!,
        productName: 'basic',
        interval: period === 'year' ? 'year' : 'month',
        intervalCount: { month: 1, '3months': 3, '6months': 6, year: 1 }[period],
      });
    }
    paying = await startTestStack({ stripe: { secretKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url } });
  }, 60_000);
  afterAll(async () => {
    await paying?.stop();
    await fake?.stop();
  });

  /** Stripe's webhooks of what just happened at the fake, delivered to the stack and accepted. */
  async function deliverAll(events: WebhookDelivery[]) {
    for (const delivery of events) expect((await fake.deliver(delivery, `${paying.urls.api}/billing/webhook`)).status).toBe(200);
  }

  /** A user who paid for Basic through checkout, with the webhooks applied. */
  async function subscriber(label: string) {
    const user = await signedInUser(paying, label);
    const started = await api(paying, 'POST', '/billing/checkout', { token: user.token, body: { plan: 'basic', period: 'month' } });
    const outcome = fake.completeCheckout(/cs_test_[A-Za-z0-9]+/.exec(started.body.url)![0]);
    await deliverAll(outcome.events);
    expect((await api(paying, 'GET', '/subscription', { token: user.token })).body).toMatchObject({ plan: 'basic', state: 'active' });
    return { ...user, subscriptionId: outcome.subscription.id };
  }

  test('terminate cancels the subscription at Stripe first, keeps the paid invoice and records the customer', async () => {
    const dana = await subscriber('dana');
    const stripe = new Stripe(fake.apiKey, fake.clientOptions);
    const withoutStripe = await supportContext(paying.deps, { operator });
    await expect(terminateUser(withoutStripe, dana.email, 'no longer wanted')).rejects.toThrow(SupportRefusal);
    expect((await stripe.subscriptions.retrieve(dana.subscriptionId)).status).toBe('active');
    expect(await auditTrail(withoutStripe, dana.email)).toEqual([]);

    const context = await supportContext(paying.deps, { operator, subscriptions: new StripeSubscriptionControl({ secretKey: fake.apiKey, apiUrl: fake.url }) });
    const entry = await terminateUser(context, dana.email, 'no longer wanted');
    expect((await stripe.subscriptions.retrieve(dana.subscriptionId)).status).toBe('canceled');
    expect(entry.details).toMatchObject({ subscriptionCanceled: dana.subscriptionId, paymentCustomer: expect.stringMatching(/^cus_/), paymentsKept: 1 });
    expect((await partition(paying, dana.userId)).map((item) => item.sk)).toEqual([expect.stringMatching(/^PAYMENT#in_/)]);
  }, 60_000);

  test('suspend pauses billing at Stripe (the renewal is voided, no payment recorded); reactivate charges again', async () => {
    const fay = await subscriber('fay');
    const stripe = new Stripe(fake.apiKey, fake.clientOptions);
    const context = await supportContext(paying.deps, { operator, subscriptions: new StripeSubscriptionControl({ secretKey: fake.apiKey, apiUrl: fake.url }) });
    const payments = async () => (await partition(paying, fay.userId)).filter((item) => String(item.sk).startsWith('PAYMENT#')).length;

    const suspended = await suspendUser(context, fay.email, 'chargeback under review');
    expect(suspended.details).toMatchObject({ billingPaused: fay.subscriptionId });
    expect((await stripe.subscriptions.retrieve(fay.subscriptionId)).pause_collection).toEqual({ behavior: 'void', resumes_at: null });
    await deliverAll(fake.advancePeriod(fay.subscriptionId).events);
    expect(await payments()).toBe(1); // only the first, paid at checkout

    const reactivated = await reactivateUser(context, fay.email, 'resolved');
    expect(reactivated.details).toEqual({ status: 'active', billingResumed: fay.subscriptionId });
    expect((await stripe.subscriptions.retrieve(fay.subscriptionId)).pause_collection).toBeNull();
    await deliverAll(fake.advancePeriod(fay.subscriptionId).events);
    expect(await payments()).toBe(2);
    const token = (await api(paying, 'POST', '/login', { body: { email: fay.email, password: strongPassword } })).body.token;
    expect((await api(paying, 'GET', '/subscription', { token })).body).toMatchObject({
      plan: 'basic',
      state: 'active',
      payments: [expect.anything(), expect.anything()],
    });
  }, 60_000);

  test('suspend where Stripe is not configured, or failing, still suspends, and the audit entry says billing was not paused', async () => {
    const gus = await subscriber('gus');
    const entry = await suspendUser(await supportContext(paying.deps, { operator }), gus.email, 'abuse report');
    expect(entry).toMatchObject({
      outcome: 'done',
      details: { billingPaused: `not changed: ${gus.subscriptionId} is at the payment provider, which is not configured here` },
    });
    expect((await new Stripe(fake.apiKey, fake.clientOptions).subscriptions.retrieve(gus.subscriptionId)).pause_collection).toBeNull();
    expect((await api(paying, 'POST', '/login', { body: { email: gus.email, password: strongPassword } })).body.error).toBe('account suspended');

    const hal = await subscriber('hal');
    const unavailable = async () => {
      throw new Error('Stripe is unavailable');
    };
    const failing = await supportContext(paying.deps, {
      operator,
      subscriptions: { cancel: unavailable, pauseBilling: unavailable, resumeBilling: unavailable },
    });
    expect(await suspendUser(failing, hal.email, 'abuse report')).toMatchObject({
      outcome: 'done',
      details: { billingPaused: `not changed: the payment provider failed for ${hal.subscriptionId} (Stripe is unavailable); change it in its dashboard` },
    });
    expect((await api(paying, 'POST', '/login', { body: { email: hal.email, password: strongPassword } })).body.error).toBe('account suspended');
  }, 60_000);

  test('a step that fails is recorded as failed with the error; running it again finishes the job', async () => {
    const erin = await signedInUser(paying, 'erin');
    const context = await supportContext(paying.deps, { operator });
    const failing = {
      ...context,
      objects: {
        erase: async () => {
          throw new Error('S3 is unavailable');
        },
      },
    };
    await expect(terminateUser(failing, erin.email, 'closed on request')).rejects.toThrow('S3 is unavailable');
    expect(await auditTrail(context, erin.email)).toEqual([
      expect.objectContaining({ action: 'terminate', outcome: 'failed', details: { error: 'S3 is unavailable' } }),
    ]);
    // Sign-in is already refused: the status changed before the failing step.
    expect((await api(paying, 'POST', '/login', { body: { email: erin.email, password: strongPassword } })).body.error).toBe('invalid credentials');

    expect((await terminateUser(context, erin.email, 'closed on request')).outcome).toBe('done');
    expect(await partition(paying, erin.userId)).toEqual([]);
    expect((await auditTrail(context, erin.userId)).map((e) => e.outcome)).toEqual(['failed', 'done']);
  });
});
