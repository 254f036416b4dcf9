import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Usage, UsageStore } from '../../core/billing/ports';
import { usageKey } from './keys';

/** Per-user counters in one item: bytes stored, streams running, uploads in the current billing cycle
 * (`uploadsCycle` names the cycle the count belongs to; a new cycle starts from zero). The media and streaming
 * stores change them inside their own conditional writes, so limits hold under concurrency. */
export class DynamoUsageStore implements UsageStore {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async usage(userId: string, cycleStart: string): Promise<Usage> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: usageKey(userId), ConsistentRead: true }));
    return {
      storageBytes: Number(Item?.storageBytes ?? 0),
      runningStreams: Number(Item?.runningStreams ?? 0),
      uploadsThisCycle: Item?.uploadsCycle === cycleStart ? Number(Item?.uploadsInCycle ?? 0) : 0,
    };
  }
}
