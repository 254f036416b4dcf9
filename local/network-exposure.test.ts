// Security audit H2: nothing of the local stack may be reachable from another machine. Every listening port of a
// running stack (web and API, the API's own endpoint, realtime and its management API, DynamoDB Local, s3rver,
// nginx's RTMP and HLS) is dialled through this machine's own non-loopback addresses, as a neighbour on the network
// would, and must refuse; through 127.0.0.1 each one answers. DynamoDB Local has no bind option of its own
// (local/LoopbackDynamoDbLocal.java), and it also refuses a foreign Host name, as a DNS-rebinding page sends; so does
// s3rver. Another user of this machine reaches 127.0.0.1 too: DynamoDB Local and s3rver take the stack's own random
// credentials only (local/credentials.ts), signatures verified: never the constant ones from the repository, another
// pair, or the access key id without the secret key.
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { startTestStack } from '../test/helpers/stack';
import { randomLocalCredentials, type LocalCredentials } from './credentials';
import type { LocalStack } from './stack';
import { sendingHost } from '../test/helpers/foreign-host';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
});
afterAll(() => stack.stop());

/** This machine's addresses other than loopback (and IPv6 link-local, which needs a zone to dial). */
function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined && !entry.internal && !entry.address.startsWith('fe80:'))
    .map((entry) => entry!.address);
}

/** 'open' when a TCP connection to host:port is accepted, else the error code (ECONNREFUSED, ...). */
function dial(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (result: string) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(3000, () => done('timeout'));
    socket.once('connect', () => done('open'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
  });
}

function listeningPorts(): Record<string, number> {
  const port = (url: string | undefined) => Number(new URL(url!).port);
  return {
    'web and API': port(stack.urls.web),
    "API's own endpoint": port(stack.urls.apiDirect),
    'realtime WebSocket': port(stack.urls.realtime),
    'realtime management API': port(stack.config.realtime.managementUrl),
    'DynamoDB Local': port(stack.urls.dynamodb),
    s3rver: port(stack.urls.s3),
    'RTMP test destination': port(stack.urls.rtmp),
    'HLS preview': port(stack.urls.hls),
  };
}

test('this machine has a non-loopback address to dial (the test proves nothing without one)', () => {
  expect(externalAddresses()).not.toEqual([]);
});

test('every port of the stack answers on loopback and refuses through every other address of this machine', async () => {
  const ports = listeningPorts();
  const addresses = externalAddresses();
  const outcome: Record<string, string[]> = {};
  for (const [name, port] of Object.entries(ports)) {
    outcome[name] = [await dial('127.0.0.1', port), ...(await Promise.all(addresses.map((address) => dial(address, port))))];
  }
  const expected = Object.fromEntries(Object.keys(ports).map((name) => [name, ['open', ...addresses.map(() => 'ECONNREFUSED')]]));
  expect(outcome).toEqual(expected);
});

/** A DynamoDB ListTables through the SDK, signed with `credentials`; `host` makes it send (and sign) another Host
 * header, as a DNS-rebinding page would; `tamper` changes the body once it is signed. 'answered' or the status and
 * error name. */
function listTables(credentials: LocalCredentials, options: { host?: string; tamper?: boolean } = {}): Promise<string> {
  const client = new DynamoDBClient({ region: 'us-east-1', endpoint: stack.urls.dynamodb, credentials, maxAttempts: 1 });
  type Args = { request: { headers: Record<string, string>; body: string | Uint8Array } };
  if (options.host) {
    client.middlewareStack.add(
      (next) => async (args) => {
        (args as unknown as Args).request.headers.host = options.host!;
        return next(args);
      },
      { step: 'build', name: 'foreignHost' },
    );
  }
  if (options.tamper) {
    client.middlewareStack.addRelativeTo(
      ((next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
        const { request } = args as Args;
        const { body } = request;
        const signed = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString();
        request.body = signed.replace('"Limit":50', '"Limit":1');
        request.headers['content-length'] = String(Buffer.byteLength(request.body));
        return next(args);
      }) as never,
      { relation: 'after', toMiddleware: 'httpSigningMiddleware', name: 'tamper' },
    );
  }
  return client.send(new ListTablesCommand({ Limit: 50 })).then(
    () => 'answered',
    (error: Error & { $metadata?: { httpStatusCode?: number } }) => `${error.$metadata?.httpStatusCode} ${error.name}`,
  );
}

/** A raw DynamoDB ListTables (node:http, to send an Authorization header of our own making, or none). */
function rawListTables(authorization: string | undefined): Promise<{ status: number; type: string }> {
  const endpoint = new URL(stack.urls.dynamodb);
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: endpoint.hostname,
        port: endpoint.port,
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.ListTables',
          'x-amz-date': amzDate,
          ...(authorization ? { authorization: authorization.replace('<day>', amzDate.slice(0, 8)) } : {}),
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, type: (JSON.parse(body) as { __type: string }).__type.split('#')[1]! }));
      },
    );
    call.once('error', reject);
    call.end('{}');
  });
}

test('DynamoDB Local refuses a request that names another host (DNS rebinding), and serves loopback names', async () => {
  const port = new URL(stack.urls.dynamodb).port;
  expect(await listTables(stack.credentials, { host: `evil.example:${port}` })).toMatch(/^403 /);
  expect(await listTables(stack.credentials, { host: `127.0.0.1:${port}` })).toBe('answered');
  expect(await listTables(stack.credentials, { host: `localhost:${port}` })).toBe('answered');
});

test("DynamoDB Local serves requests signed with the stack's credentials only: not s3rver's constant pair, another pair, the key id alone or none", async () => {
  expect(await listTables({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' })).toBe('400 UnrecognizedClientException');
  expect(await listTables(randomLocalCredentials())).toBe('400 UnrecognizedClientException');
  // The access key id is in every presigned S3 URL the stack makes: without the secret key it opens nothing.
  expect(await listTables({ accessKeyId: stack.credentials.accessKeyId, secretAccessKey: randomLocalCredentials().secretAccessKey })).toBe(
    '400 InvalidSignatureException',
  );
  expect(await listTables(stack.credentials, { tamper: true })).toBe('400 InvalidSignatureException');
  const madeUp = `AWS4-HMAC-SHA256 Credential=${stack.credentials.accessKeyId}/<day>/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`;
  expect(await rawListTables(madeUp)).toEqual({ status: 400, type: 'InvalidSignatureException' });
  expect(await rawListTables(undefined)).toEqual({ status: 400, type: 'MissingAuthenticationTokenException' });
  expect(await listTables(stack.credentials)).toBe('answered');
});

test("s3rver refuses another host name, anonymous requests and s3rver's constant pair; the stack's credentials work", async () => {
  const port = new URL(stack.urls.s3).port;
  const bucketUrl = `${stack.urls.s3}/${stack.config.buckets.media}`;
  expect((await fetch(bucketUrl)).status).toBe(403);
  expect((await fetch(`${bucketUrl}/planted`, { method: 'PUT', body: 'x' })).status).toBe(403);
  const s3 = (credentials: LocalCredentials, host?: string) => {
    const client = sendingHost(new S3Client({ region: 'us-east-1', endpoint: stack.urls.s3, forcePathStyle: true, credentials, maxAttempts: 1 }), host);
    return client.send(new ListBucketsCommand({})).then(
      () => 'answered',
      (error: Error) => error.name,
    );
  };
  expect(await s3(stack.credentials, `evil.example:${port}`)).toBe('AccessDenied');
  expect(await s3({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' })).toBe('InvalidAccessKeyId');
  expect(await s3(stack.credentials)).toBe('answered');
});
