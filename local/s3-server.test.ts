// The extended s3rver, spoken to by the real AWS SDK (checksums only when required, as every client of ours), and
// whom it answers: loopback Host names only, requests signed with the stack's credentials only (header or presigned
// URL, the signature verified), nothing anonymous, not s3rver's own S3RVER pair.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomLocalCredentials, type LocalCredentials } from './credentials';
import { freePort } from './ports';
import { startS3Server, type S3Server } from './s3-server';

const MiB = 1024 * 1024;
const bucket = 'extended';
const credentials = randomLocalCredentials();
let directory: string;
let server: S3Server;
let s3: S3Client;

/** An SDK client of this server; `host` makes it send (and sign) another Host header, as a rebinding page would. */
function clientWith(signing: LocalCredentials, options: { host?: string } = {}): S3Client {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: signing,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  if (options.host) {
    client.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { headers: Record<string, string> }).headers.host = options.host!;
        return next(args);
      },
      { step: 'build', name: 'foreignHost' },
    );
  }
  return client;
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'loopcast-s3rver-'));
  server = await startS3Server({ port: await freePort(), directory, credentials });
  s3 = clientWith(credentials);
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
});

afterAll(async () => {
  s3.destroy();
  await server.stop();
  rmSync(directory, { recursive: true, force: true });
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function storedSha256(key: string): Promise<string> {
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash('sha256');
  for await (const chunk of Body as Readable) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function createUpload(key: string): Promise<string> {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  return UploadId!;
}

async function uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string> {
  const { ETag } = await s3.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body }));
  return ETag!;
}

const uploadDir = (uploadId: string) => join(directory, bucket, '._S3rver_uploads', uploadId);

test('ListParts lists each part with its size and ETag, page by page; completion is byte-exact', async () => {
  const key = 'uploads/user-1/parts';
  const bodies = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(MiB + 7)];
  const uploadId = await createUpload(key);
  const etags: string[] = [];
  for (const [index, body] of bodies.entries()) etags.push(await uploadPart(key, uploadId, index + 1, body));

  const all = await s3.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
  expect(all.IsTruncated).toBe(false);
  expect(all.Parts?.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual(bodies.map((body, i) => [i + 1, body.length, etags[i]]));
  expect(all.Parts?.every((p) => p.LastModified instanceof Date)).toBe(true);

  const first = await s3.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MaxParts: 2 }));
  expect(first.Parts?.map((p) => p.PartNumber)).toEqual([1, 2]);
  expect(first.IsTruncated).toBe(true);
  const second = await s3.send(
    new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MaxParts: 2, PartNumberMarker: first.NextPartNumberMarker }),
  );
  expect(second.Parts?.map((p) => p.PartNumber)).toEqual([3]);
  expect(second.IsTruncated).toBe(false);

  const completed = await s3.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket,
      Key: key,
      UploadId: uploadId,
      MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
    }),
  );
  expect(await storedSha256(key)).toBe(sha256(Buffer.concat(bodies)));
  // S3's ETag of a multipart object: the MD5 of the parts' MD5s, then the number of parts.
  const partsMd5 = createHash('md5')
    .update(Buffer.concat(etags.map((etag) => Buffer.from(etag.replaceAll('"', ''), 'hex'))))
    .digest('hex');
  expect(completed.ETag).toBe(`"${partsMd5}-${bodies.length}"`);
  expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ETag).toBe(`"${partsMd5}-${bodies.length}"`);
  expect(existsSync(uploadDir(uploadId))).toBe(false);
});

test('an upload without parts lists none', async () => {
  const key = 'uploads/user-1/empty';
  const uploadId = await createUpload(key);
  const listed = await s3.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
  expect(listed.Parts).toBeUndefined();
  await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
});

test('AbortMultipartUpload removes the parts; the upload is gone for every later call', async () => {
  const key = 'uploads/user-1/aborted';
  const uploadId = await createUpload(key);
  await uploadPart(key, uploadId, 1, randomBytes(MiB));
  expect(existsSync(join(uploadDir(uploadId), '1'))).toBe(true);

  await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
  expect(existsSync(uploadDir(uploadId))).toBe(false);
  await expect(s3.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))).rejects.toMatchObject({ name: 'NoSuchUpload' });
  await expect(uploadPart(key, uploadId, 2, randomBytes(10))).rejects.toMatchObject({ name: 'NoSuchUpload' });
  await expect(s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))).rejects.toMatchObject({
    name: 'NoSuchUpload',
  });
  expect(existsSync(uploadDir(uploadId))).toBe(false);
});

test('an upload id only works with its own key', async () => {
  const uploadId = await createUpload('uploads/user-1/mine');
  await expect(s3.send(new ListPartsCommand({ Bucket: bucket, Key: 'uploads/user-2/theirs', UploadId: uploadId }))).rejects.toMatchObject({
    name: 'NoSuchUpload',
  });
  await expect(s3.send(new ListPartsCommand({ Bucket: bucket, Key: 'x', UploadId: '../../etc' }))).rejects.toMatchObject({ name: 'NoSuchUpload' });
  await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: 'uploads/user-1/mine', UploadId: uploadId }));
});

test('ListMultipartUploads lists uploads in progress by key, with prefix and pagination', async () => {
  const keys = ['listing/b', 'listing/a', 'listing/c', 'other/d'];
  const ids = new Map<string, string>();
  for (const key of keys) ids.set(key, await createUpload(key));

  const listed = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: 'listing/' }));
  expect(listed.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual(['listing/a', 'listing/b', 'listing/c'].map((k) => [k, ids.get(k)]));
  expect(listed.Uploads?.every((u) => u.Initiated instanceof Date)).toBe(true);
  expect(listed.IsTruncated).toBe(false);

  const seen: string[] = [];
  let page = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: 'listing/', MaxUploads: 2 }));
  seen.push(...page.Uploads!.map((u) => u.Key!));
  expect(page.IsTruncated).toBe(true);
  page = await s3.send(
    new ListMultipartUploadsCommand({
      Bucket: bucket,
      Prefix: 'listing/',
      MaxUploads: 2,
      KeyMarker: page.NextKeyMarker,
      UploadIdMarker: page.NextUploadIdMarker,
    }),
  );
  seen.push(...page.Uploads!.map((u) => u.Key!));
  expect(page.IsTruncated).toBe(false);
  expect(seen).toEqual(['listing/a', 'listing/b', 'listing/c']);

  for (const [key, uploadId] of ids) await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
  const after = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  expect(after.Uploads ?? []).toEqual([]);
});

test("CompleteMultipartUpload enforces S3's rules: parts of 5 MiB but the last, matching ETags", async () => {
  const key = 'uploads/user-1/rules';
  const uploadId = await createUpload(key);
  const small = await uploadPart(key, uploadId, 1, randomBytes(MiB));
  const last = await uploadPart(key, uploadId, 2, randomBytes(10));
  const complete = (Parts: { ETag: string; PartNumber: number }[]) =>
    s3.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts } }));

  await expect(
    complete([
      { ETag: small, PartNumber: 1 },
      { ETag: last, PartNumber: 2 },
    ]),
  ).rejects.toMatchObject({ name: 'EntityTooSmall' });
  await expect(complete([{ ETag: '"0123"', PartNumber: 1 }])).rejects.toMatchObject({ name: 'InvalidPart' });
  await expect(
    complete([
      { ETag: last, PartNumber: 2 },
      { ETag: small, PartNumber: 1 },
    ]),
  ).rejects.toMatchObject({ name: 'InvalidPartOrder' });
  await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
});

test('@aws-sdk/lib-storage streams a multipart upload that reads back byte-exact', async () => {
  const data = randomBytes(17 * MiB + 3);
  // A stream of unknown length in small pieces, as a real upload would be.
  const source = Readable.from(
    (function* pieces() {
      for (let at = 0; at < data.length; at += 256 * 1024) yield data.subarray(at, at + 256 * 1024);
    })(),
  );
  await new Upload({ client: s3, params: { Bucket: bucket, Key: 'direct/streamed', Body: source }, partSize: 5 * MiB, queueSize: 2 }).done();
  expect(await storedSha256('direct/streamed')).toBe(sha256(data));
});

test('a PUT reads back byte-exact right after it is acknowledged', async () => {
  for (let round = 0; round < 5; round++) {
    const data = randomBytes(4 * MiB + round);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'put/immediate', Body: Readable.from([data]), ContentLength: data.length }));
    expect(await storedSha256('put/immediate')).toBe(sha256(data));
  }
});

describe('who s3rver answers', () => {
  const port = () => new URL(server.endpoint).port;
  const secret = Buffer.from('private media');
  beforeAll(async () => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'media/u1/private.mp4', Body: secret }));
  });

  /** The S3 error code of a refused call, or 'answered'. */
  const outcome = (call: Promise<unknown>) =>
    call.then(
      () => 'answered',
      (error: { name: string; $metadata?: { httpStatusCode?: number } }) => `${error.$metadata?.httpStatusCode} ${error.name}`,
    );

  test("a request naming another host is refused (DNS rebinding), even signed with the stack's credentials", async () => {
    const rebound = clientWith(credentials, { host: `evil.example:${port()}` });
    expect(await outcome(rebound.send(new ListObjectsV2Command({ Bucket: bucket })))).toBe('403 AccessDenied');
    expect(await outcome(rebound.send(new PutObjectCommand({ Bucket: bucket, Key: 'media/u1/planted', Body: 'x' })))).toBe('403 AccessDenied');
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, 'LOCALHOST']) {
      expect(await outcome(clientWith(credentials, { host }).send(new ListObjectsV2Command({ Bucket: bucket })))).toBe('answered');
    }
  });

  test('anonymous requests are refused: listing, reading, writing, deleting', async () => {
    const url = `${server.endpoint}/${bucket}`;
    const answers = await Promise.all([
      fetch(url),
      fetch(`${url}/media/u1/private.mp4`),
      fetch(`${url}/media/u1/planted`, { method: 'PUT', body: 'x' }),
      fetch(`${url}/media/u1/private.mp4`, { method: 'DELETE' }),
      fetch(`${url}?uploads`),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await answers[0]!.text()).toContain('<Code>AccessDenied</Code>');
    expect(await storedSha256('media/u1/private.mp4')).toBe(sha256(secret));
    expect(await outcome(s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'media/u1/planted' })))).toBe('404 NoSuchKey');
  });

  test("s3rver's own S3RVER pair, another key id and a wrong secret key are refused", async () => {
    const list = (signing: LocalCredentials) => outcome(clientWith(signing).send(new ListObjectsV2Command({ Bucket: bucket })));
    expect(await list({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' })).toBe('403 InvalidAccessKeyId');
    expect(await list(randomLocalCredentials())).toBe('403 InvalidAccessKeyId');
    expect(await list({ accessKeyId: credentials.accessKeyId, secretAccessKey: randomLocalCredentials().secretAccessKey })).toBe('403 SignatureDoesNotMatch');
    expect(await list(credentials)).toBe('answered');
  });

  test("a URL presigned with the stack's credentials reads its object; altered or by another key, it is refused", async () => {
    const presigned = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: 'media/u1/private.mp4' }), { expiresIn: 60 });
    const read = await fetch(presigned);
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer()).equals(secret)).toBe(true);

    const otherObject = presigned.replace('/private.mp4?', '/planted?');
    const longer = presigned.replace('X-Amz-Expires=60', 'X-Amz-Expires=600');
    const foreign = await getSignedUrl(clientWith(randomLocalCredentials()), new GetObjectCommand({ Bucket: bucket, Key: 'media/u1/private.mp4' }));
    const expired = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: 'media/u1/private.mp4' }), {
      expiresIn: 1,
      signingDate: new Date(Date.now() - 10_000),
    });
    const statuses = await Promise.all([otherObject, longer, foreign, expired].map(async (url) => (await fetch(url)).status));
    expect(statuses).toEqual([403, 403, 403, 403]);
  });
});
