import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoKvStore, metadataItemKey } from './dynamo-kv-store';
import { createTestTable } from '../../../test/helpers/test-table';

let db: DynamoDBDocumentClient;
let table: string;
beforeAll(async () => ({ db, table } = await createTestTable()));
afterAll(() => db.destroy());

interface Cached {
  file: { id: string; size: number };
  'upload-id': string;
}

test('a value written by one store instance is read by another (as two Lambda containers would)', async () => {
  const writer = new DynamoKvStore<Cached>({ db, table, ttlSeconds: 60 });
  const reader = new DynamoKvStore<Cached>({ db, table, ttlSeconds: 60 });
  const value = { file: { id: 'uploads/u1/a', size: 42 }, 'upload-id': 'abc' };
  await writer.set('uploads/u1/a', value);
  expect(await reader.get('uploads/u1/a')).toEqual(value);
  expect(await reader.get('uploads/u1/other')).toBeUndefined();

  await reader.delete('uploads/u1/a');
  expect(await writer.get('uploads/u1/a')).toBeUndefined();
});

test('an entry past its TTL is not returned, even before DynamoDB removes it', async () => {
  const store = new DynamoKvStore<Cached>({ db, table, ttlSeconds: 60 });
  await db.send(
    new PutCommand({
      TableName: table,
      Item: { ...metadataItemKey('uploads/u1/old'), value: JSON.stringify({ stale: true }), expiresAt: Math.floor(Date.now() / 1000) - 1 },
    }),
  );
  expect(await store.get('uploads/u1/old')).toBeUndefined();
});
