// $connect authorizer of the realtime WebSocket API: browsers cannot set headers on a WebSocket, so the token
// from GET /api/ws comes in the query string (`?token=`). Answers an IAM policy, as WebSocket authorizers must.
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { depsFromEnvironment, type Deps } from '../adapters/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import { verifyRealtimeToken } from '../core/realtime-token';

export type RealtimeAuthorizer = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export function createRealtimeAuthorizer(deps: () => Deps | Promise<Deps>): RealtimeAuthorizer {
  const authorize = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const resolved = await deps();
    const token = event.queryStringParameters?.token ?? '';
    const userId = verifyRealtimeToken(token, await resolved.signingKey(), resolved.now());
    if (!userId) logger.info('realtime connection refused');
    return {
      principalId: userId ?? 'anonymous',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: userId ? 'Allow' : 'Deny', Resource: event.methodArn }],
      },
      ...(userId ? { context: { userId } } : {}),
    };
  };
  return middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>()
    .use(observability())
    .handler(authorize) as unknown as RealtimeAuthorizer;
}

export const handler = createRealtimeAuthorizer(depsFromEnvironment);
