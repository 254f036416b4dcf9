import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NotificationSettings, NotificationSettingsStore } from '../../core/notifications/notifications';
import { notifySettingsKey, telegramLinkKey, telegramLinksOfUser } from './keys';

/** Settings in the user's partition (gone with the account); deep-link tokens apart, expiring with the table's TTL
 * and indexed by user, so closing the account removes them at once too. */
export class DynamoNotificationSettings implements NotificationSettingsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(userId: string): Promise<NotificationSettings> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: notifySettingsKey(userId) }));
    return {
      email: (Item?.email as boolean | undefined) ?? true,
      ...(Item?.telegramChatId ? { telegram: { chatId: Item.telegramChatId as string, linkedAt: Item.telegramLinkedAt as string } } : {}),
    };
  }

  async setEmail(userId: string, email: boolean): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: notifySettingsKey(userId),
        UpdateExpression: 'SET entity = :entity, email = :email',
        ExpressionAttributeValues: { ':entity': 'notify', ':email': email },
      }),
    );
  }

  async linkTelegram(userId: string, chatId: string, now: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: notifySettingsKey(userId),
        UpdateExpression: 'SET entity = :entity, telegramChatId = :chat, telegramLinkedAt = :at',
        ExpressionAttributeValues: { ':entity': 'notify', ':chat': chatId, ':at': now.toISOString() },
      }),
    );
  }

  async unlinkTelegram(userId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({ TableName: this.table, Key: notifySettingsKey(userId), UpdateExpression: 'REMOVE telegramChatId, telegramLinkedAt' }),
    );
  }

  async createLink(tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...telegramLinkKey(tokenHash),
          entity: 'telegramLink',
          gsi1pk: telegramLinksOfUser(userId),
          gsi1sk: 'LINK',
          userId,
          expiresAt: Math.floor(expiresAt.getTime() / 1000),
        },
      }),
    );
  }

  async consumeLink(tokenHash: string, now: Date): Promise<string | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({ TableName: this.table, Key: telegramLinkKey(tokenHash), ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_OLD' }),
      );
      return Attributes && (Attributes.expiresAt as number) > now.getTime() / 1000 ? (Attributes.userId as string) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
