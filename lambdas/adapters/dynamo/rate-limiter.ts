import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RateLimiter, RateLimitVerdict } from '../../core/accounts/ports';
import { rateKey } from './keys';

/** Fixed-window counters: one atomic ADD per attempt; the item expires (TTL) after its window. */
export class DynamoRateLimiter implements RateLimiter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitVerdict> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const windowStart = nowSeconds - (nowSeconds % windowSeconds);
    const windowEnd = windowStart + windowSeconds;
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: rateKey(key, windowStart),
        UpdateExpression: 'ADD attempts :one SET expiresAt = :end',
        ExpressionAttributeValues: { ':one': 1, ':end': windowEnd },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const attempts = Number(Attributes?.attempts ?? 1);
    return { allowed: attempts <= limit, retryAfterSeconds: Math.max(1, windowEnd - nowSeconds) };
  }
}
