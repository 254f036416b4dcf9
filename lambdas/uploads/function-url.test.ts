// The Lambda entry's Function URL adapter: tus-js-client uploads through a small stand-in for a Lambda Function
// URL (the whole request buffered into a payload 2.0 event, binary bodies base64-encoded, as AWS does), into
// the same tus handler, s3rver and DynamoDB Local.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { createFunctionUrlHandler, requestFromEvent, resultFromResponse, type FunctionUrlHandler } from './function-url';
import {
  createTestStorage,
  MiB,
  refusalOf,
  sha256,
  storedSha256,
  testHooks,
  tokens,
  tusUpload,
  type TestHooks,
  type TestStorage,
} from '../../test/helpers/upload-server';
import { createUploadServer, UPLOADS_PATH } from './tus-server';

/** Lambda's synchronous invocation payload limit, which the base64-encoded 4 MiB chunks must fit. */
const LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;
const TEXT_TYPES = /^(text\/|application\/(json|xml|x-www-form-urlencoded)\b)/i;

function functionUrlEvent(request: IncomingMessage, body: Buffer): LambdaFunctionURLEvent {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = (request.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const isText = TEXT_TYPES.test(request.headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(cookies.length ? { cookies } : {}),
    requestContext: {
      accountId: 'anonymous',
      apiId: 'uploadsfunctionurl',
      domainName: 'uploadsfunctionurl.lambda-url.us-east-1.on.aws',
      domainPrefix: 'uploadsfunctionurl',
      http: { method: request.method!, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: body.toString(isText ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

/** What AWS does in front of the function: buffer the request, invoke with the event, write the result. */
async function startFunctionUrl(handler: FunctionUrlHandler, events: LambdaFunctionURLEvent[]): Promise<{ url: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const event = functionUrlEvent(request, Buffer.concat(chunks));
    events.push(event);
    const result = await handler(event);
    if (typeof result === 'string') throw new Error('the uploads function returns structured results');
    response.writeHead(result.statusCode ?? 200, { ...result.headers, ...(result.cookies ? { 'set-cookie': result.cookies } : {}) });
    response.end(result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${UPLOADS_PATH}`, server };
}

let storage: TestStorage;
let hooks: TestHooks;
let functionUrl: { url: string; server: Server };
const events: LambdaFunctionURLEvent[] = [];

beforeAll(async () => {
  storage = await createTestStorage();
  hooks = testHooks();
  const uploadServer = createUploadServer({ deps: { config: storage.config, db: storage.db }, hooks });
  functionUrl = await startFunctionUrl(
    createFunctionUrlHandler(async () => uploadServer),
    events,
  );
});
afterAll(async () => {
  functionUrl.server.closeAllConnections();
  await new Promise((resolve) => functionUrl.server.close(resolve));
  storage.stop();
});

test('tus-js-client uploads through the Function URL adapter: base64 chunks within the payload limit, exact bytes', async () => {
  const data = randomBytes(9 * MiB + 321);
  const url = await tusUpload(data, { endpoint: functionUrl.url, token: tokens.alice });
  const key = `uploads/alice/${url.slice(url.lastIndexOf('/') + 1)}`;
  expect(await storedSha256(storage, key)).toBe(sha256(data));
  expect(hooks.finished.map((f) => f.key)).toContain(key);

  const patches = events.filter((e) => e.requestContext.http.method === 'PATCH');
  expect(patches).toHaveLength(3);
  for (const patch of patches) {
    expect(patch.isBase64Encoded).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(patch))).toBeLessThan(LAMBDA_PAYLOAD_BYTES);
  }
  // The Location the client followed was relative, so it works whatever host CloudFront sends to the function.
  expect(new URL(url).origin).toBe(new URL(functionUrl.url).origin);
});

test('a refusal crosses the adapter as the catalogued JSON body', async () => {
  const refused = await tusUpload(randomBytes(10), { endpoint: functionUrl.url, token: 'nobody' }).catch(refusalOf);
  expect(refused).toEqual({
    status: 401,
    body: { error: 'uploader token error', message: 'Upload failed due to authentication error. Please refresh and try again' },
  });
});

test('events become requests: path, query, headers, cookies, text and base64 bodies', async () => {
  const base = {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/api/uploads/abc',
    rawQueryString: 'a=1&b=2',
    headers: { host: 'd111.cloudfront.net', 'upload-offset': '5' },
    cookies: ['a=1', 'b=2'],
    requestContext: { http: { method: 'PATCH' }, domainName: 'x.lambda-url.us-east-1.on.aws' },
    isBase64Encoded: true,
    body: Buffer.from([0, 1, 2, 255]).toString('base64'),
  } as unknown as LambdaFunctionURLEvent;
  const request = requestFromEvent(base);
  expect(request.url).toBe('https://d111.cloudfront.net/api/uploads/abc?a=1&b=2');
  expect(request.method).toBe('PATCH');
  expect(request.headers.get('upload-offset')).toBe('5');
  expect(request.headers.get('cookie')).toBe('a=1; b=2');
  expect([...new Uint8Array(await request.arrayBuffer())]).toEqual([0, 1, 2, 255]);

  const text = requestFromEvent({ ...base, isBase64Encoded: false, body: '{"a":1}' });
  expect(await text.text()).toBe('{"a":1}');
  const head = requestFromEvent({ ...base, requestContext: { ...base.requestContext, http: { method: 'HEAD' } } } as LambdaFunctionURLEvent);
  expect(head.body).toBeNull();
});

test('responses become results: text as is, binary as base64, cookies apart, no hop-by-hop headers', async () => {
  const json = await resultFromResponse(
    new Response('{"error":"x"}', { status: 409, headers: { 'content-type': 'application/json', 'content-length': '13', connection: 'close' } }),
  );
  expect(json).toEqual({ statusCode: 409, headers: { 'content-type': 'application/json' }, body: '{"error":"x"}', isBase64Encoded: false });

  const headers = new Headers({ 'content-type': 'video/mp4' });
  headers.append('set-cookie', 'a=1');
  headers.append('set-cookie', 'b=2');
  const binary = await resultFromResponse(new Response(new Uint8Array([0, 1, 2, 255]), { headers }));
  expect(binary).toEqual({
    statusCode: 200,
    headers: { 'content-type': 'video/mp4' },
    cookies: ['a=1', 'b=2'],
    body: Buffer.from([0, 1, 2, 255]).toString('base64'),
    isBase64Encoded: true,
  });

  const empty = await resultFromResponse(new Response(null, { status: 204, headers: { 'upload-offset': '10' } }));
  expect(empty).toEqual({ statusCode: 204, headers: { 'upload-offset': '10' }, body: '', isBase64Encoded: false });
});
