// Unfinished uploads against the plan's storage: one item per upload (`USER#<id>` / `STAGED#<upload id>`) holding
// its declared length until the upload ends or expires, so partial uploads left unjoined and uploads left unfinished
// cannot park storage beyond the plan (tus keeps their bytes for days).
import { DeleteCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { StagingReservations } from '../../core/media/ports';
import { stagedUploadKey, usageKey, userPartition } from './keys';
import { transactWrite } from './transactions';

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

// The web app creates up to 3 files x 4 partial uploads at once: each round lets one of them through, so a dozen
// rounds with a jittered wait between them let every one of a burst through instead of failing the last ones.
const RESERVE_ATTEMPTS = 16;
const jitteredWait = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10 * 2 ** attempt, 200)));

export class DynamoStagingStore implements StagingReservations {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async stagedBytes(userId: string, now: Date, excluding: readonly string[] = []): Promise<number> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :staged)',
        ExpressionAttributeValues: { ':user': userPartition(userId), ':staged': 'STAGED#' },
        ConsistentRead: true,
      }),
    );
    // DynamoDB deletes expired items lazily: an upload past its expiry holds nothing any more.
    return Items.filter((item) => Number(item.expiresAt) > epochSeconds(now) && !excluding.includes(String(item.uploadId))).reduce(
      (sum, item) => sum + Number(item.bytes),
      0,
    );
  }

  async reserve(userId: string, uploadId: string, bytes: number, options: { storageLimit: number; expiresAt: Date; now: Date }): Promise<boolean> {
    // Optimistic: the usage item's `stagingVersion` moves with every reservation, and the write is conditional on
    // the version and the stored bytes read, so two uploads created at once cannot both take the last room. The
    // usage item is read before the reservations, never beside them: a reservation committed between the two reads
    // then moves the version past the one read (and the write fails), whereas read in the other order, or at once,
    // the version could already count a reservation that the query had not seen (CI saw 4 of 8 take 3 rooms).
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      if (attempt > 0) await jitteredWait(attempt);
      const { Item: usage } = await this.db.send(new GetCommand({ TableName: this.table, Key: usageKey(userId), ConsistentRead: true }));
      const staged = await this.stagedBytes(userId, options.now);
      const stored = Number(usage?.storageBytes ?? 0);
      if (stored + staged + bytes > options.storageLimit) return false;
      const version = Number(usage?.stagingVersion ?? 0);
      try {
        await transactWrite(this.db, {
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: { ...stagedUploadKey(userId, uploadId), entity: 'staged upload', uploadId, bytes, expiresAt: epochSeconds(options.expiresAt) },
              },
            },
            {
              Update: {
                TableName: this.table,
                Key: usageKey(userId),
                // storageBytes starts at 0 here too: registration compares it with what it read.
                UpdateExpression: 'SET stagingVersion = :next, storageBytes = if_not_exists(storageBytes, :zero)',
                ConditionExpression: [
                  usage?.stagingVersion === undefined ? 'attribute_not_exists(stagingVersion)' : 'stagingVersion = :version',
                  usage?.storageBytes === undefined ? 'attribute_not_exists(storageBytes)' : 'storageBytes = :stored',
                ].join(' AND '),
                ExpressionAttributeValues: {
                  ':next': version + 1,
                  ':zero': 0,
                  ...(usage?.stagingVersion === undefined ? {} : { ':version': version }),
                  ...(usage?.storageBytes === undefined ? {} : { ':stored': stored }),
                },
              },
            },
          ],
        });
        return true;
      } catch (error) {
        // Another reservation, registration or deletion changed the usage meanwhile: count again.
        if (!(error instanceof TransactionCanceledException)) throw error;
      }
    }
    throw new Error('usage kept changing while reserving storage for an upload');
  }

  async release(userId: string, uploadIds: readonly string[]): Promise<void> {
    await Promise.all(uploadIds.map((uploadId) => this.db.send(new DeleteCommand({ TableName: this.table, Key: stagedUploadKey(userId, uploadId) }))));
  }
}
