// s3rver ships no types; this is the part of its API the local stack uses (local/s3-server.ts extends it).
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { S3rverContext, S3rverMiddleware, S3rverStore } from 's3rver/lib/stores/filesystem.js';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: Buffer[] }[];
  }

  /** A Koa application: `middleware` is Koa's array, composed when the server starts listening. */
  export default class S3rver {
    constructor(options: S3rverOptions);
    httpServer?: Server;
    store: S3rverStore;
    context: Partial<S3rverContext>;
    middleware: S3rverMiddleware[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}

declare module 's3rver/lib/stores/filesystem.js' {
  import type { Readable } from 'node:stream';

  export interface S3rverObject {
    bucket: string;
    key: string;
    content: Readable | Buffer | null;
    metadata: Record<string, string>;
  }

  /** The subset of Koa's context s3rver's middleware and our extensions touch. */
  export interface S3rverContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    headers: Record<string, string | string[] | undefined>;
    params: Record<string, string | undefined>;
    state: Record<string, unknown>;
    status: number;
    type: string;
    body: unknown;
    store: S3rverStore;
  }

  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void> | void;

  export interface S3rverStore {
    getBucket(bucket: string): Promise<{ name: string } | null>;
  }

  export default class FilesystemStore implements S3rverStore {
    constructor(rootDirectory: string);
    rootDirectory: string;
    getBucket(bucket: string): Promise<{ name: string } | null>;
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
    putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
    putPart(bucket: string, uploadId: string, partNumber: string, content: Readable): Promise<{ size: number; md5: string }>;
    /** The object (its content a stream of bytes `start` to `end`, inclusive, when given), or null. */
    getObject(bucket: string, key: string, range?: { start: number; end: number }): Promise<S3rverObject | null>;
    putObjectMultipart(bucket: string, uploadId: string, parts: { number: number; etag: string }[]): Promise<{ size: number; md5: string }>;
  }
}

declare module 's3rver/lib/models/error.js' {
  /** s3rver's S3 error: thrown inside its Koa app, it is answered in S3's XML error format. */
  export default class S3Error extends Error {
    constructor(code: string, message?: string, detail?: Record<string, string | number>);
    code: string;
    status: number;
  }
}

declare module 's3rver/lib/middleware/authentication.js' {
  import type { S3rverMiddleware } from 's3rver/lib/stores/filesystem.js';
  /** s3rver's request-signature check (needs `ctx.params.bucket` and `ctx.params.key`). */
  export default function authentication(): S3rverMiddleware;
}

declare module 's3rver/lib/models/account.js' {
  /** The one account s3rver knows, owner of everything it stores (access key S3RVER, unless revoked); its keys are
   * in one registry for the whole process. */
  const accounts: {
    DUMMY_ACCOUNT: {
      id: number;
      displayName: string;
      createKeyPair(accessKeyId: string, secretAccessKey: string): void;
      revokeAccessKey(accessKeyId: string): void;
    };
  };
  export default accounts;
}
