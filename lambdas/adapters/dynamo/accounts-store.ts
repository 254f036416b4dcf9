import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { AccountsStore, EmailToken, EmailTokenPurpose, Session, User, UserChanges } from '../../core/accounts/ports';
import { emailKey, emailTokenKey, sessionKey, sessionsOfUser, userKey } from './keys';
import { conditionFailedAt, transactWrite } from './transactions';

/** AccountsStore on the single DynamoDB table. */
export class DynamoAccountsStore implements AccountsStore {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

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
    await this.db.send(new UpdateCommand({
      TableName: this.table,
      Key: userKey(id),
      ConditionExpression: 'attribute_exists(pk)',
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
    }));
  }

  async putSession(session: Session): Promise<void> {
    await this.db.send(new PutCommand({
      TableName: this.table,
      Item: { ...sessionKey(session.tokenHash), entity: 'session', gsi1pk: sessionsOfUser(session.userId), gsi1sk: session.createdAt, ...session },
    }));
  }

  async session(tokenHash: string): Promise<Session | undefined> {
    // Strongly consistent: a session revoked by logout or a suspension must not be read back from a stale replica.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: sessionKey(tokenHash), ConsistentRead: true }));
    return Item ? (pick(Item, ['tokenHash', 'userId', 'createdAt', 'expiresAt', 'userAgent', 'ip']) as unknown as Session) : undefined;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: sessionKey(tokenHash) }));
  }

  async deleteSessionsOf(userId: string): Promise<void> {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :owner',
        ExpressionAttributeValues: { ':owner': sessionsOfUser(userId) },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: startKey,
      }));
      const keys = (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk }));
      for (let i = 0; i < keys.length; i += 25) {
        await this.db.send(new BatchWriteCommand({
          RequestItems: { [this.table]: keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) },
        }));
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }

  async putEmailToken(token: EmailToken): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...emailTokenKey(token.tokenHash, token.purpose), entity: 'emailToken', ...token } }));
  }

  async emailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: emailTokenKey(tokenHash, purpose), ConsistentRead: true }));
    return Item ? toEmailToken(Item) : undefined;
  }

  async takeEmailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined> {
    const { Attributes } = await this.db.send(new DeleteCommand({
      TableName: this.table,
      Key: emailTokenKey(tokenHash, purpose),
      ReturnValues: 'ALL_OLD',
    }));
    return Attributes ? toEmailToken(Attributes) : undefined;
  }
}

function pick(item: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => item[n] !== undefined).map((n) => [n, item[n]]));
}

const toUser = (item: Record<string, unknown>) =>
  pick(item, ['id', 'email', 'displayName', 'language', 'status', 'passwordHash', 'createdAt', 'termsAcceptedAt', 'confirmedAt', 'passwordChangedAt']) as unknown as User;

const toEmailToken = (item: Record<string, unknown>) => pick(item, ['tokenHash', 'purpose', 'userId', 'expiresAt', 'issuedAt']) as unknown as EmailToken;
