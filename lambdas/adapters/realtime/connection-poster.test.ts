// The poster against a small HTTP server answering as API Gateway's management API does, with the real
// ApiGatewayManagementApiClient's credentials, handler and retry strategy: what it sends (a SigV4-signed POST of the
// raw bytes below the endpoint's stage path) and what each answer becomes.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { ConnectionPoster, PostToConnectionError } from './connection-poster';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let seen: Seen[] = [];
/** The statuses the server answers, in turn; 200 once they are used up. */
let answers: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.shift() ?? 200;
      if (status === 200) response.writeHead(200).end();
      else
        response
          .writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': `Status${status}Exception` })
          .end(`{"message":"status ${status}"}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const endpoint = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/live`;
function poster(maxAttempts = 3): { poster: ConnectionPoster; client: ApiGatewayManagementApiClient } {
  const client = new ApiGatewayManagementApiClient({
    region: 'eu-west-1',
    endpoint: endpoint(),
    credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret', sessionToken: 'session' },
    maxAttempts,
  });
  return { poster: new ConnectionPoster(client, endpoint()), client };
}
const data = new TextEncoder().encode('{"type":"stream.heartbeat"}');

test('a delivered post: a POST of the bytes to <stage>/@connections/<id>, signed for execute-api in the region with the session token', async () => {
  const { poster: post, client } = poster();
  expect(await post.post('L0SM9cOFvHcCIhw=', data)).toBe('delivered');
  client.destroy();
  expect(seen).toHaveLength(1);
  const [request] = seen;
  expect(request).toMatchObject({ method: 'POST', url: '/live/@connections/L0SM9cOFvHcCIhw%3D', body: '{"type":"stream.heartbeat"}' });
  expect(request!.headers.authorization).toMatch(
    /^AWS4-HMAC-SHA256 Credential=AKIDLOCAL\/\d{8}\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
  );
  expect(request!.headers['x-amz-security-token']).toBe('session');
  expect(request!.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
});

test('410 is a gone connection, not an error, and is not retried', async () => {
  const { poster: post, client } = poster();
  answers = [410];
  expect(await post.post('gone', data)).toBe('gone');
  client.destroy();
  expect(seen).toHaveLength(1);
});

test("throttling and server errors are retried by the client's retry strategy; it gives up after its attempts", async () => {
  const { poster: post, client } = poster(3);
  answers = [429, 500];
  expect(await post.post('busy', data)).toBe('delivered');
  expect(seen).toHaveLength(3);

  seen = [];
  answers = [503, 503, 503, 503];
  await expect(post.post('down', data)).rejects.toThrow(new PostToConnectionError('PostToConnection failed (3 attempts): 503 {"message":"status 503"}'));
  expect(seen).toHaveLength(3);
  client.destroy();
});

test('a refusal (403, 400) or a server error the SDK does not retry (501) is thrown at once with its status and message', async () => {
  const { poster: post, client } = poster();
  for (const status of [403, 400, 501]) {
    seen = [];
    answers = [status];
    const refused = await post.post('other-api', data).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PostToConnectionError);
    expect(refused).toMatchObject({ statusCode: status, message: `PostToConnection failed (1 attempt): ${status} {"message":"status ${status}"}` });
    expect(seen).toHaveLength(1);
  }
  client.destroy();
});

test('an endpoint nobody answers is a transient failure, retried, then thrown', async () => {
  const client = new ApiGatewayManagementApiClient({
    region: 'eu-west-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    maxAttempts: 2,
  });
  const refused = await new ConnectionPoster(client, 'http://127.0.0.1:9').post('x', data).catch((error: unknown) => error);
  client.destroy();
  expect(refused).toBeInstanceOf(PostToConnectionError);
  expect((refused as Error).message).toMatch(/^PostToConnection failed \(2 attempts\): .*ECONNREFUSED/);
});
