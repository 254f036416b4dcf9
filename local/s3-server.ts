// s3rver (an S3 API on the file system), extended with what @tus/s3-store and the upload server need and s3rver
// lacks: ListParts, AbortMultipartUpload, ListMultipartUploads and UploadPartCopy, on s3rver's own store layout
//   <bucket>/._S3rver_uploads/<uploadId>/{key, metadata, <partNumber>, <partNumber>.md5}
// It also replaces s3rver's writes, which acknowledge a PUT before the file is flushed (a GET right after could
// read a short file), with streamed writes to a temporary file that is renamed into place once complete.
// And it answers only this machine's own processes that hold the stack's credentials: s3rver answers any Host name
// (a DNS-rebinding page in the developer's browser could list, read and delete every user's media), lets unsigned
// requests through and, for SigV4, checks only that the access key id is one it knows (S3RVER, in its source).
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import authentication from 's3rver/lib/middleware/authentication.js';
import accounts from 's3rver/lib/models/account.js';
import S3Error from 's3rver/lib/models/error.js';
import FilesystemStore, { type S3rverContext, type S3rverMiddleware, type S3rverObject } from 's3rver/lib/stores/filesystem.js';
import type { LocalCredentials } from '../lambdas/contract/local-credentials';
import { processLocalCredentials } from './credentials';
import { PortInUseError } from './ports';
import { checkSignatureV4, isLoopbackHost } from './stand-in-access';

export interface S3Server {
  endpoint: string;
  stop(): Promise<void>;
}

const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_NUMBER = 10_000;
const MAX_LISTED = 1000;
const S3_XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

interface MultipartUpload {
  uploadId: string;
  key: string;
  initiated: Date;
}

interface StoredPart {
  number: number;
  size: number;
  etag: string;
  lastModified: Date;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

const noSuchUpload = (uploadId: string) =>
  new S3Error('NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', {
    UploadId: uploadId,
  });

type Source = Readable | (() => AsyncIterable<Buffer>);

/** Streams `source` into the file at `path`, hashing on the way (S3's ETag of a single-part object is its MD5). */
async function streamToFile(source: Source, path: string): Promise<{ size: number; md5: string }> {
  const hash = createHash('md5');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, measure, createWriteStream(path));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { size, md5: hash.digest('hex') };
}

const temporaryName = (path: string) => `${path}.${randomBytes(6).toString('hex')}.tmp`;

/** Like streamToFile, through a temporary file renamed into place: readers never see a partial file. */
async function writeFileAtomically(source: Source, path: string): Promise<{ size: number; md5: string }> {
  const temporary = temporaryName(path);
  const result = await streamToFile(source, temporary);
  await rename(temporary, path);
  return result;
}

class MultipartFilesystemStore extends FilesystemStore {
  private uploadsDir(bucket: string): string {
    return this.getResourcePath(bucket, undefined, 'uploads');
  }

  async getUpload(bucket: string, uploadId: string): Promise<MultipartUpload | undefined> {
    // s3rver's ids are 32 hex digits; anything else could name a path outside the uploads folder.
    if (!/^[0-9a-f]{32}$/.test(uploadId)) return undefined;
    const keyFile = join(this.uploadsDir(bucket), uploadId, 'key');
    try {
      const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]);
      return { uploadId, key, initiated: info.mtime };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Every upload in progress, by key, then oldest first (S3's order). */
  async listUploads(bucket: string): Promise<MultipartUpload[]> {
    let ids: string[];
    try {
      ids = await readdir(this.uploadsDir(bucket));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const uploads = (await Promise.all(ids.map((id) => this.getUpload(bucket, id)))).filter((u) => u !== undefined);
    return uploads.sort(
      (a, b) => a.key.localeCompare(b.key, 'en') || a.initiated.getTime() - b.initiated.getTime() || a.uploadId.localeCompare(b.uploadId, 'en'),
    );
  }

  /** Parts by upload (`<bucket>/<uploadId>`), read from disk once and then kept up to date: @tus/s3-store lists
   * the parts at every PATCH, which would otherwise cost two file reads per part (thousands for a 10 GB file). */
  private readonly partIndex = new Map<string, Promise<Map<number, StoredPart>>>();

  private async readParts(dir: string): Promise<Map<number, StoredPart>> {
    const names = (await readdir(dir)).filter((name) => /^\d+$/.test(name));
    const parts = await Promise.all(
      names.map(async (name) => {
        const [info, md5] = await Promise.all([stat(join(dir, name)), readFile(join(dir, `${name}.md5`), 'utf8')]);
        return { number: Number(name), size: info.size, etag: JSON.stringify(md5), lastModified: info.mtime };
      }),
    );
    return new Map(parts.map((part) => [part.number, part]));
  }

  async listParts(bucket: string, uploadId: string): Promise<StoredPart[]> {
    const indexKey = `${bucket}/${uploadId}`;
    let index = this.partIndex.get(indexKey);
    if (!index) {
      index = this.readParts(join(this.uploadsDir(bucket), uploadId));
      this.partIndex.set(indexKey, index);
      index.catch(() => this.partIndex.delete(indexKey));
    }
    return [...(await index).values()].sort((a, b) => a.number - b.number);
  }

  private forgetParts(bucket: string, uploadId: string): void {
    this.partIndex.delete(`${bucket}/${uploadId}`);
  }

  async abortUpload(bucket: string, uploadId: string): Promise<void> {
    this.forgetParts(bucket, uploadId);
    await rm(join(this.uploadsDir(bucket), uploadId), { recursive: true, force: true });
  }

  override async putObject(object: S3rverObject): Promise<{ size: number; md5: string }> {
    if (object.content === null) throw new Error('putObject without content');
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const source = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
    const result = await writeFileAtomically(source, objectPath);
    await this.putMetadata(object.bucket, object.key, object.metadata, result.md5);
    return result;
  }

  override async putPart(bucket: string, uploadId: string, partNumber: string, content: Readable): Promise<{ size: number; md5: string }> {
    const number = Number(partNumber);
    if (!Number.isInteger(number) || number < 1 || number > MAX_PART_NUMBER) {
      throw new S3Error('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive', {
        ArgumentName: 'partNumber',
        ArgumentValue: partNumber,
      });
    }
    if (!(await this.getUpload(bucket, uploadId))) throw noSuchUpload(uploadId);
    const partPath = join(this.uploadsDir(bucket), uploadId, String(number));
    // The part's data goes to a temporary name first and its checksum is written before the data is renamed
    // into place: a part that ListParts sees always has its ETag.
    const staged = temporaryName(partPath);
    const result = await streamToFile(content, staged);
    await writeFile(`${partPath}.md5`, result.md5);
    await rename(staged, partPath);
    // An index being read from disk right now may or may not have seen this part: set it once it is read.
    const index = this.partIndex.get(`${bucket}/${uploadId}`);
    if (index) (await index).set(number, { number, size: result.size, etag: JSON.stringify(result.md5), lastModified: new Date() });
    return result;
  }

  /** CompleteMultipartUpload with S3's checks: parts ascending, present with matching ETags, all but the last
   * at least 5 MiB; the parts are then streamed one after the other into the object, whose ETag is S3's for a
   * multipart object (`<MD5 of the parts' MD5s>-<parts>`). */
  override async putObjectMultipart(bucket: string, uploadId: string, parts: { number: number; etag: string }[]): Promise<{ size: number; md5: string }> {
    const upload = await this.getUpload(bucket, uploadId);
    if (!upload) throw noSuchUpload(uploadId);
    const stored = new Map((await this.listParts(bucket, uploadId)).map((part) => [part.number, part]));
    if (parts.some((part, index) => index > 0 && part.number <= parts[index - 1]!.number)) {
      throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.', { UploadId: uploadId });
    }
    parts.forEach((part, index) => {
      const found = stored.get(part.number);
      if (!found || found.etag.replaceAll('"', '') !== part.etag) {
        throw new S3Error('InvalidPart', 'One or more of the specified parts could not be found or its entity tag does not match.', {
          UploadId: uploadId,
          PartNumber: part.number,
          ETag: part.etag,
        });
      }
      if (index < parts.length - 1 && found.size < MIN_PART_BYTES) {
        throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', {
          ProposedSize: found.size,
          MinSizeAllowed: MIN_PART_BYTES,
          PartNumber: part.number,
        });
      }
    });
    const uploadDir = join(this.uploadsDir(bucket), uploadId);
    const headers = JSON.parse(await readFile(join(uploadDir, 'metadata'), 'utf8')) as Record<string, string>;
    const objectPath = this.getResourcePath(bucket, upload.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const partPaths = parts.map((part) => join(uploadDir, String(part.number)));
    const temporary = temporaryName(objectPath);
    await pipeline(async function* concatenate() {
      for (const path of partPaths) yield* createReadStream(path);
    }, createWriteStream(temporary)).catch(async (error: unknown) => {
      await rm(temporary, { force: true });
      throw error;
    });
    await rename(temporary, objectPath);
    // S3's ETag of a multipart object: the MD5 of the parts' MD5s, and how many parts (no hash of the whole object).
    const partMd5s = parts.map((part) => Buffer.from(stored.get(part.number)!.etag.replaceAll('"', ''), 'hex'));
    const result = {
      size: parts.reduce((sum, part) => sum + stored.get(part.number)!.size, 0),
      md5: `${createHash('md5').update(Buffer.concat(partMd5s)).digest('hex')}-${parts.length}`,
    };
    await this.putMetadata(bucket, upload.key, { 'content-type': 'binary/octet-stream', ...headers }, result.md5);
    this.forgetParts(bucket, uploadId);
    await rm(uploadDir, { recursive: true, force: true });
    return result;
  }
}

const owner = { ID: accounts.DUMMY_ACCOUNT.id, DisplayName: accounts.DUMMY_ACCOUNT.displayName };

function queryValue(ctx: S3rverContext, name: string): string | undefined {
  const value = ctx.query[name];
  return Array.isArray(value) ? value[0] : value;
}

function boundedInteger(ctx: S3rverContext, name: string, fallback: number, min: number, max: number): number {
  const raw = queryValue(ctx, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new S3Error('InvalidArgument', `Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: raw });
  }
  return Math.min(value, max);
}

async function listParts(ctx: S3rverContext, store: MultipartFilesystemStore, bucket: string, upload: MultipartUpload): Promise<void> {
  const marker = boundedInteger(ctx, 'part-number-marker', 0, 0, MAX_PART_NUMBER);
  const maxParts = boundedInteger(ctx, 'max-parts', MAX_LISTED, 0, MAX_LISTED);
  const after = (await store.listParts(bucket, upload.uploadId)).filter((part) => part.number > marker);
  const page = after.slice(0, maxParts);
  const isTruncated = after.length > page.length;
  ctx.body = {
    ListPartsResult: {
      '@': { xmlns: S3_XMLNS },
      Bucket: bucket,
      Key: upload.key,
      UploadId: upload.uploadId,
      Initiator: owner,
      Owner: owner,
      StorageClass: 'STANDARD',
      PartNumberMarker: marker,
      NextPartNumberMarker: page.at(-1)?.number ?? marker,
      MaxParts: maxParts,
      IsTruncated: isTruncated,
      // No element at all when there are no parts: an empty array would print one empty <Part/>.
      ...(page.length
        ? {
            Part: page.map((part) => ({
              PartNumber: part.number,
              LastModified: part.lastModified.toISOString(),
              ETag: part.etag,
              Size: part.size,
            })),
          }
        : {}),
    },
  };
}

async function listMultipartUploads(ctx: S3rverContext, store: MultipartFilesystemStore, bucket: string): Promise<void> {
  for (const unsupported of ['delimiter', 'encoding-type']) {
    if (queryValue(ctx, unsupported) !== undefined) {
      throw new S3Error('NotImplemented', `The local S3 does not implement ${unsupported} for ListMultipartUploads`);
    }
  }
  const prefix = queryValue(ctx, 'prefix') ?? '';
  const keyMarker = queryValue(ctx, 'key-marker') || undefined;
  const uploadIdMarker = queryValue(ctx, 'upload-id-marker') || undefined;
  const maxUploads = boundedInteger(ctx, 'max-uploads', MAX_LISTED, 0, MAX_LISTED);

  const uploads = (await store.listUploads(bucket)).filter((upload) => upload.key.startsWith(prefix));
  // S3: after key-marker; uploads of key-marker itself only after upload-id-marker, when one is given.
  const markerIndex = uploads.findIndex((u) => u.key === keyMarker && u.uploadId === uploadIdMarker);
  const after = uploads.filter((upload, index) => {
    if (keyMarker === undefined || upload.key > keyMarker) return true;
    if (upload.key !== keyMarker || uploadIdMarker === undefined) return false;
    return markerIndex >= 0 ? index > markerIndex : upload.uploadId > uploadIdMarker;
  });
  const page = after.slice(0, maxUploads);
  const isTruncated = after.length > page.length;
  const last = page.at(-1);
  ctx.body = {
    ListMultipartUploadsResult: {
      '@': { xmlns: S3_XMLNS },
      Bucket: bucket,
      KeyMarker: keyMarker ?? '',
      UploadIdMarker: uploadIdMarker ?? '',
      ...(isTruncated && last ? { NextKeyMarker: last.key, NextUploadIdMarker: last.uploadId } : {}),
      Prefix: prefix,
      MaxUploads: maxUploads,
      IsTruncated: isTruncated,
      ...(page.length
        ? {
            Upload: page.map((upload) => ({
              Key: upload.key,
              UploadId: upload.uploadId,
              Initiator: owner,
              Owner: owner,
              StorageClass: 'STANDARD',
              Initiated: upload.initiated.toISOString(),
            })),
          }
        : {}),
    },
  };
}

/** UploadPartCopy: a part that is a byte range (`x-amz-copy-source-range: bytes=first-last`, or the whole
 * object) of an existing object, answered as S3 does. */
async function uploadPartCopy(ctx: S3rverContext, store: MultipartFilesystemStore, bucket: string, upload: MultipartUpload): Promise<void> {
  const { bucket: sourceBucket, key: sourceKey } = bucketAndKey(`/${String(ctx.headers['x-amz-copy-source']).replace(/^\//, '')}`);
  const range = ctx.headers['x-amz-copy-source-range'];
  const bounds = range === undefined ? undefined : /^bytes=(\d+)-(\d+)$/.exec(String(range));
  if (range !== undefined && (!bounds || Number(bounds[2]) < Number(bounds[1]))) {
    throw new S3Error(
      'InvalidArgument',
      'The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy',
    );
  }
  const source =
    sourceBucket && sourceKey
      ? await store.getObject(sourceBucket, sourceKey, bounds ? { start: Number(bounds[1]), end: Number(bounds[2]) } : undefined)
      : null;
  if (!source) throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: sourceKey ?? '' });
  const size = Number(source.metadata['content-length']);
  if (!source.content || (bounds && Number(bounds[2]) >= size)) {
    (source.content as Readable | null)?.destroy();
    throw new S3Error('InvalidRange', 'The requested range is not satisfiable', { RangeRequested: String(range), ActualObjectSize: size });
  }
  const { md5 } = await store.putPart(bucket, upload.uploadId, queryValue(ctx, 'partNumber') ?? '', source.content as Readable);
  ctx.type = 'application/xml';
  ctx.body = { CopyPartResult: { '@': { xmlns: S3_XMLNS }, LastModified: new Date().toISOString(), ETag: JSON.stringify(md5) } };
}

/** Path-style addressing only (`/<bucket>/<key>`), as the local stack configures s3rver. */
function bucketAndKey(path: string): { bucket?: string; key?: string } {
  const [bucket, ...rest] = path.slice(1).split('/');
  return {
    ...(bucket ? { bucket: decodeURIComponent(bucket) } : {}),
    ...(rest.length && rest.join('/') ? { key: decodeURIComponent(rest.join('/')) } : {}),
  };
}

function multipartExtensions(store: MultipartFilesystemStore): S3rverMiddleware {
  const checkSignature = authentication();
  return async (ctx, next) => {
    const { bucket, key } = bucketAndKey(ctx.path);
    const uploadId = queryValue(ctx, 'uploadId');
    const listsUploads = ctx.method === 'GET' && bucket !== undefined && key === undefined && 'uploads' in ctx.query;
    if (bucket === undefined || !(listsUploads || (key !== undefined && uploadId !== undefined))) return next();

    ctx.params = { ...ctx.params, bucket, key };
    await checkSignature(ctx, async () => {
      if (!(await store.getBucket(bucket))) throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
      if (listsUploads) return listMultipartUploads(ctx, store, bucket);

      const upload = await store.getUpload(bucket, uploadId!);
      if (!upload || upload.key !== key) throw noSuchUpload(uploadId!);
      if (ctx.method === 'GET') return listParts(ctx, store, bucket, upload);
      if (ctx.method === 'DELETE') {
        await store.abortUpload(bucket, upload.uploadId);
        ctx.status = 204;
        return;
      }
      if (ctx.method === 'PUT' && ctx.headers['x-amz-copy-source']) return uploadPartCopy(ctx, store, bucket, upload);
      // UploadPart and CompleteMultipartUpload: s3rver's own handlers, which call our store.
      return next();
    });
  };
}

/** Before anything else of s3rver: a loopback Host name, then a SigV4 signature (header or presigned URL) made with
 * `credentials`, verified in full. Nothing of the product reaches s3rver unsigned: the handlers and the upload
 * server use the SDK, stream tasks the presigned URLs the task API gives them, browsers only the local origin. */
function loopbackAndSigned(credentials: LocalCredentials): S3rverMiddleware {
  return (ctx, next) => {
    const { req } = ctx as unknown as { req: IncomingMessage };
    if (!isLoopbackHost(req.headers.host)) throw new S3Error('AccessDenied', 'The local S3 answers loopback host names only');
    const check = checkSignatureV4({ method: req.method ?? '', url: req.url ?? '/', headers: req.headers }, credentials);
    if (!check.ok) throw new S3Error(check.code, check.message);
    return next();
  };
}

/** s3rver (an S3 API on the file system) in this process, storing objects under `directory`. It takes requests
 * signed with `credentials` only (by default this process's, local/credentials.ts). */
export async function startS3Server(options: { port: number; directory: string; credentials?: LocalCredentials }): Promise<S3Server> {
  mkdirSync(options.directory, { recursive: true });
  const credentials = options.credentials ?? processLocalCredentials();
  // s3rver's own check (kept: it also runs for our multipart routes) looks keys up in one registry per process:
  // ours instead of the S3RVER pair from its source.
  accounts.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  accounts.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory: options.directory,
    silent: true,
    vhostBuckets: false,
  });
  const store = new MultipartFilesystemStore(options.directory);
  server.store = store;
  server.context.store = store;
  // Our routes run just before s3rver's router (its last middleware), inside its XML encoding and error handling.
  server.middleware.splice(server.middleware.length - 1, 0, multipartExtensions(store));
  server.middleware.unshift(loopbackAndSigned(credentials));
  try {
    const { port } = await server.run();
    return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(options.port, 'S3 (s3rver)', 'LOOPCAST_S3_PORT');
    throw error;
  }
}
