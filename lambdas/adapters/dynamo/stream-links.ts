import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { StreamLinks } from '../../core/media/ports';
import type { StreamPlaylist } from '../../core/streams/playlist';
import { streamKey, userPartition } from './keys';
import { queryAll } from './pages';

/** Streams that are running: the states in which their media may not change (lambdas/core/streams). */
const RUNNING = new Set(['pending', 'encoding', 'started', 'stopping']);

interface StreamMediaRef {
  id: string;
  status: string;
  videoId?: string;
  audioId?: string;
  playlist?: StreamPlaylist;
}

/** The media library's view of streams (lambdas/core/media/ports.ts), on the streams' items. */
export class DynamoStreamLinks implements StreamLinks {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** What streams waiting for an item do when it is ready or failed (the streaming engine). */
    private readonly onMediaSettled: (userId: string, streamIds: string[]) => Promise<void>,
  ) {}

  private async streamsUsing(userId: string, videoId: string): Promise<StreamMediaRef[]> {
    // Filtered after each page is read: a user's streams can span pages before any matches.
    return (await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :user AND begins_with(sk, :stream)',
      FilterExpression: 'videoId = :media OR audioId = :media OR contains(playlist.videoIds, :media)',
      ExpressionAttributeValues: { ':user': userPartition(userId), ':stream': 'STREAM#', ':media': videoId },
      ProjectionExpression: 'id, #status, videoId, audioId, playlist',
      ExpressionAttributeNames: { '#status': 'status' },
    })) as unknown as StreamMediaRef[];
  }

  async usedByRunningStream(userId: string, videoId: string): Promise<boolean> {
    return (await this.streamsUsing(userId, videoId)).some((stream) => RUNNING.has(stream.status));
  }

  async forget(userId: string, videoId: string): Promise<void> {
    for (const stream of await this.streamsUsing(userId, videoId)) {
      if (stream.playlist?.videoIds.includes(videoId)) {
        await this.leavePlaylist(userId, stream.id, stream.playlist, videoId);
        continue;
      }
      const field = stream.videoId === videoId ? 'videoId' : 'audioId';
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.table,
            Key: streamKey(userId, stream.id),
            UpdateExpression: `REMOVE ${field}`,
            ConditionExpression: `${field} = :media AND NOT #status IN (:pending, :encoding, :started, :stopping)`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':media': videoId, ':pending': 'pending', ':encoding': 'encoding', ':started': 'started', ':stopping': 'stopping' },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
  }

  /** A deleted video leaves the stopped stream's playlist (the playlist goes with its last video). */
  private async leavePlaylist(userId: string, streamId: string, playlist: StreamPlaylist, videoId: string): Promise<void> {
    const videoIds = playlist.videoIds.filter((id) => id !== videoId);
    const notRunning = 'playlist.revision = :revision AND NOT #status IN (:pending, :encoding, :started, :stopping)';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: streamKey(userId, streamId),
          UpdateExpression: videoIds.length ? 'SET playlist = :playlist, videoId = :first' : 'REMOVE playlist, videoId',
          ConditionExpression: notRunning,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':revision': playlist.revision,
            ':pending': 'pending',
            ':encoding': 'encoding',
            ':started': 'started',
            ':stopping': 'stopping',
            ...(videoIds.length ? { ':playlist': { ...playlist, videoIds, revision: playlist.revision + 1 }, ':first': videoIds[0] } : {}),
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async mediaSettled(userId: string, videoId: string): Promise<void> {
    const waiting = (await this.streamsUsing(userId, videoId)).filter((stream) => stream.status === 'encoding').map((stream) => stream.id);
    if (waiting.length) await this.onMediaSettled(userId, waiting);
  }
}
