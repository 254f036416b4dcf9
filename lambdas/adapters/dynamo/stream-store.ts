import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClaimOutcome, RunStateChanges, StreamRun, StreamStore, TaskCredentials } from '../../core/streams/ports';
import type { StreamPlaylist } from '../../core/streams/playlist';
import type { RunLease, Stream, StreamHealth } from '../../core/streams/stream';
import { runningStreamsIndexKey, streamKey, streamLiveKey, usageKey, userPartition } from './keys';
import { conditionFailedAt, transactWrite } from './transactions';
import { queryAll } from './pages';

/** Running streams are also listed in gsi1 under this key, for billing enforcement and the reconciler. */
const LIVE_SUFFIX = '#LIVE';

/** The live item: the run's lease and the latest heartbeat, apart from the stream so that the heartbeat's writes
 * stay small (one write unit) and touch no index. */
interface LiveItem {
  runId: string;
  executionName: string;
  tokenHash: string;
  holder?: string;
  expiresAt?: number;
  updatedAt: string;
  health?: StreamHealth;
  previewAt?: string;
  /** The last task's failure, shown until the next heartbeat. */
  problem?: string;
}

const strip = ({ pk: _pk, sk: _sk, entity: _entity, gsi1pk: _g1, gsi1sk: _g2, health: _legacy, ...rest }: Record<string, unknown>) => rest as unknown as Stream;

const noHealth = (at: string): StreamHealth => ({
  actual: 'starting',
  uptimeSeconds: 0,
  bitrateKbps: 0,
  fps: 0,
  speed: 0,
  loops: 0,
  taskRestarts: 0,
  scheduledRestarts: 0,
  destinations: [],
  at,
});

/** The stream with its run's lease and health, when the live item belongs to its current run. */
function withLive(stream: Stream, live: LiveItem | undefined): Stream {
  if (!live || live.runId !== stream.runId) return stream;
  const lease: RunLease = {
    updatedAt: live.updatedAt,
    ...(live.holder ? { holder: live.holder } : {}),
    ...(live.expiresAt !== undefined ? { expiresAt: live.expiresAt } : {}),
  };
  const health = live.health || live.problem ? { ...(live.health ?? noHealth(live.updatedAt)) } : undefined;
  if (health && live.problem && !health.lastError) health.lastError = live.problem;
  if (health && live.previewAt) health.previewAt = live.previewAt;
  return { ...stream, lease, ...(health ? { health } : {}) };
}

/** Stream items and live items of one query, joined. */
function joined(items: Record<string, unknown>[]): Stream[] {
  const live = new Map<string, LiveItem>();
  const streams: Stream[] = [];
  for (const item of items) {
    const sk = item.sk as string;
    if (sk.endsWith(LIVE_SUFFIX)) live.set(sk.slice(0, -LIVE_SUFFIX.length), item as unknown as LiveItem);
    else streams.push(strip(item));
  }
  return streams.map((stream) => withLive(stream, live.get(`STREAM#${stream.id}`)));
}
const editable = [
  'title',
  'description',
  'privacy',
  'thumbnailKey',
  'videoId',
  'playlist',
  'audioId',
  'channelIds',
  'restartTimes',
  'timeZone',
  'attentionMinutes',
  'updatedAt',
] as const;

function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException;
}

/** Streams on the single table; a start takes a running slot in the user's usage item in the same transaction. */
export class DynamoStreamStore implements StreamStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(stream: Stream): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...streamKey(stream.userId, stream.id), entity: 'stream', ...stream },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(userId: string, streamId: string): Promise<Stream | undefined> {
    // One query reads the stream and its live item (their sort keys share the prefix; ids have a fixed length).
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :stream)',
        ExpressionAttributeValues: { ':user': userPartition(userId), ':stream': streamKey(userId, streamId).sk },
        ConsistentRead: true,
      }),
    );
    return joined(Items).find((stream) => stream.id === streamId);
  }

  async list(userId: string): Promise<Stream[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :stream)',
        ExpressionAttributeValues: { ':user': userPartition(userId), ':stream': 'STREAM#' },
      }),
    );
    return joined(Items).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async updateStopped(stream: Stream): Promise<boolean> {
    const set = editable.filter((field) => stream[field] !== undefined);
    const remove = editable.filter((field) => stream[field] === undefined);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: streamKey(stream.userId, stream.id),
          ConditionExpression: '#status = :stopped',
          UpdateExpression: `SET ${set.map((f) => `#${f} = :${f}`).join(', ')}${remove.length ? ` REMOVE ${remove.map((f) => `#${f}`).join(', ')}` : ''}`,
          ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(editable.map((f) => [`#${f}`, f])) },
          ExpressionAttributeValues: { ':stopped': 'stopped', ...Object.fromEntries(set.map((f) => [`:${f}`, stream[f]])) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async setPlaylist(userId: string, streamId: string, playlist: StreamPlaylist, expectedRevision: number, now: Date): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: streamKey(userId, streamId),
          ConditionExpression: 'playlist.revision = :expected',
          UpdateExpression: 'SET playlist = :playlist, videoId = :first, updatedAt = :now',
          ExpressionAttributeValues: { ':expected': expectedRevision, ':playlist': playlist, ':first': playlist.videoIds[0], ':now': now.toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async deleteStopped(userId: string, streamId: string): Promise<boolean> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: streamKey(userId, streamId),
          ConditionExpression: '#status = :stopped',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':stopped': 'stopped' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async claimStart(
    stream: Stream,
    status: 'encoding' | 'pending',
    run: { runId: string; executionName: string },
    limit: number,
    now: Date,
  ): Promise<ClaimOutcome> {
    try {
      await transactWrite(this.db, {
        TransactItems: [
          {
            Update: {
              TableName: this.table,
              Key: streamKey(stream.userId, stream.id),
              ConditionExpression: '#status = :stopped',
              UpdateExpression:
                'SET #status = :next, desired = :running, runId = :run, executionName = :execution, restarts = :zero, updatedAt = :now, gsi1pk = :index, gsi1sk = :entry REMOVE lastError, warning, startedAt, health, unhealthySince, attentionSince',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':stopped': 'stopped',
                ':next': status,
                ':running': 'running',
                ':run': run.runId,
                ':execution': run.executionName,
                ':zero': 0,
                ':now': now.toISOString(),
                ':index': runningStreamsIndexKey,
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

  async setRunState(userId: string, streamId: string, runId: string, changes: RunStateChanges, now: Date, executionName?: string): Promise<boolean> {
    const { markStarted, ...fields } = changes;
    // An empty string removes the field (a warning that went away).
    const all = Object.entries({ ...fields, updatedAt: now.toISOString() }).filter(([, value]) => value !== undefined);
    const entries = all.filter(([, value]) => value !== '');
    const removed = all.filter(([, value]) => value === '').map(([name]) => name);
    const set = [...entries.map((_, i) => `#f${i} = :v${i}`), ...(markStarted ? ['startedAt = if_not_exists(startedAt, :now)'] : [])];
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: streamKey(userId, streamId),
          // Only the current run (and execution), and never out of a stop: a late heartbeat must not revive a stopped
          // stream, nor a superseded execution move it.
          ConditionExpression: `runId = :run AND desired = :running AND #status IN (:encoding, :pending, :started)${executionName ? ' AND executionName = :execution' : ''}`,
          UpdateExpression: `SET ${set.join(', ')}${removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : ''}`,
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
            ...(executionName ? { ':execution': executionName } : {}),
            ...(markStarted ? { ':now': now.toISOString() } : {}),
            ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async requestStop(userId: string, streamId: string, now: Date): Promise<Stream | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: streamKey(userId, streamId),
          ConditionExpression: '#status IN (:encoding, :pending, :started, :stopping)',
          UpdateExpression: 'SET desired = :stopped, #status = :stopping, updatedAt = :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':encoding': 'encoding',
            ':pending': 'pending',
            ':started': 'started',
            ':stopping': 'stopping',
            ':stopped': 'stopped',
            ':now': now.toISOString(),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
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
              UpdateExpression: `SET #status = :stopped, desired = :stopped, updatedAt = :now${lastError ? ', lastError = :error' : ''} REMOVE runId, executionName, gsi1pk, gsi1sk, unhealthySince, attentionSince`,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':run': runId, ':stopped': 'stopped', ':now': now.toISOString(), ...(lastError ? { ':error': lastError } : {}) },
            },
          },
          {
            Update: {
              TableName: this.table,
              Key: usageKey(userId),
              UpdateExpression: 'ADD runningStreams :minusOne',
              ExpressionAttributeValues: { ':minusOne': -1 },
            },
          },
          // The lease goes with the run: a task that outlived the stop cannot renew it and stops itself.
          { Delete: { TableName: this.table, Key: streamLiveKey(userId, streamId) } },
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
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :index',
      ExpressionAttributeValues: { ':index': runningStreamsIndexKey },
      ProjectionExpression: 'userId, id',
    });
    return items.map((item) => ({ userId: item.userId as string, streamId: item.id as string }));
  }

  // ---- The run lease ----

  async mintLease(run: StreamRun, tokenHash: string, now: Date): Promise<{ revokedHolder?: string } | undefined> {
    // The holder seen is the one revoked: the write is conditional on it, and tried again if a task took the lease
    // in between, so the caller always learns which task to end.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: streamLiveKey(run.userId, run.streamId), ConsistentRead: true }));
      const holder = (Item as LiveItem | undefined)?.holder;
      try {
        await transactWrite(this.db, {
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.table,
                Key: streamKey(run.userId, run.streamId),
                ConditionExpression: 'runId = :run AND executionName = :execution AND desired = :running',
                ExpressionAttributeValues: { ':run': run.runId, ':execution': run.executionName, ':running': 'running' },
              },
            },
            {
              Update: {
                TableName: this.table,
                Key: streamLiveKey(run.userId, run.streamId),
                ConditionExpression: holder ? 'holder = :holder' : 'attribute_not_exists(holder)',
                UpdateExpression:
                  'SET entity = :entity, runId = :run, executionName = :execution, tokenHash = :token, updatedAt = :now REMOVE holder, expiresAt',
                ExpressionAttributeValues: {
                  ':entity': 'streamLive',
                  ':run': run.runId,
                  ':execution': run.executionName,
                  ':token': tokenHash,
                  ':now': now.toISOString(),
                  ...(holder ? { ':holder': holder } : {}),
                },
              },
            },
          ],
        });
        return holder ? { revokedHolder: holder } : {};
      } catch (error) {
        if (conditionFailedAt(error, 0)) return undefined;
        if (!conditionFailedAt(error, 1)) throw error;
      }
    }
    throw new Error('the run lease kept changing while it was minted');
  }

  async takeLease(caller: TaskCredentials, ttlMs: number, now: Date): Promise<{ runId: string } | undefined> {
    const item = await this.updateLive(caller, {
      ConditionExpression: 'tokenHash = :token AND (attribute_not_exists(holder) OR holder = :me OR expiresAt < :now)',
      UpdateExpression: 'SET holder = :me, expiresAt = :expires, updatedAt = :at',
      ExpressionAttributeValues: { ':now': now.getTime(), ':expires': now.getTime() + ttlMs, ':at': now.toISOString() },
      ReturnValues: 'ALL_NEW',
    });
    return item ? { runId: item.runId } : undefined;
  }

  async renewLease(caller: TaskCredentials, health: StreamHealth, ttlMs: number, now: Date): Promise<{ runId: string; previous?: StreamHealth } | undefined> {
    const item = await this.updateLive(caller, {
      ConditionExpression: 'tokenHash = :token AND holder = :me',
      UpdateExpression: 'SET health = :health, expiresAt = :expires, updatedAt = :at REMOVE problem',
      ExpressionAttributeValues: { ':health': health, ':expires': now.getTime() + ttlMs, ':at': now.toISOString() },
      ReturnValues: 'ALL_OLD',
    });
    return item ? { runId: item.runId, ...(item.health ? { previous: item.health } : {}) } : undefined;
  }

  async holdsLease(caller: TaskCredentials): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: streamLiveKey(caller.userId, caller.streamId),
        ConsistentRead: true,
        ProjectionExpression: 'tokenHash, holder',
      }),
    );
    return Item?.tokenHash === caller.tokenHash && Item?.holder === caller.instanceId;
  }

  async notePreview(caller: TaskCredentials, now: Date): Promise<boolean> {
    return (
      (await this.updateLive(caller, {
        ConditionExpression: 'tokenHash = :token AND holder = :me',
        UpdateExpression: 'SET previewAt = :at',
        ExpressionAttributeValues: { ':at': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      })) !== undefined
    );
  }

  async noteProblem(userId: string, streamId: string, runId: string, problem: string, now: Date): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: streamLiveKey(userId, streamId),
          ConditionExpression: 'runId = :run',
          UpdateExpression: 'SET problem = :problem, updatedAt = :at',
          ExpressionAttributeValues: { ':run': runId, ':problem': problem, ':at': now.toISOString() },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** A conditional update of the caller's live item, with its token and instance as `:token` and `:me`; undefined
   * when the condition failed. */
  private async updateLive(
    caller: TaskCredentials,
    update: { ConditionExpression: string; UpdateExpression: string; ExpressionAttributeValues: Record<string, unknown>; ReturnValues: 'ALL_NEW' | 'ALL_OLD' },
  ): Promise<LiveItem | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: streamLiveKey(caller.userId, caller.streamId),
          ...update,
          ExpressionAttributeValues: { ':token': caller.tokenHash, ':me': caller.instanceId, ...update.ExpressionAttributeValues },
        }),
      );
      return Attributes as LiveItem | undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}
