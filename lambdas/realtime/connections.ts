// $connect and $disconnect of the realtime WebSocket API: keeps the user's open connections in DynamoDB so
// publishers can find them. Messages from browsers are not used ($default answers nothing).
import middy from '@middy/core';
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import { connectionsStore } from '../wiring/realtime';

/** The $connect event also carries what the authorizer put in its context. */
export type WebSocketEvent = APIGatewayProxyWebsocketEventV2 & {
  requestContext: APIGatewayProxyWebsocketEventV2['requestContext'] & { authorizer?: { userId?: string; sessionId?: string } };
};

export type ConnectionsHandler = (event: WebSocketEvent) => Promise<APIGatewayProxyResultV2>;

export function createConnectionsHandler(deps: () => Deps | Promise<Deps>): ConnectionsHandler {
  const handle = async (event: WebSocketEvent): Promise<APIGatewayProxyResultV2> => {
    const resolved = await deps();
    const store = connectionsStore(resolved);
    const { routeKey, connectionId } = event.requestContext;
    if (routeKey === '$connect') {
      const userId = event.requestContext.authorizer?.userId;
      if (!userId) return { statusCode: 401 };
      await store.add(connectionId, userId, resolved.now(), event.requestContext.authorizer?.sessionId);
      logger.info('realtime connected', { userId, connectionId });
    } else if (routeKey === '$disconnect') {
      await store.remove(connectionId);
    }
    return { statusCode: 200 };
  };
  return middy<WebSocketEvent, APIGatewayProxyResultV2>().use(observability()).handler(handle) as unknown as ConnectionsHandler;
}

export const handler = createConnectionsHandler(depsFromEnvironment);
