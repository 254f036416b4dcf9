import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { connectionKey, connectionsOfUser } from './keys';
import { queryAll } from './pages';

/** API Gateway closes WebSockets after 2 hours; a connection item outlives that a little, then TTL removes
 * it even when $disconnect never ran. */
const CONNECTION_TTL_SECONDS = 2 * 3600 + 15 * 60;

/** Open realtime connections per user. */
export class ConnectionsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** `sessionId`: the session the connection was opened with (closed with it). */
  async add(connectionId: string, userId: string, now: Date, sessionId?: string): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...connectionKey(connectionId),
          entity: 'connection',
          gsi1pk: connectionsOfUser(userId),
          gsi1sk: connectionId,
          userId,
          ...(sessionId ? { sessionId } : {}),
          connectedAt: now.toISOString(),
          expiresAt: Math.floor(now.getTime() / 1000) + CONNECTION_TTL_SECONDS,
        },
      }),
    );
  }

  async remove(connectionId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: connectionKey(connectionId) }));
  }

  async ofUser(userId: string, now: Date): Promise<string[]> {
    return (await this.withSessions(userId, now)).map((connection) => connection.connectionId);
  }

  /** The user's open connections with the session each was opened with. */
  async withSessions(userId: string, now: Date): Promise<{ connectionId: string; sessionId?: string }[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :owner',
      FilterExpression: 'expiresAt > :now',
      ExpressionAttributeValues: { ':owner': connectionsOfUser(userId), ':now': Math.floor(now.getTime() / 1000) },
      ProjectionExpression: 'gsi1sk, sessionId',
    });
    return items.map((item) => ({ connectionId: item.gsi1sk as string, ...(item.sessionId ? { sessionId: item.sessionId as string } : {}) }));
  }
}
