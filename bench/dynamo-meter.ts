// A metering proxy in front of DynamoDB Local: every request of every client (the stack's handlers and the stream
// task's process alike) passes through it, asks DynamoDB for its consumed capacity (ReturnConsumedCapacity TOTAL
// added to the request; DynamoDB Local ignores signatures), and the capacity each answer reports is added up by
// operation. What DynamoDB would bill on demand: read and write request units. A conditional write that fails is
// billed too but answers no capacity: those are counted apart (one write unit each for items under 1 KB).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

const readBody = async (stream: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

export async function startDynamoMeter(upstream: string): Promise<DynamoMeter> {
  const target = new URL(upstream);
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
      let body = await readBody(incoming);
      if (READS.has(operation) || WRITES.has(operation)) {
        body = Buffer.from(JSON.stringify({ ...JSON.parse(body.toString() || '{}'), ReturnConsumedCapacity: 'TOTAL' }));
      }
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, 'content-length': String(body.length) },
        },
        async (answer) => {
          const bytes = await readBody(answer);
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
