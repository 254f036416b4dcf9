import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cancelledByConflict, conditionFailedAt, transactWrite } from './transactions';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A client whose sends fail with the given errors in turn, then succeed; it counts the attempts. */
function clientFailing(...errors: Error[]) {
  const client = {
    attempts: 0,
    send: async () => {
      client.attempts += 1;
      const error = errors.shift();
      if (error) throw error;
      return {};
    },
  };
  return client;
}

const input = { TransactItems: [] };
const quick = { attempts: 4, baseDelayMs: 1 };

describe('DynamoDB transactions', () => {
  test('a cancellation for conflicts only is tried again until it goes through', async () => {
    const client = clientFailing(cancelled('TransactionConflict', 'None'), cancelled('None', 'TransactionConflict'));
    await transactWrite(client as unknown as DynamoDBDocumentClient, input, quick);
    expect(client.attempts).toBe(3);
  });

  test('conflicts that do not end are thrown after the last attempt', async () => {
    const conflicts = Array.from({ length: 5 }, () => cancelled('TransactionConflict'));
    const client = clientFailing(...conflicts);
    await expect(transactWrite(client as unknown as DynamoDBDocumentClient, input, quick)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(client.attempts).toBe(4);
  });

  test('a failed condition is thrown at once, also next to a conflict, and names its item', async () => {
    const client = clientFailing(cancelled('TransactionConflict', 'ConditionalCheckFailed'));
    const error = await transactWrite(client as unknown as DynamoDBDocumentClient, input, quick).catch((thrown: unknown) => thrown);
    expect(client.attempts).toBe(1);
    expect(conditionFailedAt(error, 1)).toBe(true);
    expect(conditionFailedAt(error, 0)).toBe(false);
  });

  test('other errors are not conflicts', () => {
    expect(cancelledByConflict(new Error('network'))).toBe(false);
    expect(cancelledByConflict(cancelled('None', 'None'))).toBe(false);
    expect(cancelledByConflict(cancelled('ThrottlingError'))).toBe(false);
    expect(cancelledByConflict(cancelled('TransactionConflict'))).toBe(true);
  });
});
