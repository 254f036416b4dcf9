import { DeleteConnectionCommand, GoneException, type ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import type { OpenConnections } from '../../core/accounts/ports';
import type { ConnectionsStore } from '../dynamo/connections-store';
import { logger } from '../logger';

/** Closes a user's realtime WebSockets (DeleteConnection on the WebSocket management API, which the local realtime
 * server speaks too) and forgets them: those of one session at sign-out, all at a password reset or suspension, all
 * but the caller's at a password change on the account page. */
export class ManagementApiConnectionCloser implements OpenConnections {
  constructor(
    private readonly client: ApiGatewayManagementApiClient,
    private readonly connections: ConnectionsStore,
    private readonly now: () => Date,
  ) {}

  async close(userId: string, sessionId?: string): Promise<void> {
    // A connection opened before tickets named their session belongs to no session: it goes with any of them.
    await this.closeWhere(userId, (connection) => sessionId === undefined || connection.sessionId === undefined || connection.sessionId === sessionId);
  }

  async closeAllBut(userId: string, keepSessionId: string): Promise<void> {
    await this.closeWhere(userId, (connection) => connection.sessionId !== keepSessionId);
  }

  private async closeWhere(userId: string, closes: (connection: { sessionId?: string }) => boolean): Promise<void> {
    const closing = (await this.connections.withSessions(userId, this.now())).filter(closes);
    await Promise.all(
      closing.map(async ({ connectionId }) => {
        try {
          await this.client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
        } catch (error) {
          const gone = error instanceof GoneException || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410;
          // Ending the session is done by then and must not fail on the socket: forgotten, the socket gets no more
          // events, and API Gateway closes every WebSocket within 2 hours.
          if (!gone) logger.warn('realtime connection not closed', { connectionId, error: error as Error });
        }
        await this.connections.remove(connectionId);
      }),
    );
  }
}
