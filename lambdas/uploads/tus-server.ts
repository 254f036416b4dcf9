// The tus 1.0.0 upload endpoint, `/api/uploads`: @tus/server writing S3 multipart uploads through @tus/s3-store,
// behind ONE web-standard handler (Request -> Response) shared by the Lambda behind its Function URL
// (function-url.ts) and the local HTTP origin (local/uploads-mount.ts).
//
// - Every request but OPTIONS needs `Authorization: Bearer <token>`; the upload's S3 key carries its owner
//   (uploads/<userId>/<uploadId>) and is derived from the authenticated user, so another user's request for the
//   same URL names a different key and finds nothing (404).
// - Locks and the S3 store's metadata cache live in DynamoDB: any container can serve any request of an upload.
// - Every refusal is `{ error, message }` from the error catalogue, with tus's status where the protocol needs it
//   (409 offset conflict, 410 expired, 412 version), never a stack trace.
// - It records uploads started, completed and failed and their duration (upload-metrics.ts).
// - Concatenation (what tus-js-client's `parallelUploads` speaks): `Upload-Concat: partial` uploads are stored
//   like any other but registered as nothing; `POST` with `Upload-Concat: final;<url> <url>...` joins the
//   caller's finished partials inside S3 into one upload, which is the one the product registers. @tus/server
//   has no concatenation, so the final POST is answered here.
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { MetadataValue } from '@tus/s3-store';
import { Server } from '@tus/server';
import { EVENTS, Metadata, Uid, Upload, type Lock } from '@tus/utils';
import { z } from 'zod';
import { localCredentials } from '../adapters/aws-clients';
import type { RuntimeConfig } from '../adapters/config';
import type { Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { DynamoKvStore } from '../adapters/tus/dynamo-kv-store';
import { DynamoLocker } from '../adapters/tus/dynamo-locker';
import { API_BASE } from '../contract/routes';
import { ORIGIN_VERIFY_HEADER } from '../contract/edge-headers';
import { edgeCheck } from '../adapters/origin-verify';
import { AppError, errorBody, isErrorKey, type ErrorBody } from '../core/errors';
import { bitrateTiers, outputProfileIds } from '../core/media-spec';
import { CONTROL_CHARACTERS_REFUSED, hasForbiddenCharacters } from '../core/plain-text';
import { MIN_PART_BYTES, StagingS3Store } from './staging-s3-store';
import { uploadMetrics, type UploadMetrics } from './upload-metrics';
import { uploadKey } from '../contract/buckets';

export const UPLOADS_PATH = `${API_BASE}/uploads`;
/** The client's PATCH size: a Function URL takes 6 MB per request, and binary bodies arrive base64-encoded. */
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
/** S3 parts of two client chunks; the store keeps what is left below S3's 5 MiB minimum as a `.part` object. */
const PART_BYTES = 8 * 1024 * 1024;
/** 10,000 parts of PART_BYTES (about 84 GB). Beyond, the store would grow the parts and re-copy ever larger
 * leftovers at each 4 MiB chunk. */
const MAX_UPLOAD_BYTES = PART_BYTES * 10_000;
const DEFAULT_EXPIRATION_MS = 7 * 24 * 60 * 60 * 1000;
/** The most partial uploads one final upload may join. */
const MAX_PARTIALS = 16;
/** Marks a partial upload in its stored metadata (never sent by a client: the `Upload-Concat` header sets it). */
const PARTIAL_MARK = 'upload-concat';

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const USER_ID = /^[\w-]{1,128}$/;

export const uploadKinds = ['video', 'audio'] as const;

const uploadMetadataSchema = z.object({
  // Free text: it becomes the item's title (lambdas/core/plain-text.ts).
  filename: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine((name) => !hasForbiddenCharacters(name), CONTROL_CHARACTERS_REFUSED),
  // Browsers leave the type empty for formats they do not know (often .mkv): accepted, the transcoder probes.
  filetype: z
    .string()
    .trim()
    .max(255)
    .regex(/^([\w.+-]+\/[\w.+-]+(\s*;.*)?)?$/, 'not a media type')
    .nullish()
    .transform((type) => type ?? ''),
  kind: z.enum(uploadKinds),
  // Videos: the output profile and bitrate tier asked for (lambdas/core/media-spec.ts); the default when absent.
  profile: z.enum(outputProfileIds).optional(),
  tier: z.enum(bitrateTiers).optional(),
});

export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;

export interface FinishedUpload {
  userId: string;
  uploadId: string;
  /** The complete object in the media bucket. */
  key: string;
  size: number;
  metadata: UploadMetadata;
}

/** What the rest of the product decides; injected so the upload server knows nothing of accounts or plans. */
export interface UploadHooks {
  /** The user a Bearer token belongs to, or undefined when it is not a valid session. */
  authenticate(bearerToken: string): Promise<{ userId: string } | undefined>;
  /** Before an upload is created: throw an AppError ('video upload limit', 'storage limit', 'no active
   * subscription', ...) to refuse it; the client receives it as `{ error, message }`. A final upload names the
   * partial uploads it `joining`; `expiresAt` is when the upload expires unfinished. */
  authorizeCreation(request: {
    userId: string;
    uploadId: string;
    uploadLength: number;
    metadata: UploadMetadata;
    expiresAt: Date;
    joining?: string[];
  }): Promise<void>;
  /** Uploads that ended without expiring: finished (whether or not the product kept them), joined into a final
   * upload, or terminated by their client. For hooks that hold something per unfinished upload. */
  uploadsEnded?(userId: string, uploadIds: string[]): Promise<void>;
  /** Once the last byte is stored, before the client's last PATCH is answered. When it throws, that PATCH gets
   * the error but the object stays complete, and a client resuming later finds the upload done: make it
   * reliable (and idempotent, for a second caller with the same upload). */
  onUploadFinished(upload: FinishedUpload): Promise<void>;
}

/** The part of the runtime configuration uploads need. */
export type UploadConfig = Pick<RuntimeConfig, 'region' | 'tables' | 'buckets' | 'endpoints'>;

export interface UploadServerOptions {
  /** `originVerify`: CloudFront's values; where configured, requests without one are refused (the Function URL is
   * reachable without CloudFront and its WAF). */
  deps: Pick<Deps, 'db'> & Partial<Pick<Deps, 'originVerify'>> & { config: UploadConfig };
  hooks: UploadHooks;
  /** Unfinished uploads answer 410 after this long (S3 lifecycle rules remove what is left). */
  expirationMs?: number;
  /** How long a request that must give way to a newer one for the same upload may take to stop (tus's default: 3 s). */
  lockDrainTimeoutMs?: number;
  maxUploadBytes?: number;
  /** Where uploads started, completed and failed and their duration go (default: the business metrics). */
  metrics?: UploadMetrics;
}

export interface UploadServer {
  handleWeb(request: Request): Promise<Response>;
}

const ownerOfUploadKey = (key: string): string | undefined => /^uploads\/([^/]+)\//.exec(key)?.[1];
const uploadIdOf = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/** The S3 store makes its own client; the same settings as lambdas/adapters/aws-clients.ts. */
function s3StoreClientConfig(config: UploadConfig): S3ClientConfig & { bucket: string } {
  const endpoint = config.endpoints.s3;
  return {
    bucket: config.buckets.media,
    region: config.region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(endpoint ? { endpoint, forcePathStyle: true, credentials: localCredentials } : {}),
  };
}

function parseMetadata(metadata: Record<string, string | null> | undefined): UploadMetadata {
  const parsed = uploadMetadataSchema.safeParse(metadata ?? {});
  if (parsed.success) return parsed.data;
  const fields = Object.fromEntries(parsed.error.issues.map((issue) => [`Upload-Metadata.${issue.path.join('.')}`, issue.message]));
  throw new AppError('invalid request', { fields });
}

interface Refusal {
  status: number;
  body: ErrorBody;
}

const refusal = (error: AppError, status = error.status): Refusal => ({ status, body: errorBody(error) });

/** A tus protocol answer (status and plain-text reason) as a catalogued refusal. */
function fromTus(status: number, reason: string): Refusal {
  if (status === 404) return refusal(new AppError('upload not found'));
  if (status === 410) return refusal(new AppError('upload not found'), 410);
  if (status === 413) return refusal(new AppError('payload too large'));
  if (status === 409 || status === 412) return refusal(new AppError('invalid request', { reason }), status);
  // 501: a header tus does not implement here (Upload-Length on a PATCH, Upload-Concat): the client's request is
  // wrong, and a 5xx would make it retry for ever.
  if (status < 500 || status === 501) return refusal(new AppError('invalid request', { reason }));
  // tus's own 5xx: the lock could not be had in time. Clients retry 5xx.
  logger.warn('tus upload request failed', { status, reason });
  return refusal(new AppError('service unavailable'));
}

const isTusError = (error: unknown): error is { status_code: number; body: string } =>
  typeof error === 'object' && error !== null && typeof (error as { status_code?: unknown }).status_code === 'number';

function refusalOf(error: unknown): Refusal {
  if (error instanceof AppError) return refusal(error);
  if (isTusError(error)) return fromTus(error.status_code, error.body.trim());
  logger.error('tus upload request failed', { error: error as Error });
  // AWS SDK errors (S3, DynamoDB) carry $metadata: a dependency failed, which the client may retry.
  return refusal(new AppError(typeof error === 'object' && error !== null && '$metadata' in error ? 'service unavailable' : 'internal error'));
}

function jsonResponse({ status, body }: Refusal, headers: Headers = new Headers()): Response {
  const merged = new Headers(headers);
  merged.delete('content-length');
  merged.set('content-type', 'application/json; charset=utf-8');
  merged.set('cache-control', 'no-store');
  merged.set('tus-resumable', '1.0.0');
  return new Response(JSON.stringify(body), { status, headers: merged });
}

/** tus writes some refusals itself as plain text (missing Tus-Resumable, malformed headers): catalogue them too. */
async function withCataloguedError(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const catalogued = typeof parsed === 'object' && parsed !== null && isErrorKey((parsed as { error?: unknown }).error);
  return jsonResponse(catalogued ? { status: response.status, body: parsed as ErrorBody } : fromTus(response.status, text.trim()), response.headers);
}

/** The upload ids a final upload's `Upload-Concat: final;<url> <url>...` names (absolute or relative URLs). */
function partialUploadIds(header: string): string[] {
  const urls = header.slice('final;'.length).trim().split(/\s+/).filter(Boolean);
  if (urls.length === 0 || urls.length > MAX_PARTIALS) {
    throw new AppError('invalid request', { fields: { 'Upload-Concat': `1 to ${MAX_PARTIALS} partial upload URLs` } });
  }
  return urls.map((url) => {
    let path: string;
    try {
      path = new URL(url, 'http://upload.invalid').pathname;
    } catch {
      path = '';
    }
    const id = path.startsWith(`${UPLOADS_PATH}/`) ? path.slice(UPLOADS_PATH.length + 1) : '';
    if (!UPLOAD_ID.test(id)) throw new AppError('invalid request', { fields: { 'Upload-Concat': `not an upload URL: ${url.slice(0, 100)}` } });
    return id;
  });
}

function bearerToken(request: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
}

export function createUploadServer(options: UploadServerOptions): UploadServer {
  const { deps, hooks } = options;
  const table = deps.config.tables.app;
  const expirationMs = options.expirationMs ?? DEFAULT_EXPIRATION_MS;
  const metrics = options.metrics ?? uploadMetrics();
  // The authenticated user of each request in flight, for tus's callbacks that only get the request.
  const owners = new WeakMap<Request, string>();
  // Requests that carried `Upload-Concat: partial`.
  const partialRequests = new WeakSet<Request>();
  const ownerOf = (request: Request): string => {
    const userId = owners.get(request);
    if (!userId) throw new Error('tus request without an authenticated user');
    return userId;
  };

  const store = new StagingS3Store({
    partSize: PART_BYTES,
    expirationPeriodInMilliseconds: expirationMs,
    // No `Tus-Completed` object tags: the bucket's lifecycle rules go by prefix, and tagging on PUT would need
    // s3:PutObjectTagging too.
    useTags: false,
    cache: new DynamoKvStore<MetadataValue>({ db: deps.db, table, ttlSeconds: Math.ceil(expirationMs / 1000), ownerOf: ownerOfUploadKey }),
    s3ClientConfig: s3StoreClientConfig(deps.config),
  });
  // Upload-Length is required: the deferred length the S3 store could handle is not offered.
  store.extensions = store.extensions.filter((extension) => extension !== 'creation-defer-length');

  // Answered here, not by @tus/server (createFinal); tus-js-client's parallel uploads need no announcement, others read it.
  store.extensions.push('concatenation');
  const locker = new DynamoLocker({ db: deps.db, table });

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: store,
    locker,
    maxSize: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
    ...(options.lockDrainTimeoutMs !== undefined ? { lockDrainTimeout: options.lockDrainTimeoutMs } : {}),
    // A finished upload belongs to its video now (deleted through the videos API).
    disableTerminationForFinishedUploads: true,
    namingFunction: (request) => uploadKey(ownerOf(request), Uid.rand()),
    getFileIdFromRequest: (request, lastPath) => {
      const userId = owners.get(request);
      return userId && lastPath && UPLOAD_ID.test(lastPath) ? uploadKey(userId, lastPath) : undefined;
    },
    // Relative, so the Location works behind CloudFront (whose Host is the Function URL's) and locally.
    generateUrl: (_request, { path, id }) => `${path}/${uploadIdOf(id)}`,
    onUploadCreate: async (request, upload) => {
      const metadata = parseMetadata(upload.metadata);
      // A partial upload is checked against the plan for its own size now; the final upload for the whole.
      await hooks.authorizeCreation({
        userId: ownerOf(request),
        uploadId: uploadIdOf(upload.id),
        uploadLength: upload.size ?? 0,
        metadata,
        expiresAt: new Date(Date.now() + expirationMs),
      });
      return { metadata: partialRequests.has(request) ? { ...metadata, [PARTIAL_MARK]: 'partial' } : metadata };
    },
    onUploadFinish: async (request, upload) => {
      // A partial upload becomes part of a final upload, which is the one registered.
      if (upload.metadata?.[PARTIAL_MARK] === 'partial') return {};
      // The store read the creation time back from the upload's `.info` (or set it, for creation with upload).
      metrics.lastByteStored(upload.creation_date);
      try {
        await hooks.onUploadFinished({
          userId: ownerOf(request),
          uploadId: uploadIdOf(upload.id),
          key: upload.id,
          size: upload.size ?? upload.offset,
          metadata: parseMetadata(upload.metadata),
        });
      } catch (error) {
        metrics.finished('failed');
        throw error;
      } finally {
        await uploadsEnded(ownerOf(request), [uploadIdOf(upload.id)]);
      }
      metrics.finished('completed');
      return {};
    },
    onResponseError: (_request, error) => {
      const { status, body } = refusalOf(error);
      return { status_code: status, body: JSON.stringify(body) };
    },
  });

  // After the store created an upload onUploadCreate accepted (the plan's refusals never get here). An upload sent
  // in partial uploads counts once, when its final upload is created (createFinal).
  tus.on(EVENTS.POST_CREATE, (request) => {
    if (!partialRequests.has(request)) metrics.started();
  });
  tus.on(EVENTS.POST_TERMINATE, (request, _response, id) => {
    const userId = owners.get(request);
    if (userId) void uploadsEnded(userId, [uploadIdOf(id)]);
  });

  /** Never fails the request that ended the uploads: what a hook still holds for them lapses when they expire. */
  async function uploadsEnded(userId: string, uploadIds: string[]): Promise<void> {
    try {
      await hooks.uploadsEnded?.(userId, uploadIds);
    } catch (error) {
      logger.warn('ended uploads not released', { uploadIds, error: error as Error });
    }
  }

  /** Locks every partial (in a fixed order, so two finals naming the same partials cannot deadlock). */
  async function lockAll(ids: string[], signal: AbortSignal): Promise<Lock[]> {
    const locks: Lock[] = [];
    try {
      for (const id of [...ids].sort()) {
        const lock = locker.newLock(id);
        // Nothing may interrupt a concatenation: a request for a partial waits, then gets 503 or 404.
        await lock.lock(signal, () => undefined);
        locks.push(lock);
      }
    } catch (error) {
      await Promise.all(locks.map((lock) => lock.unlock()));
      throw error;
    }
    return locks;
  }

  /** `POST` with `Upload-Concat: final;...`: the caller's finished partial uploads joined, in order, into a new
   * upload, which is then finished like any other (onUploadFinished); the partials are deleted. */
  async function createFinal(request: Request, userId: string, concat: string): Promise<Response> {
    const partialKeys = partialUploadIds(concat).map((id) => uploadKey(userId, id));
    if (new Set(partialKeys).size !== partialKeys.length)
      throw new AppError('invalid request', { fields: { 'Upload-Concat': 'a partial upload named twice' } });
    const metadata = parseMetadata(Metadata.parse(request.headers.get('upload-metadata') ?? undefined));
    const locks = await lockAll(partialKeys, request.signal);
    try {
      const partials = await Promise.all(partialKeys.map((key) => store.getUpload(key)));
      partials.forEach((partial, index) => {
        if (partial.metadata?.[PARTIAL_MARK] !== 'partial') throw new AppError('invalid request', { reason: `upload ${index + 1} is not a partial upload` });
        if (partial.size === undefined || partial.offset !== partial.size)
          throw new AppError('invalid request', { reason: `partial upload ${index + 1} is not finished` });
        if (index < partials.length - 1 && partial.size < MIN_PART_BYTES) {
          throw new AppError('invalid request', { reason: `partial upload ${index + 1} is smaller than ${MIN_PART_BYTES} bytes (only the last may be)` });
        }
      });
      const size = partials.reduce((sum, partial) => sum + partial.size!, 0);
      if (size > (options.maxUploadBytes ?? MAX_UPLOAD_BYTES)) throw new AppError('payload too large');
      const final = new Upload({ id: uploadKey(userId, Uid.rand()), size, offset: 0, metadata });
      const joining = partialKeys.map(uploadIdOf);
      const expiresAt = new Date(Date.now() + expirationMs);
      await hooks.authorizeCreation({ userId, uploadId: uploadIdOf(final.id), uploadLength: size, metadata, expiresAt, joining });

      metrics.started();
      await store.concatenate(
        final,
        partials.map((partial) => ({ id: partial.id, size: partial.size! })),
      );
      // The upload's duration counts from its first partial's creation.
      metrics.lastByteStored(
        partials
          .map((partial) => partial.creation_date)
          .filter(Boolean)
          .sort()[0],
      );
      try {
        await hooks.onUploadFinished({ userId, uploadId: uploadIdOf(final.id), key: final.id, size, metadata });
      } catch (error) {
        metrics.finished('failed');
        throw error;
      }
      metrics.finished('completed');
      await Promise.all(partialKeys.map((key) => store.discard(key)));
      await uploadsEnded(userId, joining);
      const location = `${UPLOADS_PATH}/${uploadIdOf(final.id)}`;
      return new Response(null, { status: 201, headers: { location, 'tus-resumable': '1.0.0', 'upload-offset': String(size) } });
    } finally {
      await Promise.all(locks.map((lock) => lock.unlock()));
    }
  }

  async function handleWeb(request: Request): Promise<Response> {
    try {
      const path = new URL(request.url).pathname;
      const isCollection = path === UPLOADS_PATH;
      if (!isCollection && !(path.startsWith(`${UPLOADS_PATH}/`) && !path.slice(UPLOADS_PATH.length + 1).includes('/'))) {
        throw new AppError('route not found');
      }
      // The Function URL bypasses CloudFront and its WAF: only CloudFront's requests are served.
      if (!(await edgeCheck(request.headers.get(ORIGIN_VERIFY_HEADER) ?? undefined, deps.originVerify)).allowed) throw new AppError('direct access refused');
      // CORS preflight and tus capability discovery carry no credentials.
      if (request.method === 'OPTIONS') return await withCataloguedError(await tus.handleWeb(request));
      const allowed = isCollection ? ['POST'] : ['HEAD', 'PATCH', 'DELETE'];
      if (!allowed.includes(request.method)) throw new AppError('method not allowed', undefined, { allow: ['OPTIONS', ...allowed].join(', ') });

      const token = bearerToken(request);
      const user = token ? await hooks.authenticate(token) : undefined;
      if (!user) throw new AppError('uploader token error');
      if (!USER_ID.test(user.userId)) throw new Error('authenticate returned a user id unfit for an S3 key');
      owners.set(request, user.userId);

      const concat = request.headers.get('upload-concat');
      if (request.method === 'POST' && concat?.startsWith('final;')) return await createFinal(request, user.userId, concat);
      if (concat !== null && concat !== 'partial') throw new AppError('invalid request', { fields: { 'Upload-Concat': 'partial, or final;<upload URLs>' } });
      if (concat === 'partial') {
        // @tus/server refuses any Upload-Concat (501): it sees a plain upload, and the hooks know it is partial.
        partialRequests.add(request);
        request.headers.delete('upload-concat');
      }
      if (request.method === 'POST' && request.headers.get('upload-length') === null) {
        throw new AppError('invalid request', { fields: { 'Upload-Length': 'required: the size must be known when the upload starts' } });
      }
      // An empty file is no video: it would take one of the plan's uploads and fail as an item.
      if (request.method === 'POST' && /^0+$/.test(request.headers.get('upload-length')!.trim())) {
        throw new AppError('invalid request', { fields: { 'Upload-Length': 'an upload has at least one byte' } });
      }
      if (Number(request.headers.get('content-length') ?? 0) > MAX_CHUNK_BYTES) throw new AppError('payload too large');

      return await withCataloguedError(await tus.handleWeb(request));
    } catch (error) {
      const answer = refusalOf(error);
      return jsonResponse(answer, new Headers(error instanceof AppError ? error.headers : undefined));
    }
  }

  return { handleWeb };
}
