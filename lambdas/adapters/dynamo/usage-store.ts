import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Usage, UsageStore } from '../../core/billing/ports';
import { usageKey, userPartition } from './keys';

/** Per-user counters in one item: bytes stored, streams running, uploads in the current billing cycle
 * (`uploadsCycle` names the cycle the count belongs to; a new cycle starts from zero). The media and streaming
 * stores change them inside their own conditional writes, so limits hold under concurrency. */
export class DynamoUsageStore implements UsageStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async usage(userId: string, cycleStart: string): Promise<Usage> {
    const [{ Item }, youtube] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.table, Key: usageKey(userId), ConsistentRead: true })),
      this.db.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :user AND begins_with(sk, :channel)',
          FilterExpression: 'kind = :youtube',
          ExpressionAttributeValues: { ':user': userPartition(userId), ':channel': 'CHANNEL#', ':youtube': 'youtube' },
          Select: 'COUNT',
        }),
      ),
    ]);
    return {
      storageBytes: Number(Item?.storageBytes ?? 0),
      runningStreams: Number(Item?.runningStreams ?? 0),
      uploadsThisCycle: Item?.uploadsCycle === cycleStart ? Number(Item?.uploadsInCycle ?? 0) : 0,
      youtubeChannels: youtube.Count ?? 0,
    };
  }
}
