// The uploads Lambda, invoked through its Function URL (payload format 2.0) behind CloudFront's `/api/uploads*`
// behavior, so upload bytes never pass API Gateway. It turns each event into a web Request for the shared tus
// handler (tus-server.ts) and the Response back into the Function URL result.
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import middy from '@middy/core';
import { depsFromEnvironment } from '../wiring/deps';
import { observability } from '../adapters/observability';
// Wiring point: what accounts (sessions), plans (limits) and the media library (registering the item, starting
// its transcoding) decide for uploads, composed in lambdas/wiring/uploads.ts.
import { uploadHooks } from '../wiring/uploads';
import { createUploadServer, type UploadServer } from './tus-server';

/** Hop-by-hop or recomputed by Lambda: never passed on. */
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'content-length', 'transfer-encoding', 'keep-alive']);
const TEXT_TYPES = /^(text\/|application\/(json|xml|x-www-form-urlencoded)\b)/i;

export function requestFromEvent(event: LambdaFunctionURLEvent): Request {
  const method = event.requestContext.http.method;
  const host = event.headers.host ?? event.requestContext.domainName;
  const url = `https://${host}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers)) if (value !== undefined) headers.set(name, value);
  if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  const hasBody = event.body !== undefined && method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? Buffer.from(event.body!, event.isBase64Encoded ? 'base64' : 'utf8') : undefined;
  return new Request(url, { method, headers, ...(body ? { body } : {}) });
}

export async function resultFromResponse(response: Response): Promise<LambdaFunctionURLResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !DROPPED_RESPONSE_HEADERS.has(name)) headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  const body = Buffer.from(await response.arrayBuffer());
  const isText = body.length === 0 || TEXT_TYPES.test(response.headers.get('content-type') ?? '');
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: body.toString(isText ? 'utf8' : 'base64'),
    isBase64Encoded: !isText,
  };
}

export type FunctionUrlHandler = (event: LambdaFunctionURLEvent) => Promise<LambdaFunctionURLResult>;

export function createFunctionUrlHandler(server: () => Promise<UploadServer>): FunctionUrlHandler {
  const handle = async (event: LambdaFunctionURLEvent) => resultFromResponse(await (await server()).handleWeb(requestFromEvent(event)));
  // Logger context, tracing, and the metrics the upload server records (uploads started, completed, failed, their
  // duration; transcodes started), flushed after each invocation.
  return middy<LambdaFunctionURLEvent, LambdaFunctionURLResult>().use(observability()).handler(handle) as unknown as FunctionUrlHandler;
}

let uploadServer: Promise<UploadServer> | undefined;

/** Made once per container, on the first request. */
export const handler = createFunctionUrlHandler(
  () => (uploadServer ??= depsFromEnvironment().then((deps) => createUploadServer({ deps, hooks: uploadHooks(deps) }))),
);
