import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { createTestTable } from '../../../test/helpers/test-table';
import { usageKey } from './keys';
import { DynamoStagingStore } from './staging-store';

let db: DynamoDBDocumentClient;
let table: string;
let store: DynamoStagingStore;
beforeAll(async () => {
  ({ db, table } = await createTestTable());
  store = new DynamoStagingStore(db, table);
});

const now = new Date('2026-11-25T10:00:00Z');
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
const options = { storageLimit: 100, expiresAt: later(3600), now };

describe('staged uploads', () => {
  test('each holds its length until released; beside the others they stay within the limit', async () => {
    const user = randomUUID();
    expect(await store.reserve(user, 'a', 60, options)).toBe(true);
    expect(await store.reserve(user, 'b', 60, options)).toBe(false);
    expect(await store.reserve(user, 'b', 40, options)).toBe(true);
    expect(await store.stagedBytes(user, now)).toBe(100);
    // A final upload is checked without the partials it joins.
    expect(await store.stagedBytes(user, now, ['a'])).toBe(40);
    await store.release(user, ['a']);
    expect(await store.stagedBytes(user, now)).toBe(40);
    // The usage item exists now, with a stored count registration can compare against.
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: usageKey(user), ConsistentRead: true }));
    expect(Item).toMatchObject({ storageBytes: 0 });
  });

  test('an expired upload holds nothing', async () => {
    const user = randomUUID();
    expect(await store.reserve(user, 'a', 90, { ...options, expiresAt: later(60) })).toBe(true);
    expect(await store.reserve(user, 'b', 90, options)).toBe(false);
    expect(await store.reserve(user, 'b', 90, { ...options, now: later(61) })).toBe(true);
  });

  test('reservations made at the same time cannot both take the last room', async () => {
    const user = randomUUID();
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => store.reserve(user, `u${i}`, 30, options)));
    expect(outcomes.filter(Boolean)).toHaveLength(3);
    expect(await store.stagedBytes(user, now)).toBe(90);
  });

  test('a burst of reservations that all fit all succeed (the web app creates up to 12 partial uploads at once)', async () => {
    const user = randomUUID();
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => store.reserve(user, `u${i}`, 8, options)));
    expect(outcomes.every(Boolean)).toBe(true);
    expect(await store.stagedBytes(user, now)).toBe(96);
  });
});
