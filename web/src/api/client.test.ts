// The API client against a real local HTTP server: headers, query strings, retries, 401 handling, typed errors.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createApiClient, queryString } from './client';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
/** Statuses to answer, in order; afterwards 200. */
let script: { status: number; body?: unknown; raw?: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const next = script.shift() ?? { status: 200, body: { ok: true } };
      response.writeHead(next.status, { 'content-type': next.raw ? 'text/html' : 'application/json' });
      response.end(next.raw ?? (next.body === undefined ? '' : JSON.stringify(next.body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  script = [];
});

const client = (extra: Parameters<typeof createApiClient>[0] = {}) =>
  createApiClient({ baseUrl, authToken: () => undefined, userGroup: () => undefined, onUnauthorized: () => undefined, ...extra });

describe('API client', () => {
  test('sends JSON headers, the bearer token and the user group', async () => {
    await client({ authToken: () => 'tok123', userGroup: () => 'beta' }).post('/streams', { title: 'x' });
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/streams');
    expect(request?.headers.authorization).toBe('Bearer tok123');
    expect(request?.headers['user-group']).toBe('beta');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.accept).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ title: 'x' });
  });

  test('sends no Authorization or user-group header without a token or group', async () => {
    await client().get('/me');
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.headers['user-group']).toBeUndefined();
  });

  test('builds query strings without null, false or empty values', async () => {
    expect(queryString({ a: 1, b: null, c: false, d: '', e: 'x y', f: undefined, g: true, h: 0, list: ['p', null, 'q'] })).toBe(
      '?a=1&e=x+y&g=true&h=0&list=p&list=q',
    );
    expect(queryString({ b: null })).toBe('');
    await client().get('/videos', { status: 'ready', cursor: null, mine: false });
    expect(seen[0]?.url).toBe('/api/videos?status=ready');
  });

  test.each([408, 409, 425, 429, 500, 502, 503, 504])('retries a GET once on %i', async (status) => {
    script = [
      { status, body: { error: 'service unavailable' } },
      { status: 200, body: { id: 'v1' } },
    ];
    await expect(client().get('/videos/v1')).resolves.toEqual({ id: 'v1' });
    expect(seen).toHaveLength(2);
  });

  test('retries only once', async () => {
    script = [{ status: 503 }, { status: 503 }, { status: 200, body: {} }];
    await expect(client().get('/me')).rejects.toMatchObject({ key: 'service unavailable', status: 503 });
    expect(seen).toHaveLength(2);
  });

  test('never retries requests with a body, nor on other statuses', async () => {
    script = [{ status: 503, body: { error: 'service unavailable' } }];
    await expect(client().post('/streams/s1/start', {})).rejects.toMatchObject({ key: 'service unavailable' });
    script = [{ status: 503 }];
    await expect(client().put('/videos/v1', { title: 't' })).rejects.toBeInstanceOf(ApiError);
    script = [{ status: 400, body: { error: 'invalid request' } }];
    await expect(client().get('/videos')).rejects.toMatchObject({ key: 'invalid request', status: 400 });
    expect(seen).toHaveLength(3);
  });

  test('retries a DELETE without a body', async () => {
    script = [{ status: 502 }, { status: 204 }];
    await expect(client().delete('/videos/v1')).resolves.toBeUndefined();
    expect(seen.map((s) => s.method)).toEqual(['DELETE', 'DELETE']);
  });

  test('any 401 ends the session, then fails with "unauthorized"', async () => {
    let signedOut = 0;
    script = [{ status: 401, body: { error: 'unauthorized', message: 'Please sign in to continue' } }];
    await expect(client({ onUnauthorized: () => void signedOut++ }).get('/me')).rejects.toMatchObject({ key: 'unauthorized', status: 401 });
    script = [{ status: 401, body: { error: 'invalid credentials' } }];
    await expect(client({ onUnauthorized: () => void signedOut++ }).post('/login', {})).rejects.toMatchObject({ key: 'invalid credentials' });
    expect(signedOut).toBe(2);
  });

  test('errors carry the catalogue key and details; unknown or missing keys map by status', async () => {
    script = [{ status: 422, body: { error: 'validation.bad_email', message: 'Invalid email address', details: { field: 'email' } } }];
    const error = (await client()
      .post('/register', { email: 'x' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.key).toBe('validation.bad_email');
    expect(error.details).toEqual({ field: 'email' });
    script = [{ status: 404, body: { error: 'no such key in the catalogue' } }];
    await expect(client().get('/x')).rejects.toMatchObject({ key: 'not found' });
    script = [
      { status: 502, raw: '<html>Bad gateway</html>' },
      { status: 502, raw: '<html>Bad gateway</html>' },
    ];
    await expect(client().get('/x')).rejects.toMatchObject({ key: 'service unavailable', status: 502 });
  });

  test('a request that gets no answer fails with "network error"', async () => {
    const unreachable = createApiClient({ baseUrl: 'http://127.0.0.1:9/api', authToken: () => undefined, userGroup: () => undefined });
    await expect(unreachable.get('/me')).rejects.toMatchObject({ key: 'network error', status: 0 });
  });

  test('includes credentials and sends the body only when there is one', async () => {
    const calls: RequestInit[] = [];
    const recording = createApiClient({
      authToken: () => undefined,
      userGroup: () => undefined,
      fetch: async (_url, init) => {
        calls.push(init ?? {});
        return new Response('{}', { status: 200 });
      },
    });
    await recording.get('/me');
    await recording.post('/logout');
    expect(calls.map((c) => [c.credentials, c.body])).toEqual([
      ['include', undefined],
      ['include', undefined],
    ]);
  });
});
