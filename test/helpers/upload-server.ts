// For tests only: upload servers on the run's real stand-ins (DynamoDB Local and the extended s3rver), each
// test file with its own table and bucket, behind a real HTTP server, plus small tus-client helpers.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Upload, type DetailedError, type UploadOptions } from 'tus-js-client';
import { createBucket } from '../../local/provision';
import { uploadsMount } from '../../local/uploads-mount';
import { localCredentials } from '../../lambdas/adapters/aws-clients';
import type { OriginVerifyValues } from '../../lambdas/adapters/origin-verify';
import { createTestTable } from './test-table';
import { AppError } from '../../lambdas/core/errors';
import {
  createUploadServer,
  MAX_CHUNK_BYTES,
  type FinishedUpload,
  type UploadConfig,
  type UploadHooks,
  type UploadServer,
  type UploadServerOptions,
} from '../../lambdas/uploads/tus-server';

export const MiB = 1024 * 1024;

/** Bearer tokens of the test users; carol has no subscription. */
export const tokens = { alice: 'token-alice', bob: 'token-bob', carol: 'token-carol' } as const;
/** Uploads larger than this exceed the test users' storage. */
export const QUOTA_BYTES = 64 * MiB;

export interface TestStorage {
  config: UploadConfig;
  db: DynamoDBDocumentClient;
  s3: S3Client;
  bucket: string;
  stop(): void;
}

export async function createTestStorage(): Promise<TestStorage> {
  const endpoint = process.env.LOOPCAST_TEST_S3;
  if (!endpoint) throw new Error('the global test setup did not run (LOOPCAST_TEST_S3 is unset)');
  const { db, table } = await createTestTable();
  const bucket = table.replace(/-app$/, '-media');
  const config: UploadConfig = {
    region: 'us-east-1',
    tables: { app: table },
    buckets: { media: bucket },
    endpoints: { dynamodb: process.env.LOOPCAST_TEST_DYNAMODB!, s3: endpoint },
  };
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: localCredentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await createBucket(s3, bucket);
  return {
    config,
    db,
    s3,
    bucket,
    stop: () => {
      s3.destroy();
      db.destroy();
    },
  };
}

export interface TestHooks extends UploadHooks {
  finished: FinishedUpload[];
}

export function testHooks(): TestHooks {
  const users = new Map(Object.entries(tokens).map(([user, token]) => [token as string, user]));
  const finished: FinishedUpload[] = [];
  return {
    finished,
    authenticate: async (token) => {
      const userId = users.get(token);
      return userId ? { userId } : undefined;
    },
    authorizeCreation: async ({ userId, uploadLength }) => {
      if (userId === 'carol') throw new AppError('no active subscription');
      if (uploadLength > QUOTA_BYTES) throw new AppError('storage limit');
    },
    onUploadFinished: async (upload) => {
      finished.push(upload);
    },
  };
}

export interface TestOrigin {
  /** The tus endpoint, e.g. http://127.0.0.1:1234/api/uploads */
  endpoint: string;
  server: UploadServer;
  stop(): Promise<void>;
}

/** A real HTTP server with the local uploads mount, as the local stack's origin serves it. */
export async function startTestOrigin(
  storage: TestStorage,
  hooks: UploadHooks,
  options: Omit<UploadServerOptions, 'deps' | 'hooks'> & { originVerify?: OriginVerifyValues } = {},
): Promise<TestOrigin> {
  const { originVerify, ...serverOptions } = options;
  const server = createUploadServer({ deps: { config: storage.config, db: storage.db, ...(originVerify ? { originVerify } : {}) }, hooks, ...serverOptions });
  const mount = uploadsMount(server);
  const http: Server = createServer((request, response) => {
    mount.handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}${mount.prefix}`,
    server,
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A test file's storage, hooks and origin: started before its tests, stopped after them. */
export function uploadOriginForFile(options: Parameters<typeof startTestOrigin>[2] = {}): {
  readonly storage: TestStorage;
  readonly hooks: TestHooks;
  readonly origin: TestOrigin;
} {
  let started: { storage: TestStorage; hooks: TestHooks; origin: TestOrigin } | undefined;
  beforeAll(async () => {
    const storage = await createTestStorage();
    const hooks = testHooks();
    started = { storage, hooks, origin: await startTestOrigin(storage, hooks, options) };
  });
  afterAll(async () => {
    await started?.origin.stop();
    started?.storage.stop();
  });
  const get = () => {
    if (!started) throw new Error('the upload origin is started in beforeAll');
    return started;
  };
  return {
    get storage() {
      return get().storage;
    },
    get hooks() {
      return get().hooks;
    },
    get origin() {
      return get().origin;
    },
  };
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export async function storedSha256(storage: TestStorage, key: string): Promise<string> {
  const { Body } = await storage.s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
  const hash = createHash('sha256');
  for await (const chunk of Body as Readable) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const videoMetadata = { filename: 'holiday.mp4', filetype: 'video/mp4', kind: 'video' };

/** Uploads with tus-js-client as the web app does (4 MiB chunks); resolves with the upload URL. */
export function tusUpload(source: Buffer, options: UploadOptions & { token: string }): Promise<string> {
  const { token, ...rest } = options;
  return new Promise((resolve, reject) => {
    const upload = new Upload(source, {
      chunkSize: MAX_CHUNK_BYTES,
      retryDelays: [],
      metadata: videoMetadata,
      headers: { Authorization: `Bearer ${token}` },
      ...rest,
      onError: (error) => reject(error),
      onSuccess: () => resolve(upload.url!),
    });
    upload.start();
  });
}

/** The status and JSON body of a tus-js-client failure (what Uppy shows the user). */
export function refusalOf(error: unknown): { status: number | undefined; body: unknown } {
  const response = (error as DetailedError).originalResponse;
  return { status: response?.getStatus(), body: response ? JSON.parse(response.getBody()) : undefined };
}

export const tusHeaders = (token: string) => ({ 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` });

/** A TCP proxy in front of `target` that drops the connection once `dropAfter` bytes went from client to
 * server (a network failure in the middle of a request: the server receives those bytes, then end of stream),
 * and passes every later connection through untouched. */
export async function startDroppingProxy(target: string, dropAfter: number): Promise<{ url: string; dropped: () => boolean; stop(): Promise<void> }> {
  const { hostname, port, pathname } = new URL(target);
  let forwarded = 0;
  let dropped = false;
  const sockets = new Set<Socket>();
  const proxy = createTcpServer((client) => {
    const server = connect(Number(port), hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    server.pipe(client);
    client.on('data', (data: Buffer) => {
      if (dropped) return void server.write(data);
      const room = dropAfter - forwarded;
      forwarded += data.length;
      if (data.length < room) return void server.write(data);
      dropped = true;
      server.end(data.subarray(0, room));
      client.destroy();
    });
    client.on('end', () => server.end());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${proxyPort}${pathname}`,
    dropped: () => dropped,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}
