// The cross-cutting stack around every HTTP handler group: middy with header normalisation, Powertools logging
// with the request id, JSON bodies with a size limit, zod validation, session authentication, and one error
// responder that turns anything thrown into `{ error, message }` from the catalogue (never a stack trace).
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { z } from 'zod';
import type { Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { observability } from '../adapters/observability';

import { edgeCheck } from '../adapters/origin-verify';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../contract/edge-headers';
import { AppError, errorBody, isErrorKey, type ErrorKey } from '../core/errors';
import { PATH_ID, routeKeyOf, routes as appRoutes, type RouteDefinition } from '../contract/routes';
import { DEFAULT_MAX_BODY_BYTES, type ApiResponse, type AuthContext, type RouteImplementation } from './api';

export type Authenticate = (bearerToken: string, deps: Deps) => Promise<AuthContext | undefined>;

export interface HttpGroupOptions {
  group: string;
  /** Implementations by API Gateway route key, e.g. `GET /api/health`. */
  routes: Record<string, RouteImplementation>;
  deps: () => Deps | Promise<Deps>;
  /** Resolves a Bearer token to its session; required when the group has `session` routes. */
  authenticate?: Authenticate;
  /** The route table to check against; the real one unless a test brings its own. */
  routeTable?: readonly RouteDefinition[];
  /** What the group answers for an id that names nothing ('not found' unless given), also for a malformed one. */
  unknownId?: ErrorKey;
}

export type HttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** Checks at load time that a group implements exactly its routes of the table, with the same auth. */
function checkAgainstRouteTable(options: HttpGroupOptions): void {
  const table = options.routeTable ?? appRoutes;
  const declared = new Map(table.filter((r) => r.group === options.group).map((r) => [routeKeyOf(r), r]));
  for (const [key, implementation] of Object.entries(options.routes)) {
    const route = declared.get(key);
    if (!route) throw new Error(`${options.group}: ${key} is not in the route table`);
    if (route.auth !== implementation.auth) throw new Error(`${options.group}: ${key} is ${route.auth} in the table`);
    if (route.auth === 'session' && !options.authenticate) throw new Error(`${options.group}: no authenticate for ${key}`);
  }
  for (const key of declared.keys()) {
    if (!options.routes[key]) throw new Error(`${options.group}: ${key} has no implementation`);
  }
}

function decodeBody(event: APIGatewayProxyEventV2): string {
  if (event.body === undefined || event.body === null) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

function binaryBody(event: APIGatewayProxyEventV2, implementation: RouteImplementation): Buffer {
  const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  if (bytes.length > (implementation.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)) throw new AppError('payload too large');
  return bytes;
}

function parseJsonBody(event: APIGatewayProxyEventV2, implementation: RouteImplementation): unknown {
  const raw = decodeBody(event);
  if (Buffer.byteLength(raw) > (implementation.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)) throw new AppError('payload too large');
  if (!implementation.body) return undefined;
  if (raw.trim() === '') return z.parse(implementation.body, {});
  const contentType = event.headers['content-type'] ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) throw new AppError('unsupported media type');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AppError('malformed json');
  }
  return z.parse(implementation.body, parsed);
}

function parseCookies(event: APIGatewayProxyEventV2): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of event.cookies ?? []) {
    const at = pair.indexOf('=');
    if (at > 0) cookies[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return cookies;
}

/** The browser's IP. Behind CloudFront the TCP peer is an edge server, so the `x-viewer-address` header CloudFront's
 * function sets (web/edge/api-viewer-request.js; the local origin likewise) is what rate limits count, believed only
 * beside the origin-verify secret CloudFront adds (`verified`, edgeCheck); any other request counts as its peer. */
function viewerIp(event: APIGatewayProxyEventV2, verified: boolean): string {
  const claimed = event.headers[VIEWER_ADDRESS_HEADER]?.trim();
  return verified && claimed ? claimed : event.requestContext.http.sourceIp;
}

/** The request's headers for route implementations: without the origin-verify secret, so no route can pass it on. */
function routeHeaders(event: APIGatewayProxyEventV2): Record<string, string | undefined> {
  const { [ORIGIN_VERIFY_HEADER]: _secret, ...headers } = event.headers;
  return headers;
}

const bearerToken = (event: APIGatewayProxyEventV2): string | undefined => /^Bearer\s+(\S+)$/i.exec(event.headers.authorization ?? '')?.[1];

function toResult(response: ApiResponse, requestId: string): APIGatewayProxyStructuredResultV2 {
  const binary = response.body instanceof Uint8Array;
  return {
    statusCode: response.status,
    headers: { ...baseHeaders, 'x-request-id': requestId, ...response.headers },
    ...(response.cookies ? { cookies: response.cookies } : {}),
    // Binary bodies (pictures) travel base64-encoded, as API Gateway expects; their route sets content-type.
    body: binary ? Buffer.from(response.body as Uint8Array).toString('base64') : response.body === undefined ? '' : JSON.stringify(response.body),
    ...(binary ? { isBase64Encoded: true } : {}),
  };
}

/** Zod issues to the catalogue: a schema may name a catalogue key as its message (e.g. 'validation.bad_email'). */
function fromValidation(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  let key: ErrorKey = 'invalid request';
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '(body)';
    if (isErrorKey(issue.message)) {
      if (key === 'invalid request') key = issue.message;
      fields[path] ??= issue.message;
    } else {
      fields[path] ??= issue.message;
    }
  }
  return new AppError(key, { fields });
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError) return fromValidation(error);
  return new AppError('internal error');
}

/** The log key for the resource a route's `{id}` names, so support's saved queries find a stream's or an item's
 * requests by id (lambdas/contract/routes.ts: /streams/{id}..., /videos/{id}, /media/{id}/..., /channels/{id}). */
const idLogKeys: Record<string, string> = { streams: 'streamId', videos: 'videoId', media: 'videoId', channels: 'channelId', checkout: 'checkoutSessionId' };

function resourceKeys(routeKey: string, params: Record<string, string | undefined> | undefined): Record<string, string> {
  const collection = /\/([a-z-]+)\/\{id\}/.exec(routeKey)?.[1];
  const key = collection ? idLogKeys[collection] : undefined;
  return key && params?.id ? { [key]: params.id } : {};
}

export function createHttpHandler(options: HttpGroupOptions): HttpHandler {
  checkAgainstRouteTable(options);

  const dispatch = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const requestId = event.requestContext.requestId;
    const deps = await options.deps();
    // The API's own endpoint bypasses CloudFront and its WAF: only CloudFront's requests are served.
    const edge = await edgeCheck(event.headers[ORIGIN_VERIFY_HEADER], deps.originVerify);
    if (!edge.allowed) throw new AppError('direct access refused');
    const implementation = options.routes[event.routeKey];
    if (!implementation) throw new AppError('route not found');
    logger.appendKeys({ route: event.routeKey, ...resourceKeys(event.routeKey, event.pathParameters) });

    let auth: AuthContext | undefined;
    if (implementation.auth === 'session') {
      const token = bearerToken(event);
      auth = token && options.authenticate ? await options.authenticate(token, deps) : undefined;
      if (!auth) throw new AppError('unauthorized');
      logger.appendKeys({ userId: auth.userId });
    }

    // A malformed id names nothing: the group's own answer for an unknown id, before any store sees it.
    if (Object.values(event.pathParameters ?? {}).some((value) => value === undefined || !PATH_ID.test(value))) {
      throw new AppError(options.unknownId ?? 'not found');
    }

    const body = implementation.binaryBody
      ? binaryBody(event, implementation)
      : implementation.rawBody
        ? decodeBody(event)
        : parseJsonBody(event, implementation);
    const rawQuery = event.queryStringParameters ?? {};
    const query = implementation.query ? z.parse(implementation.query, rawQuery) : rawQuery;
    const response = await implementation.handle(
      {
        body,
        query,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        headers: routeHeaders(event),
        cookies: parseCookies(event),
        requestId,
        sourceIp: viewerIp(event, edge.verified),
        userAgent: event.requestContext.http.userAgent,
        auth,
      },
      deps,
    );
    const result = toResult(response, requestId);
    // One line per answered request: a user's or a stream's activity in the saved Logs Insights queries.
    logger.info('request done', { status: result.statusCode });
    return result;
  };

  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(httpHeaderNormalizer())
    .use(observability())
    .use({
      onError: (request) => {
        const appError = toAppError(request.error);
        if (appError.key === 'internal error') logger.error('unhandled error', request.error as Error);
        else logger.info('request refused', { error: appError.key, status: appError.status });
        request.response = toResult(
          { status: appError.status, body: errorBody(appError), headers: appError.headers },
          request.event.requestContext?.requestId ?? '',
        );
      },
    })
    .handler(dispatch) as unknown as HttpHandler;
}
