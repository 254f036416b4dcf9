import { DeleteConnectionCommand, GoneException, type ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import type { OpenConnections } from '../../core/accounts/ports';
import type { ConnectionsStore } from '../dynamo/connections-store';
import { logger } from '../logger';

/** Closes a user's realtime WebSockets (DeleteConnection on the WebSocket management API, which the local realtime
 * server speaks too) and forgets them: those of one session at sign-out, all at a password reset or suspension. */
export class ManagementApiConnectionCloser implements OpenConnections {
  constructor(
    private readonly client: ApiGatewayManagementApiClient,
    private readonly connections: ConnectionsStore,
    private readonly now: () => Date,
  ) {}

  async close(userId: string, sessionId?: string): Promise<void> {
    const open = await this.connections.withSessions(userId, this.now());
    // A connection opened before tickets named their session belongs to no session: it goes with any of them.
    const closing = open.filter((connection) => sessionId === undefined || connection.sessionId === undefined || connection.sessionId === sessionId);
    await Promise.all(closing.map(async ({ connectionId }) => {
      try {
        await this.client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (error) {
        const gone = error instanceof GoneException || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410;
        // Ending the session is done by then and must not fail on the socket: forgotten, the socket gets no more
        // events, and API Gateway closes every WebSocket within 2 hours.
        if (!gone) logger.warn('realtime connection not closed', { connectionId, error: error as Error });
      }
      await this.connections.remove(connectionId);
    }));
  }
}
