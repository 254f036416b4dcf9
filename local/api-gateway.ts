// The local stand-in for API Gateway's HTTP API: matches real requests against the route table and builds the
// payload-format-2.0 events Lambda would receive, then turns the handler's result back into an HTTP response.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../lambdas/contract/edge-headers';
import { API_BASE, routeKeyOf, routes, type RouteDefinition } from '../lambdas/contract/routes';

/** API Gateway HTTP APIs refuse payloads above 10 MB; so do we. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

interface CompiledRoute {
  definition: RouteDefinition;
  key: string;
  pattern: RegExp;
  names: string[];
}

function compile(definition: RouteDefinition): CompiledRoute {
  const names: string[] = [];
  const source = (API_BASE + definition.path)
    .split('/')
    .map((segment) => {
      const greedy = /^\{(\w+)\+\}$/.exec(segment);
      if (greedy) {
        names.push(greedy[1]!);
        return '(.+)';
      }
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        names.push(param[1]!);
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { definition, key: routeKeyOf(definition), pattern: new RegExp(`^${source}$`), names };
}

const compiled = routes.map(compile);

export interface RouteMatch {
  group: string;
  routeKey: string;
  pathParameters: Record<string, string>;
}

/** A path parameter that is not valid percent-encoding (`%`, `%E0%A4%A`): API Gateway refuses such a request
 * with 400 before any function runs. */
export class MalformedPathError extends Error {
  override readonly name = 'MalformedPathError';
}

function decodeParameter(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new MalformedPathError('a path parameter is not valid percent-encoding');
  }
}

/** Like API Gateway: the most specific route wins (literal segments before parameters). Throws MalformedPathError
 * for undecodable parameters. */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const candidates = compiled
    .filter((route) => route.definition.method === method)
    .map((route) => ({ route, match: route.pattern.exec(path) }))
    .filter((c): c is { route: CompiledRoute; match: RegExpExecArray } => c.match !== null)
    .sort((a, b) => a.route.names.length - b.route.names.length);
  const best = candidates[0];
  if (!best) return undefined;
  const pathParameters: Record<string, string> = {};
  best.route.names.forEach((name, i) => {
    pathParameters[name] = decodeParameter(best.match[i + 1]!);
  });
  return { group: best.route.definition.group, routeKey: best.route.key, pathParameters };
}

/** The TCP peer, as API Gateway reports it in `requestContext.http.sourceIp`. */
export const peerAddress = (request: IncomingMessage): string => request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';

/** What CloudFront does to a request for the API origins (lib/web-stack.ts): its function sets `x-viewer-address` to
 * the viewer's IP (web/edge/api-viewer-request.js) and the origin adds `x-origin-verify`, both overwriting what the
 * client sent. The local origin does this before the API Gateway stand-in builds its event; the local stand-in of the
 * API's own endpoint does not, like execute-api reached directly. */
export function passThroughEdge(request: IncomingMessage, originVerify: string): void {
  request.headers[VIEWER_ADDRESS_HEADER] = peerAddress(request);
  request.headers[ORIGIN_VERIFY_HEADER] = originVerify;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

export function buildEvent(request: IncomingMessage, body: Buffer, match: RouteMatch | undefined): APIGatewayProxyEventV2 {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const peer = peerAddress(request);
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  const cookies = (request.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const isText = body.length === 0 || TEXT_TYPES.test(request.headers['content-type'] ?? '');
  const now = new Date();
  const routeKey = match?.routeKey ?? '$default';
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(match && Object.keys(match.pathParameters).length ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: peer,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64'), isBase64Encoded: !isText } : { isBase64Encoded: false }),
  };
}

export function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  headers['content-length'] = String(body.length);
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(body);
}

/** Reads a request body up to `limit` bytes; undefined when it is larger (the caller answers 413 with
 * closeAfterResponse: the rest of the body is never read). */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** After a refusal that left the request body unread (413): `Connection: close`, and the socket goes once the
 * answer is out. On a kept-alive connection the unread bytes would otherwise be parsed as the next request and the
 * client's next request would never be answered. */
export function closeAfterResponse(request: IncomingMessage, response: ServerResponse): void {
  const socket = response.socket ?? request.socket;
  response.shouldKeepAlive = false;
  response.setHeader('connection', 'close');
  response.once('finish', () => socket?.destroy());
}
