// Inputs are fetched once to local disk before streaming: ffmpeg then loops a local file, so a 24/7 stream does
// not depend on S3 for every loop. Sources are short-lived HTTPS URLs (managed mode: presigned by the task API),
// `s3://bucket/key` (standalone mode with S3 credentials), or local paths (tests, self-hosting).
import type { S3Client } from '@aws-sdk/client-s3';
import { createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { requiredLocalCredentials } from '../../lambdas/contract/local-credentials';
import { send } from './http';

/** A source as a local file. `etag`: the S3 object's, when it came from S3: it names the bytes, and a probe of them is
 * kept under it (lambdas/contract/stream-task.ts, mediaProbeSchema). */
export interface FetchedInput {
  path: string;
  etag?: string;
}

export interface InputFetcher {
  canFetch(source: string): boolean;
  /** Makes the source available as a local file in `dir` (or where it already is). */
  fetch(source: string, dir: string, signal?: AbortSignal): Promise<FetchedInput>;
}

export function parseS3Source(source: string): { bucket: string; key: string } | undefined {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(source);
  return match ? { bucket: match[1]!, key: match[2]! } : undefined;
}

export interface S3ClientOptions {
  region: string;
  /** The local stand-in's (s3rver); AWS without it. */
  endpoint?: string | undefined;
}

/** The AWS SDK's S3 client, loaded when first asked for: only standalone tasks fetch s3:// sources (a managed task
 * gets presigned URLs), and loading the SDK was a third of the task's start (docs/stream-task.md). The bundle keeps
 * it in a chunk of its own (stream-task/bundle.ts). A CommonJS package: its exports are the import's `default`, in
 * Node and in the bundle alike (whose chunk names none). */
const s3Sdk = async () => (await import('@aws-sdk/client-s3')).default;

/** S3 client for the task: the local stand-in (s3rver) when an endpoint is given, AWS otherwise. */
export async function createS3Client(options: S3ClientOptions): Promise<S3Client> {
  const { S3Client } = await s3Sdk();
  return new S3Client({
    region: options.region,
    // Without these, SDK v3 adds aws-chunked checksum trailers s3rver does not understand; path style because
    // s3rver has no virtual-host buckets.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The local stack's credentials, from the environment (standalone runs against it; a managed task gets
    // presigned URLs and holds no credentials).
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true, credentials: async () => requiredLocalCredentials(process.env) } : {}),
  });
}

/** `s3://bucket/key` sources, with a client made on the first one. */
export class S3InputFetcher implements InputFetcher {
  private client: Promise<S3Client> | undefined;

  constructor(private readonly options: S3ClientOptions) {}

  canFetch(source: string): boolean {
    return parseS3Source(source) !== undefined;
  }

  async fetch(source: string, dir: string, signal?: AbortSignal): Promise<FetchedInput> {
    const { bucket, key } = parseS3Source(source)!;
    try {
      return await downloadTo(
        dir,
        basename(key),
        async () => {
          this.client ??= createS3Client(this.options);
          const [client, { GetObjectCommand }] = await Promise.all([this.client, s3Sdk()]);
          const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
          if (!(object.Body instanceof Readable)) throw new Error('S3 returned no body');
          return { body: object.Body, etag: object.ETag };
        },
        signal,
      );
    } catch (error) {
      throw new Error(`cannot fetch ${source}: ${(error as Error).name === 'NoSuchKey' ? 'no such object' : (error as Error).message}`);
    }
  }

  /** Closes the client's connections, if one was made. */
  async destroy(): Promise<void> {
    (await this.client?.catch(() => undefined))?.destroy();
  }
}

/** Downloads to `<dir>/<name>.part`, renamed when complete, so a file under the final name is never torn. */
async function downloadTo(
  dir: string,
  name: string,
  open: () => Promise<{ body: Readable; etag: string | undefined }>,
  signal?: AbortSignal,
): Promise<FetchedInput> {
  const target = join(dir, name);
  const partial = `${target}.part`;
  try {
    await mkdir(dir, { recursive: true });
    const { body, etag } = await open();
    await pipeline(body, createWriteStream(partial), { signal });
    await rename(partial, target);
    return { path: target, ...(etag ? { etag } : {}) };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** A URL, such as the presigned S3 URL the task API gives a managed task, downloaded by Node's own HTTP client: its
 * body is a Node stream that goes to the file as it is (fetch's web stream, made a Node stream, cost a fresh task's
 * download of 8 MB some 80 ms more). Errors never echo the URL (it is a credential while it lasts). */
export class HttpInputFetcher implements InputFetcher {
  canFetch(source: string): boolean {
    return /^https?:\/\//i.test(source);
  }

  async fetch(source: string, dir: string, signal?: AbortSignal): Promise<FetchedInput> {
    const url = new URL(source);
    try {
      return await downloadTo(
        dir,
        basename(url.pathname) || 'input',
        async () => {
          const response = await send(url, { ...(signal ? { signal } : {}) });
          const status = response.statusCode ?? 0;
          if (status < 200 || status > 299) {
            response.destroy();
            throw new Error(`HTTP ${status}`);
          }
          return { body: response, etag: response.headers.etag };
        },
        signal,
      );
    } catch (error) {
      throw new Error(`cannot fetch ${basename(url.pathname)}: ${(error as Error).message}`);
    }
  }
}

/** Local files are used where they are. */
export class LocalFileFetcher implements InputFetcher {
  canFetch(source: string): boolean {
    return !/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || source.startsWith('file://');
  }

  async fetch(source: string): Promise<FetchedInput> {
    const path = source.startsWith('file://') ? new URL(source).pathname : resolve(source);
    await access(path).catch(() => {
      throw new Error(`no such file: ${path}`);
    });
    return { path };
  }
}

export async function fetchInput(fetchers: readonly InputFetcher[], source: string, dir: string, signal?: AbortSignal): Promise<FetchedInput> {
  const fetcher = fetchers.find((f) => f.canFetch(source));
  if (!fetcher) throw new Error(`no way to fetch ${source}`);
  return fetcher.fetch(source, dir, signal);
}
