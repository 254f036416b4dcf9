import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BroadcastRecord, BroadcastStore } from '../../core/youtube/broadcasts';
import type { OAuthState, OAuthStateStore } from '../../core/youtube/connect';
import { broadcastKey, oauthStateKey, oauthStatesOfUser, userPartition, youtubeQuotaKey } from './keys';

const strip = <T>({ pk: _pk, sk: _sk, entity: _entity, ...rest }: Record<string, unknown>) => rest as T;

export class DynamoOAuthStateStore implements OAuthStateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(state: OAuthState): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...oauthStateKey(state.stateHash), entity: 'oauthState', gsi1pk: oauthStatesOfUser(state.userId), gsi1sk: 'STATE', ...state },
      }),
    );
  }

  async take(stateHash: string): Promise<OAuthState | undefined> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.table, Key: oauthStateKey(stateHash), ReturnValues: 'ALL_OLD' }));
    return Attributes ? strip<OAuthState>(Attributes) : undefined;
  }
}

export class DynamoBroadcastStore implements BroadcastStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async list(userId: string, streamId: string): Promise<BroadcastRecord[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':user': userPartition(userId), ':prefix': `BROADCAST#${streamId}#` },
      }),
    );
    return Items.map((item) => strip<BroadcastRecord>(item));
  }

  async put(record: BroadcastRecord): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...broadcastKey(record.userId, record.streamId, record.channelId), entity: 'broadcast', ...record } }),
    );
  }

  async remove(userId: string, streamId: string, channelId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: broadcastKey(userId, streamId, channelId) }));
  }
}

/** YouTube's quota day ends at midnight Pacific time. */
export const pacificDay = (now: Date): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(now);

/** Loopcast's own count of YouTube API units spent per Pacific day (kept 40 days). */
export class DynamoYouTubeQuota {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date,
  ) {}

  /** Adds to the day's spend; the day's total so far. */
  async spend(units: number): Promise<number> {
    const now = this.now();
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: youtubeQuotaKey(pacificDay(now)),
        UpdateExpression: 'ADD units :units SET expiresAt = if_not_exists(expiresAt, :expires)',
        ExpressionAttributeValues: { ':units': units, ':expires': Math.floor(now.getTime() / 1000) + 40 * 86_400 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.units ?? units);
  }

  async spentOn(day: string): Promise<number> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: youtubeQuotaKey(day), ConsistentRead: true }));
    return Number(Item?.units ?? 0);
  }
}
