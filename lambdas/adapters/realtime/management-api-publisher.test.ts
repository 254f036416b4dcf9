// The publisher against a small HTTP server speaking the management API's wire format (POST /@connections/{id},
// 410 GoneException), through the real ApiGatewayManagementApiClient's parts (connection-poster.ts): how many
// requests a broadcast has in flight, and what a gone connection leaves.
import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import type { ConnectionsStore } from '../dynamo/connections-store';
import { ConnectionPoster } from './connection-poster';
import { ManagementApiPublisher, POSTS_IN_FLIGHT } from './management-api-publisher';

const CONNECTIONS = 3 * POSTS_IN_FLIGHT + 7;
const ids = Array.from({ length: CONNECTIONS }, (_, index) => `conn-${index}`);
const gone = new Set(['conn-5', `conn-${CONNECTIONS - 1}`]);

let server: Server;
let inFlight = 0;
let mostInFlight = 0;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const id = decodeURIComponent(/^\/@connections\/([^/?]+)/.exec(request.url ?? '')?.[1] ?? '');
    request.resume();
    request.on('end', () =>
      setTimeout(() => {
        inFlight -= 1;
        if (gone.has(id)) {
          response.writeHead(410, { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException' }).end('{"message":"Gone"}');
        } else {
          received.push(id);
          response.writeHead(200).end();
        }
      }, 2),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test(`a broadcast to ${CONNECTIONS} connections reaches every one with at most ${POSTS_IN_FLIGHT} requests in flight, and drops the gone ones`, async () => {
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new ApiGatewayManagementApiClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    // Sockets enough for every request at once: only the publisher bounds how many are in flight.
    requestHandler: { httpAgent: new Agent({ keepAlive: true, maxSockets: CONNECTIONS }) },
  });
  const removed: string[] = [];
  const connections = { ofUser: async () => ids, remove: async (id: string) => void removed.push(id) } as unknown as ConnectionsStore;
  const broadcasts: number[] = [];
  const publisher = new ManagementApiPublisher(
    new ConnectionPoster(client, endpoint),
    connections,
    () => new Date(),
    (seconds) => broadcasts.push(seconds),
  );
  const started = performance.now();
  try {
    await publisher.publish('user', { type: 'stream.heartbeat', streamId: 's', verdict: 'healthy', health: {} } as never);
  } finally {
    client.destroy();
  }
  // One duration per broadcast: at least the server's 2 ms for each round of requests in flight, at most the call.
  expect(broadcasts).toHaveLength(1);
  expect(broadcasts[0]!).toBeGreaterThanOrEqual((Math.ceil(CONNECTIONS / POSTS_IN_FLIGHT) * 2) / 1000);
  expect(broadcasts[0]!).toBeLessThanOrEqual((performance.now() - started) / 1000);
  expect(received).toHaveLength(CONNECTIONS - gone.size);
  expect(new Set(received)).toEqual(new Set(ids.filter((id) => !gone.has(id))));
  expect(mostInFlight).toBeLessThanOrEqual(POSTS_IN_FLIGHT);
  expect(mostInFlight).toBeGreaterThan(1);
  expect(removed.sort()).toEqual([...gone].sort());
});

test('a publish to a user without connections posts nothing and records no broadcast', async () => {
  const client = new ApiGatewayManagementApiClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const broadcasts: number[] = [];
  const connections = { ofUser: async () => [], remove: async () => undefined } as unknown as ConnectionsStore;
  const publisher = new ManagementApiPublisher(
    new ConnectionPoster(client, 'http://127.0.0.1:9'),
    connections,
    () => new Date(),
    (seconds) => broadcasts.push(seconds),
  );
  expect(await publisher.publish('user', { type: 'stream.heartbeat', streamId: 's', verdict: 'healthy', health: {} } as never)).toBe(0);
  client.destroy();
  expect(broadcasts).toEqual([]);
});
