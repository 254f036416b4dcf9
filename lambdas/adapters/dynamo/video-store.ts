import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { RegisterOutcome, UploadAllowance, UsageChange, VideoStore } from '../../core/media/ports';
import type { Video } from '../../core/media/videos';
import { usageKey, userPartition, videoKey } from './keys';
import { conditionFailedAt, transactWrite } from './transactions';
import { queryAll } from './pages';

const strip = ({ pk: _pk, sk: _sk, entity: _entity, ...rest }: Record<string, unknown>) => rest as unknown as Video;

/** An update of the item's attributes: SET the changes, REMOVE the attributes named, only when `condition` holds
 * (its names and values are given with it). */
function itemUpdate(
  changes: Partial<Video>,
  removed: readonly (keyof Video)[],
  condition: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
) {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const setPart = entries.length ? `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}` : '';
  const removePart = removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : '';
  return {
    ConditionExpression: condition.expression,
    UpdateExpression: `${setPart}${removePart}`.trim(),
    ExpressionAttributeNames: {
      ...condition.names,
      ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      ...Object.fromEntries(removed.map((name, i) => [`#r${i}`, name])),
    },
    ExpressionAttributeValues: { ...condition.values, ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])) },
  };
}

/** Media items on the single table, counted in the user's usage item in the same transactions. */
export class DynamoVideoStore implements VideoStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async register(video: Video, allowance: UploadAllowance): Promise<RegisterOutcome> {
    // The usage item is read first to know whether the upload count continues this cycle or starts afresh; the
    // conditions make a concurrent change fail the transaction, which is then tried again on fresh numbers.
    for (let attempt = 0; attempt < 5; attempt++) {
      const { Item: usage } = await this.db.send(new GetCommand({ TableName: this.table, Key: usageKey(video.userId), ConsistentRead: true }));
      const stored = Number(usage?.storageBytes ?? 0);
      const sameCycle = usage?.uploadsCycle === allowance.cycleStart;
      const uploads = sameCycle ? Number(usage?.uploadsInCycle ?? 0) : 0;
      if (uploads >= allowance.uploadsPerCycle) return (await this.exists(video)) ? 'already registered' : 'video upload limit';
      if (stored + video.storedBytes > allowance.storageBytes) return (await this.exists(video)) ? 'already registered' : 'storage limit';
      try {
        await transactWrite(this.db, {
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: { ...videoKey(video.userId, video.id), entity: 'video', ...video },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Update: {
                TableName: this.table,
                Key: usageKey(video.userId),
                UpdateExpression: 'SET storageBytes = :stored, uploadsCycle = :cycle, uploadsInCycle = :uploads',
                ConditionExpression: usage
                  ? 'storageBytes = :storedBefore AND ' +
                    (sameCycle ? 'uploadsCycle = :cycle AND uploadsInCycle = :uploadsBefore' : '(attribute_not_exists(uploadsCycle) OR uploadsCycle <> :cycle)')
                  : 'attribute_not_exists(pk)',
                ExpressionAttributeValues: {
                  ':stored': stored + video.storedBytes,
                  ':cycle': allowance.cycleStart,
                  ':uploads': uploads + 1,
                  ...(usage ? { ':storedBefore': stored } : {}),
                  ...(usage && sameCycle ? { ':uploadsBefore': uploads } : {}),
                },
              },
            },
          ],
        });
        return 'registered';
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        if (conditionFailedAt(error, 0)) return 'already registered';
      }
    }
    throw new Error('usage kept changing while registering an upload');
  }

  private async exists(video: Video): Promise<boolean> {
    return (await this.get(video.userId, video.id)) !== undefined;
  }

  async get(userId: string, videoId: string): Promise<Video | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: videoKey(userId, videoId), ConsistentRead: true }));
    return Item ? strip(Item) : undefined;
  }

  async list(userId: string): Promise<Video[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :user AND begins_with(sk, :video)',
      ExpressionAttributeValues: { ':user': userPartition(userId), ':video': 'VIDEO#' },
    });
    return items.map(strip).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async updateWhileEncoding(
    userId: string,
    videoId: string,
    changes: Partial<Video>,
    usage: UsageChange = {},
    removed: readonly (keyof Video)[] = [],
  ): Promise<boolean | 'storage limit'> {
    const update = {
      TableName: this.table,
      Key: videoKey(userId, videoId),
      ...itemUpdate(changes, removed, { expression: '#status = :encoding', names: { '#status': 'status' }, values: { ':encoding': 'encoding' } }),
    };
    const delta = usage.storedBytesDelta ?? 0;
    const limited = usage.storageLimit !== undefined && delta > 0;
    const storage = delta
      ? {
          Update: {
            TableName: this.table,
            Key: usageKey(userId),
            UpdateExpression: 'ADD storageBytes :delta',
            // DynamoDB conditions cannot add: "count + delta <= limit" is "count <= limit - delta".
            ...(limited ? { ConditionExpression: 'storageBytes <= :mostBefore' } : {}),
            ExpressionAttributeValues: { ':delta': delta, ...(limited ? { ':mostBefore': usage.storageLimit! - delta } : {}) },
          },
        }
      : undefined;
    // The upload goes back only to the cycle it was counted in; once a new cycle counts from zero there is nothing
    // to give back, and the item's change is written alone.
    const refund = usage.refundUploadOf
      ? {
          Update: {
            TableName: this.table,
            Key: usageKey(userId),
            UpdateExpression: 'ADD uploadsInCycle :minusOne',
            ConditionExpression: 'uploadsCycle = :cycle AND uploadsInCycle > :zero',
            ExpressionAttributeValues: { ':minusOne': -1, ':cycle': usage.refundUploadOf, ':zero': 0 },
          },
        }
      : undefined;
    for (const withRefund of refund ? [true, false] : [false]) {
      const usageItems = [...(storage ? [storage] : []), ...(withRefund && refund ? [refund] : [])];
      try {
        if (usageItems.length === 0) await this.db.send(new UpdateCommand(update));
        else await transactWrite(this.db, { TransactItems: [{ Update: update }, ...usageItems] });
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        if (!(error instanceof TransactionCanceledException)) throw error;
        if (conditionFailedAt(error, 0)) return false;
        if (limited && conditionFailedAt(error, 1)) return 'storage limit';
        if (!withRefund || !conditionFailedAt(error, usageItems.length)) throw error;
      }
    }
    return false;
  }

  async updateWhileReady(userId: string, videoId: string, revision: number, changes: Partial<Video>, removed: readonly (keyof Video)[] = []): Promise<boolean> {
    // Items of the upload's transcode have no revision attribute: revision 0.
    const sameRevision = revision === 0 ? 'attribute_not_exists(#revision)' : '#revision = :revision';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: videoKey(userId, videoId),
          ...itemUpdate(changes, removed, {
            expression: `#status = :ready AND ${sameRevision}`,
            names: { '#status': 'status', '#revision': 'revision' },
            values: { ':ready': 'ready', ...(revision === 0 ? {} : { ':revision': revision }) },
          }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async rename(userId: string, videoId: string, title: string, now: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: videoKey(userId, videoId),
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression: 'SET title = :title, updatedAt = :now',
        ExpressionAttributeValues: { ':title': title, ':now': now.toISOString() },
      }),
    );
  }

  async remove(video: Video): Promise<void> {
    try {
      await transactWrite(this.db, {
        TransactItems: [
          { Delete: { TableName: this.table, Key: videoKey(video.userId, video.id), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Update: {
              TableName: this.table,
              Key: usageKey(video.userId),
              UpdateExpression: 'ADD storageBytes :delta',
              ExpressionAttributeValues: { ':delta': -video.storedBytes },
            },
          },
        ],
      });
    } catch (error) {
      // Deleted by a concurrent request: nothing left to do.
      if (!(error instanceof TransactionCanceledException)) throw error;
    }
  }
}
