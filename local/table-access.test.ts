import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { allowed, guardedTableClient, leadingKeysOf } from './table-access';

const table = 'app';
const keysOf = (command: { constructor: { name: string }; input: object }) => leadingKeysOf(command.constructor.name, command.input as Record<string, unknown>);

test('the partition keys each kind of request names, as DynamoDB would put them in dynamodb:LeadingKeys', () => {
  expect(keysOf(new GetCommand({ TableName: table, Key: { pk: 'USER#u1', sk: 'PROFILE' } }))).toEqual({ index: false, keys: ['USER#u1'] });
  expect(keysOf(new PutCommand({ TableName: table, Item: { pk: 'CONN#c1', sk: 'CONN' } }))).toEqual({ index: false, keys: ['CONN#c1'] });
  expect(
    keysOf(
      new BatchWriteCommand({
        RequestItems: { [table]: [{ PutRequest: { Item: { pk: 'USER#u1', sk: 'a' } } }, { DeleteRequest: { Key: { pk: 'TUS#x', sk: 'LOCK' } } }] },
      }),
    ),
  ).toEqual({ index: false, keys: ['USER#u1', 'TUS#x'] });
  expect(
    keysOf(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: table, Key: { pk: 'USER#u1', sk: 'USAGE' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } } },
          { ConditionCheck: { TableName: table, Key: { pk: 'EMAIL#a@b.c', sk: 'EMAIL' }, ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }),
    ),
  ).toEqual({ index: false, keys: ['USER#u1', 'EMAIL#a@b.c'] });
  expect(
    keysOf(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :video)',
        ExpressionAttributeValues: { ':user': 'USER#u1', ':video': 'VIDEO#' },
      }),
    ),
  ).toEqual({ index: false, keys: ['USER#u1'] });
  expect(
    keysOf(
      new QueryCommand({
        TableName: table,
        IndexName: 'gsi1',
        KeyConditionExpression: '#k = :k',
        ExpressionAttributeNames: { '#k': 'gsi1pk' },
        ExpressionAttributeValues: { ':k': 'CONNS#u1' },
      }),
    ),
  ).toEqual({ index: true, keys: ['CONNS#u1'] });
  expect(keysOf(new ScanCommand({ TableName: table }))).toEqual({ index: false, keys: [] });
  expect(keysOf(new DescribeTableCommand({ TableName: table }))).toBeUndefined();
});

test('a request is allowed when every key it names is of a family the function was given; a scan never', () => {
  const access = { items: ['user', 'connection'] as const, index: ['connectionsOfUser'] as const };
  expect(allowed(access, { index: false, keys: ['USER#u1', 'CONN#c'] })).toBe(true);
  expect(allowed(access, { index: false, keys: ['USER#u1', 'SESSION#h'] })).toBe(false);
  expect(allowed(access, { index: true, keys: ['CONNS#u1'] })).toBe(true);
  expect(allowed(access, { index: true, keys: ['SESSIONS#u1'] })).toBe(false);
  expect(allowed(access, { index: false, keys: [] })).toBe(false);
  expect(allowed('whole table', { index: false, keys: [] })).toBe(true);
});

test("the guarded client refuses with AWS's AccessDeniedException before sending, and passes the rest through", async () => {
  const sent: string[] = [];
  const db = {
    send: async (command: { constructor: { name: string } }) => sent.push(command.constructor.name),
    destroy: () => undefined,
  } as unknown as DynamoDBDocumentClient;
  const guarded = guardedTableClient(db, 'realtime-connections');
  await expect(guarded.send(new GetCommand({ TableName: table, Key: { pk: 'SESSION#h', sk: 'SESSION' } }))).rejects.toMatchObject({
    name: 'AccessDeniedException',
  });
  await guarded.send(new PutCommand({ TableName: table, Item: { pk: 'CONN#c1', sk: 'CONN' } }));
  expect(sent).toEqual(['PutCommand']);
  expect(guarded.destroy).toBe(db.destroy);
});
