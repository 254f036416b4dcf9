// A stream's schedule and the reason its scheduled start was refused, on the stream item (lambdas/core/streams/
// scheduled-runs.ts). Written apart from the stream's other settings because a schedule may change in any state.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ErrorKey } from '../../core/errors';
import type { StreamSchedule } from '../../core/streams/schedule';
import type { ScheduleStore } from '../../core/streams/scheduled-runs';
import { streamKey } from './keys';

export class DynamoStreamScheduleStore implements ScheduleStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async setSchedule(userId: string, streamId: string, schedule: StreamSchedule | undefined, now: Date): Promise<boolean> {
    return this.update(userId, streamId, {
      ConditionExpression: 'attribute_exists(pk)',
      UpdateExpression: schedule ? 'SET schedule = :schedule, updatedAt = :now' : 'SET updatedAt = :now REMOVE schedule',
      ExpressionAttributeValues: { ':now': now.toISOString(), ...(schedule ? { ':schedule': schedule } : {}) },
    });
  }

  async noteStartRefused(userId: string, streamId: string, reason: ErrorKey, now: Date): Promise<boolean> {
    return this.update(userId, streamId, {
      ConditionExpression: '#status = :stopped',
      UpdateExpression: 'SET lastError = :reason, updatedAt = :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':stopped': 'stopped', ':reason': reason, ':now': now.toISOString() },
    });
  }

  private async update(userId: string, streamId: string, update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.table, Key: streamKey(userId, streamId), ...update }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
