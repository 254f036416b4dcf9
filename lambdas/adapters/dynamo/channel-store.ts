import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Channel } from '../../core/channels/channel';
import type { ChannelStore } from '../../core/streams/ports';
import { channelKey, userPartition } from './keys';

const strip = ({ pk: _pk, sk: _sk, entity: _entity, ...rest }: Record<string, unknown>) => rest as unknown as Channel;

/** Destinations on the single table. */
export class DynamoChannelStore implements ChannelStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(channel: Channel): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...channelKey(channel.userId, channel.id), entity: 'channel', ...channel },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async update(channel: Channel): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...channelKey(channel.userId, channel.id), entity: 'channel', ...channel },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }

  async get(userId: string, channelId: string): Promise<Channel | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: channelKey(userId, channelId), ConsistentRead: true }));
    return Item ? strip(Item) : undefined;
  }

  async list(userId: string): Promise<Channel[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :channel)',
        ExpressionAttributeValues: { ':user': userPartition(userId), ':channel': 'CHANNEL#' },
      }),
    );
    return Items.map(strip).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async delete(userId: string, channelId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: channelKey(userId, channelId) }));
  }
}
