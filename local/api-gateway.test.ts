import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { buildEvent, matchRoute, passThroughEdge } from './api-gateway';

function fakeRequest(method: string, url: string, headers: Record<string, string>): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  request.method = method;
  request.url = url;
  request.headers = headers;
  request.httpVersion = '1.1';
  return request;
}

describe('local API Gateway', () => {
  test('matches the route table by method and path', () => {
    expect(matchRoute('GET', '/api/health')).toEqual({ group: 'system', routeKey: 'GET /api/health', pathParameters: {} });
    expect(matchRoute('POST', '/api/health')).toBeUndefined();
    expect(matchRoute('GET', '/api/healthz')).toBeUndefined();
  });

  test('builds a payload 2.0 event with cookies, query and a text body', () => {
    const request = fakeRequest('GET', '/api/health?a=1&a=2&b=x%20y', {
      host: 'localhost:8080',
      cookie: 'auth_token=abc; i18n_redirected=es',
      'content-type': 'application/json',
      'user-agent': 'jest',
    });
    const event = buildEvent(request, Buffer.from('{"x":1}'), matchRoute('GET', '/api/health'));
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /api/health');
    expect(event.cookies).toEqual(['auth_token=abc', 'i18n_redirected=es']);
    expect(event.headers.cookie).toBeUndefined();
    expect(event.queryStringParameters).toEqual({ a: '1,2', b: 'x y' });
    expect(event.body).toBe('{"x":1}');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.requestContext.http.userAgent).toBe('jest');
  });

  test("as the API's own endpoint, headers pass as the client sent them; playing CloudFront, the viewer IP and origin-verify value overwrite them", () => {
    const forged = { 'x-viewer-address': '203.0.113.9', 'x-origin-verify': 'guessed' };
    const direct = buildEvent(fakeRequest('POST', '/api/login', { ...forged }), Buffer.alloc(0), matchRoute('POST', '/api/login'));
    expect(direct.headers).toMatchObject(forged);
    expect(direct.requestContext.http.sourceIp).toBe('127.0.0.1');

    const request = fakeRequest('POST', '/api/login', { ...forged });
    passThroughEdge(request, 'the-local-secret');
    const viaOrigin = buildEvent(request, Buffer.alloc(0), matchRoute('POST', '/api/login'));
    expect(viaOrigin.headers).toMatchObject({ 'x-viewer-address': '127.0.0.1', 'x-origin-verify': 'the-local-secret' });
  });

  test('binary bodies are base64, unmatched requests get the $default route', () => {
    const request = fakeRequest('POST', '/api/nowhere', { 'content-type': 'application/octet-stream' });
    const event = buildEvent(request, Buffer.from([0, 255, 1]), undefined);
    expect(event.routeKey).toBe('$default');
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64')).toEqual(Buffer.from([0, 255, 1]));
  });
});
