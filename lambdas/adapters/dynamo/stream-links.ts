import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { StreamLinks, StreamMediaUse } from '../../core/media/ports';
import type { StreamPlaylist } from '../../core/streams/playlist';
import type { StreamStatus } from '../../core/streams/stream';
import { streamKey, userPartition } from './keys';
import { queryAll } from './pages';

/** `NOT #status IN (...)` for the statuses given (none: no condition on the status). */
function statusNotIn(statuses: readonly StreamStatus[]): { expression?: string; values: Record<string, string> } {
  if (statuses.length === 0) return { values: {} };
  const names = statuses.map((_, index) => `:status${index}`);
  return { expression: `NOT #status IN (${names.join(', ')})`, values: Object.fromEntries(statuses.map((status, index) => [names[index], status])) };
}

const allOf = (...conditions: (string | undefined)[]) => conditions.filter((condition) => condition !== undefined).join(' AND ');

/** The media library's view of streams (lambdas/core/media/ports.ts), on the streams' items: data only, the rules
 * of which statuses keep media are core's. */
export class DynamoStreamLinks implements StreamLinks {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async streamsUsing(userId: string, videoId: string): Promise<StreamMediaUse[]> {
    // Filtered after each page is read: a user's streams can span pages before any matches.
    return (await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :user AND begins_with(sk, :stream)',
      FilterExpression: 'videoId = :media OR audioId = :media OR contains(playlist.videoIds, :media)',
      ExpressionAttributeValues: { ':user': userPartition(userId), ':stream': 'STREAM#', ':media': videoId },
      ProjectionExpression: 'id, #status, videoId, audioId, playlist',
      ExpressionAttributeNames: { '#status': 'status' },
    })) as unknown as StreamMediaUse[];
  }

  async removeMedia(userId: string, streamId: string, field: 'videoId' | 'audioId', videoId: string, unlessStatus: readonly StreamStatus[]): Promise<boolean> {
    const status = statusNotIn(unlessStatus);
    return this.conditionalUpdate({
      Key: streamKey(userId, streamId),
      UpdateExpression: `REMOVE ${field}`,
      ConditionExpression: allOf(`${field} = :media`, status.expression),
      ...(status.expression ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: { ':media': videoId, ...status.values },
    });
  }

  async replacePlaylist(
    userId: string,
    streamId: string,
    revision: number,
    next: { playlist: StreamPlaylist; videoId: string } | undefined,
    unlessStatus: readonly StreamStatus[],
  ): Promise<boolean> {
    const status = statusNotIn(unlessStatus);
    return this.conditionalUpdate({
      Key: streamKey(userId, streamId),
      UpdateExpression: next ? 'SET playlist = :playlist, videoId = :first' : 'REMOVE playlist, videoId',
      ConditionExpression: allOf('playlist.revision = :revision', status.expression),
      ...(status.expression ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: { ':revision': revision, ...status.values, ...(next ? { ':playlist': next.playlist, ':first': next.videoId } : {}) },
    });
  }

  /** False when the condition does not hold (the stream changed meanwhile). */
  private async conditionalUpdate(
    input: Pick<
      ConstructorParameters<typeof UpdateCommand>[0],
      'Key' | 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
    >,
  ): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.table, ...input }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
