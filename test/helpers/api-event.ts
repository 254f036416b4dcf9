import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { lambdaContext } from '../../local/api-gateway';

/** A payload-2.0 event as API Gateway sends it, for unit tests of handler stacks. */
export function apiEvent(
  routeKey: string,
  init: { body?: string; headers?: Record<string, string>; pathParameters?: Record<string, string> } = {},
): APIGatewayProxyEventV2 {
  const [method = 'GET', path = '/'] = routeKey.split(' ');
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: init.headers ?? {},
    ...(init.pathParameters ? { pathParameters: init.pathParameters } : {}),
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'jest' },
      requestId: 'req-1',
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(init.body !== undefined ? { body: init.body } : {}),
    isBase64Encoded: false,
  };
}

export const testContext = (): Context => lambdaContext('test', 'req-1');
