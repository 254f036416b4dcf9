import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ERRORS } from '@tus/utils';
import { DynamoLocker, lockItemKey } from './dynamo-locker';
import { createTestTable } from '../../../test/helpers/test-table';

let db: DynamoDBDocumentClient;
let table: string;
beforeAll(async () => ({ db, table } = await createTestTable()));
afterAll(() => db.destroy());

// Each locker stands for a separate Lambda container: they share nothing but the table.
const newLocker = (options: { leaseMs?: number; heartbeatMs?: number; acquireTimeoutMs?: number } = {}) =>
  new DynamoLocker({ db, table, leaseMs: 1_500, heartbeatMs: 100, retryMs: 50, ...options });
const noSignal = () => new AbortController().signal;

test('a held lock makes the next request wait, asks the holder to release, and passes on at unlock', async () => {
  const events: string[] = [];
  const first = newLocker().newLock('uploads/u1/a');
  let releaseAsked!: () => void;
  const asked = new Promise<void>((resolve) => (releaseAsked = resolve));
  await first.lock(noSignal(), () => {
    events.push('first asked to release');
    releaseAsked();
  });
  events.push('first locked');

  const second = newLocker().newLock('uploads/u1/a');
  const secondLocked = second.lock(noSignal(), () => undefined).then(() => events.push('second locked'));
  await asked;
  await sleep(300); // the second keeps waiting while the first still holds the lock
  expect(events).toEqual(['first locked', 'first asked to release']);

  await first.unlock();
  events.push('first unlocked');
  await secondLocked;
  expect(events).toEqual(['first locked', 'first asked to release', 'first unlocked', 'second locked']);
  await second.unlock();
});

test('locks on different uploads do not wait for each other', async () => {
  const locker = newLocker({ acquireTimeoutMs: 1_000 });
  const a = locker.newLock('uploads/u1/x');
  const b = locker.newLock('uploads/u1/y');
  await a.lock(noSignal(), () => undefined);
  await b.lock(noSignal(), () => undefined);
  await Promise.all([a.unlock(), b.unlock()]);
});

test('concurrent requests from several containers hold the lock one at a time', async () => {
  let inside = 0;
  let overlaps = 0;
  let turns = 0;
  await Promise.all(
    Array.from({ length: 5 }, async () => {
      const lock = newLocker({ acquireTimeoutMs: 20_000 }).newLock('uploads/u1/busy');
      await lock.lock(noSignal(), () => undefined);
      inside += 1;
      if (inside > 1) overlaps += 1;
      await sleep(40);
      inside -= 1;
      turns += 1;
      await lock.unlock();
    }),
  );
  expect(turns).toBe(5);
  expect(overlaps).toBe(0);
});

test('the holder keeps its lease by heartbeat for longer than the lease itself', async () => {
  const holder = newLocker({ leaseMs: 1_000 }).newLock('uploads/u1/long');
  await holder.lock(noSignal(), () => undefined);
  await sleep(2_500);
  const waiting = newLocker({ acquireTimeoutMs: 400 }).newLock('uploads/u1/long');
  await expect(waiting.lock(noSignal(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  await holder.unlock();
});

test('a holder that died without unlocking blocks others only until its lease ends', async () => {
  const key = lockItemKey('uploads/u1/crashed');
  const leaseUntil = Date.now() + 700;
  await db.send(new PutCommand({ TableName: table, Item: { ...key, owner: 'a dead container', releaseRequested: false, leaseUntil, expiresAt: 0 } }));
  const lock = newLocker({ acquireTimeoutMs: 5_000 }).newLock('uploads/u1/crashed');
  await lock.lock(noSignal(), () => undefined);
  expect(Date.now()).toBeGreaterThanOrEqual(leaseUntil);
  const { Item } = await db.send(new GetCommand({ TableName: table, Key: key }));
  expect(Item?.owner).not.toBe('a dead container');
  await lock.unlock();
  expect((await db.send(new GetCommand({ TableName: table, Key: key }))).Item).toBeUndefined();
});

test('waiting ends with tus lock timeout when the holder does not let go, or when the request is aborted', async () => {
  const holder = newLocker().newLock('uploads/u1/stuck');
  await holder.lock(noSignal(), () => undefined);
  await expect(
    newLocker({ acquireTimeoutMs: 300 })
      .newLock('uploads/u1/stuck')
      .lock(noSignal(), () => undefined),
  ).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  const abort = new AbortController();
  const waiting = newLocker({ acquireTimeoutMs: 10_000 })
    .newLock('uploads/u1/stuck')
    .lock(abort.signal, () => undefined);
  abort.abort();
  await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  await holder.unlock();
});
