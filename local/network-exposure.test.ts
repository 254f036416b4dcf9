// Security audit H2: nothing of the local stack may be reachable from another machine. Every listening port of a
// running stack (web and API, the API's own endpoint, realtime and its management API, DynamoDB Local, s3rver,
// nginx's RTMP and HLS) is dialled through this machine's own non-loopback addresses, as a neighbour on the network
// would, and must refuse; through 127.0.0.1 each one answers. DynamoDB Local has no bind option of its own
// (local/LoopbackDynamoDbLocal.java), and it also refuses a foreign Host name, as a DNS-rebinding page sends.
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startTestStack } from '../test/helpers/stack';
import type { LocalStack } from './stack';

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

test('DynamoDB Local refuses a request that names another host (DNS rebinding), and serves loopback names', async () => {
  const endpoint = new URL(stack.urls.dynamodb);
  // node:http, because fetch does not let a caller choose the Host header.
  const listTables = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const call = request(
        {
          host: endpoint.hostname,
          port: endpoint.port,
          method: 'POST',
          path: '/',
          headers: {
            host,
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': 'DynamoDB_20120810.ListTables',
            authorization: 'AWS4-HMAC-SHA256 Credential=any/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      call.once('error', reject);
      call.end('{}');
    });
  const port = endpoint.port;
  expect(await listTables(`evil.example:${port}`)).toBe(403);
  expect(await listTables(`127.0.0.1:${port}`)).toBe(200);
  expect(await listTables(`localhost:${port}`)).toBe(200);
});
