import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { RealtimeEvent, RealtimePublisher } from '../../contract/realtime-events';
import { logger } from '../logger';
import type { ConnectionsStore } from '../dynamo/connections-store';

/**
 * Pushes events through API Gateway's WebSocket management API (PostToConnection) to every connection of the
 * user. The local realtime server speaks the same wire protocol, so this one implementation serves both.
 * A connection that is gone (410) is removed; a failure on one connection never blocks the others.
 */
export class ManagementApiPublisher implements RealtimePublisher {
  constructor(
    private readonly client: ApiGatewayManagementApiClient,
    private readonly connections: ConnectionsStore,
    private readonly now: () => Date,
  ) {}

  async publish(userId: string, event: RealtimeEvent): Promise<number> {
    const data = new TextEncoder().encode(JSON.stringify(event));
    const ids = await this.connections.ofUser(userId, this.now());
    await Promise.all(ids.map(async (ConnectionId) => {
      try {
        await this.client.send(new PostToConnectionCommand({ ConnectionId, Data: data }));
      } catch (error) {
        if (error instanceof GoneException || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410) {
          await this.connections.remove(ConnectionId);
        } else {
          logger.warn('realtime delivery failed', { connectionId: ConnectionId, error: error as Error });
        }
      }
    }));
    return ids.length;
  }
}
