import { z } from 'zod';
import type { Deps } from '../wiring/deps';
import { AppError } from '../core/errors';
import type { RouteDefinition } from '../contract/routes';
import { apiEvent, testContext } from '../../test/helpers/api-event';
import { json, publicRoute, userRoute } from './api';
import { createHttpHandler } from './handler';
import { logger } from '../adapters/logger';

const table: RouteDefinition[] = [
  { method: 'POST', path: '/echo', group: 'test', auth: 'public' },
  { method: 'GET', path: '/me', group: 'test', auth: 'session' },
  { method: 'GET', path: '/boom', group: 'test', auth: 'public' },
  { method: 'GET', path: '/busy', group: 'test', auth: 'public' },
  { method: 'GET', path: '/streams/{id}', group: 'test', auth: 'session' },
];

const echo = publicRoute({
  body: z.object({ email: z.email({ message: 'validation.bad_email' }), name: z.string().min(1).max(20) }),
  maxBodyBytes: 200,
  async handle({ body }) {
    return json(200, body);
  },
});

const handler = createHttpHandler({
  group: 'test',
  routeTable: table,
  deps: () => ({}) as Deps,
  authenticate: async (token) => (token === 'good-token' ? { userId: 'u1', sessionId: 's1' } : undefined),
  routes: {
    'POST /api/echo': echo,
    'GET /api/me': userRoute({
      async handle({ auth }) {
        return json(200, { userId: auth.userId });
      },
    }),
    'GET /api/boom': publicRoute({
      async handle() {
        throw new Error('database password is hunter2');
      },
    }),
    'GET /api/busy': publicRoute({
      async handle() {
        throw new AppError('too many requests', undefined, { 'retry-after': '30' });
      },
    }),
    'GET /api/streams/{id}': userRoute({
      async handle({ params }) {
        return json(200, { id: params.id });
      },
    }),
  },
});

const call = async (routeKey: string, init: Parameters<typeof apiEvent>[1] = {}) => {
  const result = await handler(apiEvent(routeKey, init), testContext());
  return { status: result.statusCode, headers: result.headers ?? {}, body: result.body ? JSON.parse(result.body) : undefined };
};
const jsonHeaders = { 'content-type': 'application/json' };

describe('HTTP handler stack', () => {
  test('a valid JSON body reaches the route, parsed and validated', async () => {
    const response = await call('POST /api/echo', { body: '{"email":"a@b.co","name":"Ann"}', headers: jsonHeaders });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ email: 'a@b.co', name: 'Ann' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-request-id']).toBe('req-1');
  });

  test('a schema message naming a catalogue key becomes that error', async () => {
    const response = await call('POST /api/echo', { body: '{"email":"nope","name":"Ann"}', headers: jsonHeaders });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      error: 'validation.bad_email',
      message: 'Invalid email address',
      details: { fields: { email: 'validation.bad_email' } },
    });
  });

  test('other validation failures are "invalid request" with the fields', async () => {
    const response = await call('POST /api/echo', { body: '{"email":"a@b.co","name":""}', headers: jsonHeaders });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid request');
    expect(Object.keys(response.body.details.fields)).toEqual(['name']);
  });

  test.each([
    ['malformed JSON', '{"email":', jsonHeaders, 400, 'malformed json'],
    ['a body over the limit', JSON.stringify({ email: 'a@b.co', name: 'x'.repeat(300) }), jsonHeaders, 413, 'payload too large'],
    ['a non-JSON content type', 'email=a@b.co', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'unsupported media type'],
  ])('%s is refused with a catalogued 4xx', async (_, body, headers, status, key) => {
    const response = await call('POST /api/echo', { body, headers });
    expect(response.status).toBe(status);
    expect(response.body.error).toBe(key);
  });

  test('session routes need a valid Bearer token', async () => {
    expect((await call('GET /api/me')).status).toBe(401);
    expect((await call('GET /api/me', { headers: { authorization: 'Bearer wrong' } })).body.error).toBe('unauthorized');
    const ok = await call('GET /api/me', { headers: { authorization: 'Bearer good-token' } });
    expect(ok).toMatchObject({ status: 200, body: { userId: 'u1' } });
  });

  test('unexpected errors are a 500 without any internal detail', async () => {
    const response = await call('GET /api/boom');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: 'internal error', message: 'Something went wrong on our side. Please try again' });
    expect(JSON.stringify(response)).not.toContain('hunter2');
  });

  test('error headers (Retry-After) are kept beside the standard ones', async () => {
    const response = await call('GET /api/busy');
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.headers['x-request-id']).toBe('req-1');
  });

  test('every answered request is one log line with its status, route, user and the id it names', async () => {
    const lines: { message: string; status?: number; keys: Record<string, unknown> }[] = [];
    // What the logger would print: the keys appended for the request (reset after each) and the line.
    const { info, appendKeys, resetKeys } = logger;
    const keys: Record<string, unknown> = {};
    logger.appendKeys = (added) => {
      Object.assign(keys, added);
      appendKeys.call(logger, added);
    };
    logger.resetKeys = () => {
      for (const key of Object.keys(keys)) delete keys[key];
      resetKeys.call(logger);
    };
    logger.info = ((message: string, extra: Record<string, unknown>) => lines.push({ message, ...extra, keys: { ...keys } })) as typeof logger.info;
    try {
      await call('GET /api/streams/{id}', { headers: { authorization: 'Bearer good-token' }, pathParameters: { id: 'st-42' } });
      await call('GET /api/busy');
    } finally {
      Object.assign(logger, { info, appendKeys, resetKeys });
    }
    expect(lines).toEqual([
      { message: 'request done', status: 200, keys: expect.objectContaining({ route: 'GET /api/streams/{id}', streamId: 'st-42', userId: 'u1' }) },
      { message: 'request refused', error: 'too many requests', status: 429, keys: expect.objectContaining({ route: 'GET /api/busy' }) },
    ]);
    // Keys do not carry over to the next request (another user's, another stream's).
    expect(lines[1]!.keys).not.toHaveProperty('streamId');
    expect(lines[1]!.keys).not.toHaveProperty('userId');
  });

  test('routes outside the table are "route not found"', async () => {
    const response = await call('$default');
    expect(response).toMatchObject({ status: 404, body: { error: 'route not found' } });
  });

  test('a group must implement exactly its routes of the table', () => {
    expect(() => createHttpHandler({ group: 'test', routeTable: table, deps: () => ({}) as Deps, routes: { 'POST /api/echo': echo } })).toThrow(
      /has no implementation/,
    );
  });
});

describe('the viewer IP behind CloudFront', () => {
  const ipTable: RouteDefinition[] = [{ method: 'GET', path: '/ip', group: 'ip', auth: 'public' }];
  let reads = 0;
  let accepted: () => Promise<readonly string[]> = async () => ['current-secret', 'previous-secret'];
  const ipHandler = createHttpHandler({
    group: 'ip',
    routeTable: ipTable,
    deps: () =>
      ({
        originVerify: () => {
          reads++;
          return accepted();
        },
      }) as unknown as Deps,
    routes: {
      'GET /api/ip': publicRoute({
        async handle({ sourceIp, headers }) {
          return json(200, { sourceIp, headers: Object.keys(headers) });
        },
      }),
    },
  });
  const ipOf = async (headers: Record<string, string>) => {
    const result = await ipHandler(apiEvent('GET /api/ip', { headers }), testContext());
    return JSON.parse(result.body!) as { sourceIp: string; headers: string[] };
  };
  beforeEach(() => {
    reads = 0;
    accepted = async () => ['current-secret', 'previous-secret'];
  });

  test('x-viewer-address is believed beside a valid origin-verify value (current or previous), and the value goes no further', async () => {
    expect(await ipOf({ 'x-viewer-address': '203.0.113.7', 'x-origin-verify': 'current-secret' })).toEqual({
      sourceIp: '203.0.113.7',
      headers: ['x-viewer-address'],
    });
    expect((await ipOf({ 'x-viewer-address': '203.0.113.8', 'x-origin-verify': 'previous-secret' })).sourceIp).toBe('203.0.113.8');
  });

  // Security audit L11: the API's own endpoint bypasses CloudFront and its WAF; where CloudFront is in front, only
  // its requests (with a valid origin-verify value) are served.
  test.each([
    ['no origin-verify value', { 'x-viewer-address': '203.0.113.7' }],
    ['a wrong one', { 'x-viewer-address': '203.0.113.7', 'x-origin-verify': 'current-secreT' }],
    ['a prefix of the right one', { 'x-viewer-address': '203.0.113.7', 'x-origin-verify': 'current' }],
    ['an empty one', { 'x-viewer-address': '203.0.113.7', 'x-origin-verify': '' }],
    ['no header at all', {}],
  ])('with %s the request is refused as a direct one', async (_, headers) => {
    const result = await ipHandler(apiEvent('GET /api/ip', { headers }), testContext());
    expect({ status: result.statusCode, body: JSON.parse(result.body!) }).toEqual({
      status: 403,
      body: { error: 'direct access refused', message: 'Please open Loopcast at its own address' },
    });
  });

  test('a request through CloudFront without x-viewer-address uses the peer', async () => {
    expect((await ipOf({ 'x-origin-verify': 'current-secret' })).sourceIp).toBe('127.0.0.1');
  });

  test('when the secret cannot be read, requests are served and the peer is used (an outage must not take the site down)', async () => {
    accepted = async () => {
      throw new Error('Secrets Manager is unavailable');
    };
    const result = await ipHandler(
      apiEvent('GET /api/ip', { headers: { 'x-viewer-address': '203.0.113.7', 'x-origin-verify': 'current-secret' } }),
      testContext(),
    );
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!).sourceIp).toBe('127.0.0.1');
  });
});
