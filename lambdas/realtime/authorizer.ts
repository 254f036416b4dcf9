// $connect authorizer of the realtime WebSocket API: browsers cannot set headers on a WebSocket, so the token
// from GET /api/ws comes in the query string (`?token=`). Answers an IAM policy, as WebSocket authorizers must.
// The token must be valid, and the session it names must still be open and its account active: a token does not
// outlive sign-out, a password reset or a suspension (security audit L5).
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';
import { verifyRealtimeToken, type RealtimeTicket } from '../core/realtime-token';
import { accountsStore } from '../wiring/accounts';

export type RealtimeAuthorizer = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

async function sessionIsOpen(deps: Deps, ticket: RealtimeTicket): Promise<boolean> {
  const store = accountsStore(deps);
  const session = await store.session(ticket.sessionId);
  if (!session || session.userId !== ticket.userId || session.expiresAt <= Math.floor(deps.now().getTime() / 1000)) return false;
  return (await store.userById(ticket.userId))?.status === 'active';
}

export function createRealtimeAuthorizer(deps: () => Deps | Promise<Deps>): RealtimeAuthorizer {
  const authorize = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const resolved = await deps();
    const token = event.queryStringParameters?.token ?? '';
    const ticket = verifyRealtimeToken(token, await resolved.signingKey(), resolved.now());
    const open = ticket ? await sessionIsOpen(resolved, ticket) : false;
    const userId = open ? ticket!.userId : undefined;
    if (!userId) logger.info('realtime connection refused');
    return {
      principalId: userId ?? 'anonymous',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: userId ? 'Allow' : 'Deny', Resource: event.methodArn }],
      },
      ...(userId ? { context: { userId, sessionId: ticket!.sessionId } } : {}),
    };
  };
  return middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>().use(observability()).handler(authorize) as unknown as RealtimeAuthorizer;
}

export const handler = createRealtimeAuthorizer(depsFromEnvironment);
