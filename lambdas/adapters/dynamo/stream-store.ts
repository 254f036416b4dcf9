import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { ClaimOutcome, StreamStore } from '../../core/streams/ports';
import type { Stream, StreamHealth, StreamStatus } from '../../core/streams/stream';
import { streamKey, usageKey } from './keys';
import { conditionFailedAt, transactWrite } from './transactions';

/** Running streams are also listed in gsi1 under this key, for billing enforcement across users. */
const RUNNING_INDEX = 'RUNNING_STREAMS';

const strip = ({ pk: _pk, sk: _sk, entity: _entity, gsi1pk: _g1, gsi1sk: _g2, ...rest }: Record<string, unknown>) => rest as unknown as Stream;
const editable = ['title', 'description', 'privacy', 'thumbnailKey', 'videoId', 'audioId', 'channelIds', 'restartTimes', 'timeZone', 'updatedAt'] as const;

function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException;
}

/** Streams on the single table; a start takes a running slot in the user's usage item in the same transaction. */
export class DynamoStreamStore implements StreamStore {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async create(stream: Stream): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...streamKey(stream.userId, stream.id), entity: 'stream', ...stream }, ConditionExpression: 'attribute_not_exists(pk)' }));
  }

  async get(userId: string, streamId: string): Promise<Stream | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: streamKey(userId, streamId), ConsistentRead: true }));
    return Item ? strip(Item) : undefined;
  }

  async list(userId: string): Promise<Stream[]> {
    const { Items = [] } = await this.db.send(new QueryCommand({
      TableName: this.table,
      KeyConditionExpression: 'pk = :user AND begins_with(sk, :stream)',
      ExpressionAttributeValues: { ':user': `USER#${userId}`, ':stream': 'STREAM#' },
    }));
    return Items.map(strip).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async updateStopped(stream: Stream): Promise<boolean> {
    const set = editable.filter((field) => stream[field] !== undefined);
    const remove = editable.filter((field) => stream[field] === undefined);
    try {
      await this.db.send(new UpdateCommand({
        TableName: this.table,
        Key: streamKey(stream.userId, stream.id),
        ConditionExpression: '#status = :stopped',
        UpdateExpression: `SET ${set.map((f) => `#${f} = :${f}`).join(', ')}${remove.length ? ` REMOVE ${remove.map((f) => `#${f}`).join(', ')}` : ''}`,
        ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(editable.map((f) => [`#${f}`, f])) },
        ExpressionAttributeValues: { ':stopped': 'stopped', ...Object.fromEntries(set.map((f) => [`:${f}`, stream[f]])) },
      }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async deleteStopped(userId: string, streamId: string): Promise<boolean> {
    try {
      await this.db.send(new DeleteCommand({
        TableName: this.table,
        Key: streamKey(userId, streamId),
        ConditionExpression: '#status = :stopped',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':stopped': 'stopped' },
      }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async claimStart(stream: Stream, status: 'encoding' | 'pending', run: { runId: string; executionName: string }, limit: number, now: Date): Promise<ClaimOutcome> {
    try {
      await transactWrite(this.db, {
        TransactItems: [
          {
            Update: {
              TableName: this.table,
              Key: streamKey(stream.userId, stream.id),
              ConditionExpression: '#status = :stopped',
              UpdateExpression: 'SET #status = :next, desired = :running, runId = :run, executionName = :execution, restarts = :zero, updatedAt = :now, gsi1pk = :index, gsi1sk = :entry REMOVE lastError, warning, startedAt, health',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':stopped': 'stopped',
                ':next': status,
                ':running': 'running',
                ':run': run.runId,
                ':execution': run.executionName,
                ':zero': 0,
                ':now': now.toISOString(),
                ':index': RUNNING_INDEX,
                ':entry': `${stream.userId}#${stream.id}`,
              },
            },
          },
          {
            Update: {
              TableName: this.table,
              Key: usageKey(stream.userId),
              ConditionExpression: 'attribute_not_exists(runningStreams) OR runningStreams < :limit',
              UpdateExpression: 'ADD runningStreams :one',
              ExpressionAttributeValues: { ':limit': limit, ':one': 1 },
            },
          },
        ],
      });
      return 'claimed';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'conflict';
      if (conditionFailedAt(error, 1)) return 'stream limit';
      throw error;
    }
  }

  async setRunState(userId: string, streamId: string, runId: string, changes: { status?: StreamStatus; health?: StreamHealth; restarts?: number; executionName?: string; startedAt?: string; warning?: string }, now: Date): Promise<boolean> {
    // An empty string removes the field (a warning that went away).
    const all = Object.entries({ ...changes, updatedAt: now.toISOString() }).filter(([, value]) => value !== undefined);
    const entries = all.filter(([, value]) => value !== '');
    const removed = all.filter(([, value]) => value === '').map(([name]) => name);
    try {
      await this.db.send(new UpdateCommand({
        TableName: this.table,
        Key: streamKey(userId, streamId),
        // Only the current run, and never out of a stop: a late heartbeat must not revive a stopped stream.
        ConditionExpression: 'runId = :run AND desired = :running AND #status IN (:encoding, :pending, :started)',
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}${removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : ''}`,
        ExpressionAttributeNames: {
          '#status': 'status',
          ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
          ...Object.fromEntries(removed.map((name, i) => [`#r${i}`, name])),
        },
        ExpressionAttributeValues: {
          ':run': runId,
          ':running': 'running',
          ':encoding': 'encoding',
          ':pending': 'pending',
          ':started': 'started',
          ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        },
      }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async requestStop(userId: string, streamId: string, now: Date): Promise<Stream | undefined> {
    try {
      const { Attributes } = await this.db.send(new UpdateCommand({
        TableName: this.table,
        Key: streamKey(userId, streamId),
        ConditionExpression: '#status IN (:encoding, :pending, :started, :stopping)',
        UpdateExpression: 'SET desired = :stopped, #status = :stopping, updatedAt = :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':encoding': 'encoding', ':pending': 'pending', ':started': 'started', ':stopping': 'stopping', ':stopped': 'stopped', ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }));
      return Attributes ? strip(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async finishRun(userId: string, streamId: string, runId: string, lastError: string | undefined, now: Date): Promise<boolean> {
    try {
      await transactWrite(this.db, {
        TransactItems: [
          {
            Update: {
              TableName: this.table,
              Key: streamKey(userId, streamId),
              ConditionExpression: 'runId = :run AND #status <> :stopped',
              UpdateExpression: `SET #status = :stopped, desired = :stopped, updatedAt = :now${lastError ? ', lastError = :error' : ''} REMOVE runId, executionName, gsi1pk, gsi1sk`,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':run': runId, ':stopped': 'stopped', ':now': now.toISOString(), ...(lastError ? { ':error': lastError } : {}) },
            },
          },
          { Update: { TableName: this.table, Key: usageKey(userId), UpdateExpression: 'ADD runningStreams :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } } },
        ],
      });
      return true;
    } catch (error) {
      // Another run's, or already stopped: the slot was given back then.
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  }

  async running(): Promise<{ userId: string; streamId: string }[]> {
    const found: { userId: string; streamId: string }[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :index',
        ExpressionAttributeValues: { ':index': RUNNING_INDEX },
        ProjectionExpression: 'userId, id',
        ExclusiveStartKey: startKey,
      }));
      found.push(...(page.Items ?? []).map((item) => ({ userId: item.userId as string, streamId: item.id as string })));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return found;
  }
}
