// DynamoDB cancels a transaction with the reason TransactionConflict when another transaction or write touches one
// of its items at the same moment (two starts claiming the same user's running slot, a stop finishing while a
// start claims). Nothing was written and no condition was false: the right answer is to try again. The SDK does
// not retry these, and DynamoDB Local never produces them (it runs transactions one at a time).
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

export interface ConflictRetry {
  attempts: number;
  /** First wait; each retry waits up to twice as long, with full jitter. */
  baseDelayMs: number;
}

const defaultRetry: ConflictRetry = { attempts: 6, baseDelayMs: 25 };

/** True when the cancellation is only for conflicts with concurrent writes (no condition failed). */
export function cancelledByConflict(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  return codes.includes('TransactionConflict') && codes.every((code) => code === 'TransactionConflict' || code === 'None');
}

/** The condition that failed at `index` of the transaction's items, if that is why it was cancelled. */
export const conditionFailedAt = (error: unknown, index: number): boolean =>
  error instanceof TransactionCanceledException && error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';

/** TransactWriteItems, tried again after a jittered wait while DynamoDB cancels it for conflicts only. Any other
 * cancellation (a condition) or error is thrown to the caller, which knows what it means. */
export async function transactWrite(db: DynamoDBDocumentClient, input: TransactWriteCommandInput, retry: ConflictRetry = defaultRetry): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.send(new TransactWriteCommand(input));
      return;
    } catch (error) {
      if (!cancelledByConflict(error) || attempt >= retry.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * retry.baseDelayMs * 2 ** (attempt - 1)));
    }
  }
}
