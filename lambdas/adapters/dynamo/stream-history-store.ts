import { randomBytes } from 'node:crypto';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { HISTORY_RETENTION_DAYS, type StreamEvent, type StreamHistory } from '../../core/streams/history';
import { streamLogPrefix, userPartition } from './keys';
import { queryAll } from './pages';

/** A stream's events in its owner's partition (account closure removes them with everything else), sorted by time,
 * expiring after 90 days (the table's TTL). */
export class DynamoStreamHistory implements StreamHistory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async record(userId: string, streamId: string, event: StreamEvent): Promise<void> {
    const expiresAt = Math.floor(Date.parse(event.at) / 1000) + HISTORY_RETENTION_DAYS * 24 * 3600;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        // Two events of one millisecond keep their order of arrival closely enough; the suffix keeps both.
        Item: {
          pk: userPartition(userId),
          sk: `${streamLogPrefix(streamId)}${event.at}#${randomBytes(3).toString('hex')}`,
          entity: 'streamEvent',
          ...event,
          expiresAt,
        },
      }),
    );
  }

  async list(userId: string, streamId: string, since: Date): Promise<StreamEvent[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :user AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':user': userPartition(userId),
        ':from': `${streamLogPrefix(streamId)}${since.toISOString()}`,
        ':to': `${streamLogPrefix(streamId)}~`,
      },
      ProjectionExpression: '#at, kind, reason, durationSeconds, expiresAt',
      ExpressionAttributeNames: { '#at': 'at' },
    });
    const now = Date.now() / 1000;
    // DynamoDB removes expired items within days, not at once: readers skip them.
    return items.filter((item) => (item.expiresAt as number) > now).map(({ expiresAt: _expires, ...event }) => event as unknown as StreamEvent);
  }
}
