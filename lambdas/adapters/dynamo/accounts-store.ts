import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AccountsStore, EmailToken, EmailTokenPurpose, Session, User, UserChanges } from '../../core/accounts/ports';
import { emailKey, emailTokenKey, emailTokensOfUser, sessionKey, sessionsOfUser, userKey } from './keys';
import { conditionFailedAt, transactWrite } from './transactions';
import { queryAll } from './pages';

/** AccountsStore on the single DynamoDB table. */
export class DynamoAccountsStore implements AccountsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async createUser(user: User): Promise<'created' | 'email taken'> {
    try {
      await transactWrite(this.db, {
        TransactItems: [
          { Put: { TableName: this.table, Item: { ...emailKey(user.email), userId: user.id }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: this.table, Item: { ...userKey(user.id), entity: 'user', ...user }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      });
      return 'created';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'email taken';
      throw error;
    }
  }

  async userById(id: string): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: userKey(id), ConsistentRead: true }));
    return Item ? toUser(Item) : undefined;
  }

  async userByEmail(email: string): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: emailKey(email), ConsistentRead: true }));
    return Item ? this.userById(Item.userId as string) : undefined;
  }

  async updateUser(id: string, changes: UserChanges): Promise<void> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (!entries.length) return;
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: userKey(id),
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
      }),
    );
  }

  async changeEmail(userId: string, from: string, to: string): Promise<'changed' | 'email taken'> {
    try {
      await transactWrite(this.db, {
        TransactItems: [
          { Put: { TableName: this.table, Item: { ...emailKey(to), userId }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Delete: { TableName: this.table, Key: emailKey(from), ConditionExpression: 'userId = :user', ExpressionAttributeValues: { ':user': userId } } },
          {
            Update: {
              TableName: this.table,
              Key: userKey(userId),
              ConditionExpression: 'email = :from',
              UpdateExpression: 'SET email = :to',
              ExpressionAttributeValues: { ':from': from, ':to': to },
            },
          },
        ],
      });
      return 'changed';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'email taken';
      throw error;
    }
  }

  async putSession(session: Session): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...sessionKey(session.tokenHash), entity: 'session', gsi1pk: sessionsOfUser(session.userId), gsi1sk: session.createdAt, ...session },
      }),
    );
  }

  async session(tokenHash: string): Promise<Session | undefined> {
    // Strongly consistent: a session revoked by logout or a suspension must not be read back from a stale replica.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: sessionKey(tokenHash), ConsistentRead: true }));
    return Item ? toSession(Item) : undefined;
  }

  async sessionsOf(userId: string): Promise<Session[]> {
    const items = await this.queryIndex(sessionsOfUser(userId), ['tokenHash', 'userId', 'createdAt', 'expiresAt', 'userAgent', 'ip', 'lastUsedAt']);
    return items.map(toSession);
  }

  async touchSession(tokenHash: string, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: sessionKey(tokenHash),
          ConditionExpression: 'attribute_exists(pk)',
          UpdateExpression: 'SET lastUsedAt = :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    } catch (error) {
      // A session ended meanwhile stays ended.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: sessionKey(tokenHash) }));
  }

  async deleteSessionsOf(userId: string, keep?: string): Promise<number> {
    const keys = (await this.queryIndex(sessionsOfUser(userId), ['pk', 'sk', 'tokenHash']))
      .filter((item) => item.tokenHash !== keep)
      .map((item) => ({ pk: item.pk, sk: item.sk }));
    await this.deleteAll(keys);
    return keys.length;
  }

  async putEmailToken(token: EmailToken): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        // Indexed by user, so closing an account finds its links (and a new link of a purpose replaces older ones).
        Item: {
          ...emailTokenKey(token.tokenHash, token.purpose),
          entity: 'emailToken',
          gsi1pk: emailTokensOfUser(token.userId),
          gsi1sk: token.purpose,
          ...token,
        },
      }),
    );
  }

  async emailTokensOf(userId: string): Promise<EmailToken[]> {
    return (await this.queryIndex(emailTokensOfUser(userId), ['tokenHash', 'purpose', 'userId', 'expiresAt', 'newEmail'])).map(toEmailToken);
  }

  async deleteEmailTokensOf(userId: string, purpose: EmailTokenPurpose): Promise<void> {
    const tokens = await this.queryIndex(emailTokensOfUser(userId), ['pk', 'sk', 'purpose']);
    await this.deleteAll(tokens.filter((item) => item.purpose === purpose).map((item) => ({ pk: item.pk, sk: item.sk })));
  }

  async emailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: emailTokenKey(tokenHash, purpose), ConsistentRead: true }));
    return Item ? toEmailToken(Item) : undefined;
  }

  async takeEmailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({
        TableName: this.table,
        Key: emailTokenKey(tokenHash, purpose),
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes ? toEmailToken(Attributes) : undefined;
  }

  private async queryIndex(partition: string, attributes: string[]): Promise<Record<string, unknown>[]> {
    return queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :owner',
      ExpressionAttributeValues: { ':owner': partition },
      ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
    });
  }

  private async deleteAll(keys: { pk: unknown; sk: unknown }[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 25) {
      let requests = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      // DynamoDB may leave part of a batch for later under load.
      while (requests.length) {
        const result = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: requests } }));
        requests = (result.UnprocessedItems?.[this.table] ?? []) as typeof requests;
      }
    }
  }
}

function pick(item: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => item[n] !== undefined).map((n) => [n, item[n]]));
}

const toUser = (item: Record<string, unknown>) =>
  pick(item, [
    'id',
    'email',
    'displayName',
    'language',
    'status',
    'passwordHash',
    'createdAt',
    'termsAcceptedAt',
    'confirmedAt',
    'passwordChangedAt',
  ]) as unknown as User;

const toEmailToken = (item: Record<string, unknown>) =>
  pick(item, ['tokenHash', 'purpose', 'userId', 'expiresAt', 'issuedAt', 'newEmail']) as unknown as EmailToken;

const toSession = (item: Record<string, unknown>) =>
  pick(item, ['tokenHash', 'userId', 'createdAt', 'expiresAt', 'userAgent', 'ip', 'lastUsedAt']) as unknown as Session;
