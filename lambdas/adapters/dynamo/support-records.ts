import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  UpdateCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ErasedRecords, UserRecords } from '../../core/support/ports';
import { connectionsOfUser, emailKey, emailTokensOfUser, oauthStatesOfUser, sessionsOfUser, telegramLinksOfUser, uploadsOfUser, userKey } from './keys';
import { queryAll } from './pages';

type Key = { pk: string; sk: string };
type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

const PAYMENT_PREFIX = 'PAYMENT#';

/** Erases an account's items from the single table (the support tool's termination, the owner's closure). */
export class DynamoUserRecords implements UserRecords {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async erase(user: { id: string; email?: string }, retainPaymentUntil: (paidAt: string) => Date): Promise<ErasedRecords> {
    if (user.email) {
      // Only the claim that still points at this account: the address may already belong to a new one.
      try {
        await this.db.send(
          new DeleteCommand({
            TableName: this.table,
            Key: emailKey(user.email),
            ConditionExpression: 'userId = :user',
            ExpressionAttributeValues: { ':user': user.id },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    // The user's items outside their partition, each kind indexed by user: open realtime connections, sessions,
    // unused e-mail links, Google consents and Telegram links in progress, tus uploads' metadata.
    for (const owner of [connectionsOfUser, sessionsOfUser, emailTokensOfUser, oauthStatesOfUser, telegramLinksOfUser, uploadsOfUser]) {
      await this.deleteAll(
        await this.keys({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :owner', ExpressionAttributeValues: { ':owner': owner(user.id) } }),
      );
    }

    const items = await this.keys({ KeyConditionExpression: 'pk = :user', ExpressionAttributeValues: { ':user': userKey(user.id).pk } }, ['paidAt']);
    const payments = items.filter((item) => item.sk.startsWith(PAYMENT_PREFIX));
    for (const payment of payments) {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: payment.pk, sk: payment.sk },
          UpdateExpression: 'SET expiresAt = :until',
          ExpressionAttributeValues: { ':until': Math.floor(retainPaymentUntil(String(payment.paidAt)).getTime() / 1000) },
        }),
      );
    }
    // The profile goes last: while any item is left, the account (status terminated) still names it.
    const profile = userKey(user.id).sk;
    const rest = items.filter((item) => !item.sk.startsWith(PAYMENT_PREFIX));
    await this.deleteAll(rest.filter((item) => item.sk !== profile));
    await this.deleteAll(rest.filter((item) => item.sk === profile));
    return { itemsDeleted: rest.length, paymentsKept: payments.length };
  }

  private async keys(query: Omit<QueryCommandInput, 'TableName'>, extra: string[] = []): Promise<(Key & Record<string, unknown>)[]> {
    return (await queryAll(this.db, { ...query, TableName: this.table, ProjectionExpression: ['pk', 'sk', ...extra].join(', ') })) as (Key &
      Record<string, unknown>)[];
  }

  /** BatchWriteItem in 25s, retrying what DynamoDB leaves unprocessed under load. */
  private async deleteAll(keys: Key[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 25) {
      let requests: WriteRequests | undefined = keys.slice(i, i + 25).map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } }));
      for (let attempt = 0; requests?.length; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 2_000)));
        const result: BatchWriteCommandOutput = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: requests } }));
        requests = result.UnprocessedItems?.[this.table];
      }
    }
  }
}
