// A metering proxy in front of DynamoDB Local: every request of every client (the stack's handlers and the stream
// task's process alike) passes through it, asks DynamoDB for its consumed capacity (ReturnConsumedCapacity TOTAL
// added to the request, which the proxy then signs again with the stack's credentials: the local DynamoDB verifies
// every signature, local/LoopbackDynamoDbLocal.java), and the capacity each answer reports is added up by
// operation. What DynamoDB would bill on demand: read and write request units. A conditional write that fails is
// billed too but answers no capacity: those are counted apart (one write unit each for items under 1 KB).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { requiredLocalCredentials } from '../lambdas/contract/local-credentials';

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export interface OperationUsage {
  requests: number;
  readUnits: number;
  writeUnits: number;
  /** Writes refused by their condition (billed by DynamoDB, no capacity in the answer). */
  conditionFailures: number;
}

export interface DynamoMeter {
  /** Point clients here instead of at DynamoDB Local. */
  url: string;
  usage(): Record<string, OperationUsage>;
  reset(): void;
  stop(): Promise<void>;
}

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

/** The request's headers signed again for `body` (the region read from its own credential scope). */
async function resigned(incoming: IncomingMessage, body: Buffer, sha256: DynamoDBClient['config']['sha256']): Promise<IncomingHttpHeaders> {
  const region = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(String(incoming.headers.authorization))?.[1] ?? 'us-east-1';
  const signer = new SignatureV4({ credentials: requiredLocalCredentials(process.env), region, service: 'dynamodb', sha256 });
  const headers = Object.fromEntries(
    Object.entries(incoming.headers).filter(([name]) => !['authorization', 'x-amz-date', 'x-amz-content-sha256', 'content-length'].includes(name)),
  ) as Record<string, string>;
  const [hostname, port] = String(incoming.headers.host).split(':');
  const signed = await signer.sign(
    new HttpRequest({
      method: incoming.method,
      protocol: 'http:',
      hostname,
      port: Number(port),
      path: incoming.url,
      headers: { ...headers, 'content-length': String(body.length) },
      body,
    }),
  );
  return signed.headers;
}

export async function startDynamoMeter(upstream: string): Promise<DynamoMeter> {
  const target = new URL(upstream);
  const { sha256 } = new DynamoDBClient({ region: 'us-east-1' }).config;
  let usage: Record<string, OperationUsage> = {};
  const record = (operation: string, capacities: Capacity[], conditionFailed: boolean) => {
    const entry = (usage[operation] ??= { requests: 0, readUnits: 0, writeUnits: 0, conditionFailures: 0 });
    entry.requests++;
    if (conditionFailed) entry.conditionFailures++;
    for (const capacity of capacities) {
      const units = capacity.CapacityUnits ?? 0;
      entry.readUnits += capacity.ReadCapacityUnits ?? (READS.has(operation) ? units : 0);
      entry.writeUnits += capacity.WriteCapacityUnits ?? (WRITES.has(operation) ? units : 0);
    }
  };

  const server: Server = createServer(async (incoming, outgoing) => {
    try {
      const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      let body = await buffer(incoming);
      let headers: IncomingHttpHeaders = incoming.headers;
      if (READS.has(operation) || WRITES.has(operation)) {
        body = Buffer.from(JSON.stringify({ ...JSON.parse(body.toString() || '{}'), ReturnConsumedCapacity: 'TOTAL' }));
        headers = await resigned(incoming, body, sha256);
      }
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers,
        },
        async (answer) => {
          const bytes = await buffer(answer);
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(bytes);
          if (!operation) return;
          try {
            const json = JSON.parse(bytes.toString() || '{}') as { ConsumedCapacity?: Capacity | Capacity[]; __type?: string };
            const capacities =
              json.ConsumedCapacity === undefined ? [] : Array.isArray(json.ConsumedCapacity) ? json.ConsumedCapacity : [json.ConsumedCapacity];
            record(operation, capacities, /ConditionalCheckFailed|TransactionCanceled/.test(json.__type ?? ''));
          } catch {
            record(operation, [], false);
          }
        },
      );
      forwarded.on('error', (error) => outgoing.writeHead(502).end(String(error)));
      forwarded.end(body);
    } catch (error) {
      outgoing.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    usage: () => structuredClone(usage),
    reset: () => {
      usage = {};
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
