// The publisher's CPU for one PostToConnection, two ways, against a bare HTTP server in a child process (so only the
// client's work is counted): the SDK's `client.send(PostToConnectionCommand)` and the product's ConnectionPoster
// (lambdas/adapters/realtime/connection-poster.ts), each with the handlers' client configuration (keep-alive
// sockets, 64 requests in flight). Used by bench/ws.ts.
import { fork } from 'node:child_process';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { ConnectionPoster } from '../lambdas/adapters/realtime/connection-poster';
import { POSTS_IN_FLIGHT } from '../lambdas/adapters/realtime/management-api-publisher';

const WARM_UP = 2_000;
const MEASURED = 20_000;

if (process.argv[2] === 'post-cost-server') {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
  process.on('disconnect', () => process.exit(0));
}

/** Microseconds of this process's CPU per call, for each way, after a warm-up. */
export async function postCost(): Promise<{ sdkSend: number; poster: number }> {
  const server = fork(fileURLToPath(import.meta.url), ['post-cost-server'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await new Promise<number>((resolve) => server.once('message', (message) => resolve(message as number)));
    const endpoint = `http://127.0.0.1:${port}/live`;
    const client = new ApiGatewayManagementApiClient({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'AKIDBENCHMARK', secretAccessKey: 'benchmark-secret' },
      requestHandler: { httpAgent: new Agent({ keepAlive: true, maxSockets: POSTS_IN_FLIGHT }) },
    });
    const poster = new ConnectionPoster(client, endpoint);
    const data = new TextEncoder().encode(JSON.stringify({ type: 'stream.heartbeat', streamId: 'bench', verdict: 'healthy', health: {} }));
    const ways = {
      sdkSend: (id: string) => client.send(new PostToConnectionCommand({ ConnectionId: id, Data: data })),
      poster: (id: string) => poster.post(id, data),
    };
    const cpuPerCall = async (post: (id: string) => Promise<unknown>, calls: number) => {
      let next = 0;
      const before = process.cpuUsage();
      const lane = async () => {
        while (next < calls) await post(`connection-${next++}`);
      };
      await Promise.all(Array.from({ length: POSTS_IN_FLIGHT }, lane));
      const used = process.cpuUsage(before);
      return (used.user + used.system) / calls;
    };
    const result = { sdkSend: 0, poster: 0 };
    for (const way of ['sdkSend', 'poster'] as const) {
      await cpuPerCall(ways[way], WARM_UP);
      result[way] = Math.round(await cpuPerCall(ways[way], MEASURED));
    }
    client.destroy();
    return result;
  } finally {
    server.kill();
  }
}
