// The tus upload endpoint with the real protocol: tus-js-client (as the web app uses it through Uppy) against
// the local uploads mount on a real HTTP server, storing in s3rver, locking and caching in DynamoDB Local.
import { randomBytes, randomInt } from 'node:crypto';
import { HeadObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { MAX_CHUNK_BYTES } from '../../lambdas/uploads/tus-server';
import {
  MiB,
  QUOTA_BYTES,
  refusalOf,
  sha256,
  startDroppingProxy,
  startTestOrigin,
  storedSha256,
  tokens,
  tusHeaders,
  tusUpload,
  uploadOriginForFile,
  videoMetadata,
} from '../helpers/upload-server';

const file = uploadOriginForFile();

const upload = (data: Buffer, options: Parameters<typeof tusUpload>[1]) => tusUpload(data, { endpoint: file.origin.endpoint, ...options });
const keyOf = (userId: string, url: string) => `uploads/${userId}/${url.slice(url.lastIndexOf('/') + 1)}`;

async function createUpload(token: string, length: number): Promise<string> {
  const response = await fetch(file.origin.endpoint, {
    method: 'POST',
    headers: { ...tusHeaders(token), 'Upload-Length': String(length), 'Upload-Metadata': 'filename aC5tcDQ=,filetype dmlkZW8vbXA0,kind dmlkZW8=' },
  });
  expect(response.status).toBe(201);
  return new URL(response.headers.get('location')!, file.origin.endpoint).href;
}

async function patch(url: string, token: string, offset: number, body: Buffer): Promise<Response> {
  return fetch(url, {
    method: 'PATCH',
    headers: { ...tusHeaders(token), 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(body),
  });
}

async function expectRefusal(response: Response, status: number, error: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await response.json();
  expect(body).toMatchObject({ error, message: expect.any(String) });
  return body;
}

/** A HEAD answer has no body to read: its status and JSON type tell the refusal. */
function expectHeadRefusal(response: Response, status: number): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
}

test('an upload cut off at a random byte resumes from where it stopped and stores the exact bytes', async () => {
  const data = randomBytes(22 * MiB + randomInt(1, MiB));
  // The network drops at a random byte of the body of PATCH number `interrupted` (0-based), away from its ends.
  const interrupted = randomInt(1, 4);
  const intoChunk = randomInt(256 * 1024, MAX_CHUNK_BYTES - 256 * 1024);
  const proxy = await startDroppingProxy(file.origin.endpoint, interrupted * MAX_CHUNK_BYTES + intoChunk);
  const requests: { method: string; offset: number }[] = [];
  let proxiedUrl: string;
  try {
    proxiedUrl = await upload(data, {
      token: tokens.alice,
      endpoint: proxy.url,
      retryDelays: [0],
      onBeforeRequest: (request) => void requests.push({ method: request.getMethod(), offset: Number(request.getHeader('Upload-Offset')) }),
    });
  } finally {
    await proxy.stop();
  }
  expect(proxy.dropped()).toBe(true);

  const patchesBefore = Array.from({ length: interrupted + 1 }, (_, i) => ({ method: 'PATCH', offset: i * MAX_CHUNK_BYTES }));
  expect(requests.slice(0, interrupted + 3)).toEqual([{ method: 'POST', offset: NaN }, ...patchesBefore, { method: 'HEAD', offset: NaN }]);
  // The client resumed at the server's offset, which kept the bytes received before the drop: no restart.
  const resumedAt = requests[interrupted + 3]!.offset;
  expect(resumedAt).toBeGreaterThan(interrupted * MAX_CHUNK_BYTES);
  expect(resumedAt).toBeLessThan(interrupted * MAX_CHUNK_BYTES + intoChunk);
  const patchesAfter = requests.slice(interrupted + 3);
  expect(patchesAfter.map((r) => r.offset)).toEqual(
    Array.from({ length: Math.ceil((data.length - resumedAt) / MAX_CHUNK_BYTES) }, (_, i) => resumedAt + i * MAX_CHUNK_BYTES),
  );

  const url = new URL(new URL(proxiedUrl).pathname, file.origin.endpoint).href;
  const key = keyOf('alice', url);
  expect(await storedSha256(file.storage, key)).toBe(sha256(data));
  expect(file.hooks.finished.filter((f) => f.key === key)).toEqual([
    { userId: 'alice', uploadId: key.split('/')[2], key, size: data.length, metadata: videoMetadata },
  ]);
  // The staging objects of an unfinished upload are gone; the finished one cannot be terminated through tus.
  await expect(file.storage.s3.send(new HeadObjectCommand({ Bucket: file.storage.bucket, Key: `${key}.part` }))).rejects.toMatchObject({ name: 'NotFound' });
  await expectRefusal(await fetch(url, { method: 'DELETE', headers: tusHeaders(tokens.alice) }), 400, 'invalid request');
}, 60_000);

test("another user's HEAD, PATCH and DELETE on an upload find nothing, and leave it intact", async () => {
  const url = await createUpload(tokens.alice, 6 * MiB);
  const data = randomBytes(2 * MiB);
  expect((await patch(url, tokens.alice, 0, data)).status).toBe(204);

  expectHeadRefusal(await fetch(url, { method: 'HEAD', headers: tusHeaders(tokens.bob) }), 404);
  await expectRefusal(await patch(url, tokens.bob, 2 * MiB, randomBytes(10)), 404, 'upload not found');
  await expectRefusal(await fetch(url, { method: 'DELETE', headers: tusHeaders(tokens.bob) }), 404, 'upload not found');

  const head = await fetch(url, { method: 'HEAD', headers: tusHeaders(tokens.alice) });
  expect(head.status).toBe(200);
  expect(head.headers.get('upload-offset')).toBe(String(2 * MiB));
});

test('a request without a valid Bearer token is refused with the uploader token error', async () => {
  const url = await createUpload(tokens.alice, 10);
  const withoutToken = await fetch(file.origin.endpoint, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10' } });
  expect(await expectRefusal(withoutToken, 401, 'uploader token error')).toEqual({
    error: 'uploader token error',
    message: 'Upload failed due to authentication error. Please refresh and try again',
  });
  expectHeadRefusal(await fetch(url, { method: 'HEAD', headers: tusHeaders('not-a-session') }), 401);
  await expectRefusal(await patch(url, 'not-a-session', 0, randomBytes(10)), 401, 'uploader token error');

  const refused = await upload(randomBytes(100), { token: 'expired-token' }).catch(refusalOf);
  expect(refused).toMatchObject({ status: 401, body: { error: 'uploader token error' } });
});

test('Upload-Length is required: a deferred length is refused', async () => {
  const response = await fetch(file.origin.endpoint, { method: 'POST', headers: { ...tusHeaders(tokens.alice), 'Upload-Defer-Length': '1' } });
  const body = await expectRefusal(response, 400, 'invalid request');
  expect(body.details).toEqual({ fields: { 'Upload-Length': expect.any(String) } });
});

// Security audit M8: the file name becomes the item's title; control characters in it reached the support tool.
test('metadata: a file name with control or invisible formatting characters is refused', async () => {
  for (const filename of ['a\u001b[31m.mp4', 'clip\r.mp4', 'gpj\u202Eexe.mp4']) {
    const refused = await upload(randomBytes(100), { token: tokens.alice, metadata: { filename, filetype: 'video/mp4', kind: 'video' } }).catch(refusalOf);
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid request', details: { fields: { 'Upload-Metadata.filename': expect.any(String) } } } });
  }
});

// Security audit L8: a 0-byte upload was accepted (taking one of the plan's uploads, then failing as an item),
// and Upload-Length on a PATCH got tus's 501, which was passed on as 503 so clients retried a client error.
test('an empty upload is refused at creation', async () => {
  for (const length of ['0', '00']) {
    const response = await fetch(file.origin.endpoint, {
      method: 'POST',
      headers: { ...tusHeaders(tokens.alice), 'Upload-Length': length, 'Upload-Metadata': 'filename aC5tcDQ=,filetype dmlkZW8vbXA0,kind dmlkZW8=' },
    });
    const body = await expectRefusal(response, 400, 'invalid request');
    expect(body.details).toEqual({ fields: { 'Upload-Length': 'an upload has at least one byte' } });
  }
});

test('a header tus does not implement on a PATCH is a catalogued 400, not a 5xx', async () => {
  const url = await createUpload(tokens.alice, 10);
  const response = await fetch(url, {
    method: 'PATCH',
    headers: { ...tusHeaders(tokens.alice), 'Upload-Offset': '0', 'Upload-Length': '10', 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(10),
  });
  await expectRefusal(response, 400, 'invalid request');
});

// Security audit L11: the uploads Function URL bypasses CloudFront and its WAF. Where CloudFront is in front, a
// request without its origin-verify value is refused before anything else, OPTIONS included.
test('behind CloudFront, only requests with its origin-verify value are served', async () => {
  const guarded = await startTestOrigin(file.storage, file.hooks, { originVerify: async () => ['the-cloudfront-secret'] });
  try {
    for (const [method, headers] of [
      ['POST', { 'Upload-Length': '10' }],
      ['OPTIONS', {}],
      ['HEAD', {}],
    ] as const) {
      const url = method === 'POST' || method === 'OPTIONS' ? guarded.endpoint : `${guarded.endpoint}/${'a'.repeat(32)}`;
      const direct = await fetch(url, { method, headers: { ...tusHeaders(tokens.alice), ...headers } });
      expect({ method, status: direct.status }).toEqual({ method, status: 403 });
      if (method === 'POST') expect(await direct.json()).toMatchObject({ error: 'direct access refused' });
    }
    const viaCloudFront = await fetch(guarded.endpoint, {
      method: 'POST',
      headers: {
        ...tusHeaders(tokens.alice),
        'x-origin-verify': 'the-cloudfront-secret',
        'Upload-Length': '10',
        'Upload-Metadata': 'filename aC5tcDQ=,filetype dmlkZW8vbXA0,kind dmlkZW8=',
      },
    });
    expect(viaCloudFront.status).toBe(201);
  } finally {
    await guarded.stop();
  }
});

test('metadata: filename and a kind of video or audio are required', async () => {
  const refused = await upload(randomBytes(100), { token: tokens.alice, metadata: { filename: 'a.gif', filetype: 'image/gif', kind: 'image' } }).catch(
    refusalOf,
  );
  expect(refused).toMatchObject({ status: 400, body: { error: 'invalid request', details: { fields: { 'Upload-Metadata.kind': expect.any(String) } } } });

  const nameless = await upload(randomBytes(100), { token: tokens.alice, metadata: { kind: 'audio' } }).catch(refusalOf);
  expect(nameless).toMatchObject({ status: 400, body: { details: { fields: { 'Upload-Metadata.filename': expect.any(String) } } } });

  // A type the browser does not know arrives empty; an audio file is accepted as such; Uppy's other fields are dropped.
  const url = await upload(randomBytes(100), {
    token: tokens.alice,
    metadata: { filename: 'take.flac', filetype: '', kind: 'audio', name: 'take.flac', relativePath: 'null' },
  });
  expect(file.hooks.finished.find((f) => f.key === keyOf('alice', url))?.metadata).toEqual({ filename: 'take.flac', filetype: '', kind: 'audio' });
});

test('creation with upload: the first chunk comes with the POST', async () => {
  const data = randomBytes(6 * MiB + 5);
  const url = await upload(data, { token: tokens.alice, uploadDataDuringCreation: true });
  expect(await storedSha256(file.storage, keyOf('alice', url))).toBe(sha256(data));
});

test("the plan's refusal reaches the client as the catalogued message, and nothing is stored", async () => {
  const before = await file.storage.s3.send(new ListMultipartUploadsCommand({ Bucket: file.storage.bucket }));

  const overQuota = await upload(Buffer.alloc(0), { token: tokens.alice, uploadSize: QUOTA_BYTES + 1 }).catch(refusalOf);
  expect(overQuota).toEqual({
    status: 403,
    body: { error: 'storage limit', message: 'Not enough storage left on your plan. Delete a file or upgrade your plan' },
  });
  const unsubscribed = await upload(randomBytes(100), { token: tokens.carol }).catch(refusalOf);
  expect(unsubscribed).toEqual({
    status: 402,
    body: { error: 'no active subscription', message: 'No active subscription found. Please subscribe to continue' },
  });

  const after = await file.storage.s3.send(new ListMultipartUploadsCommand({ Bucket: file.storage.bucket }));
  expect(after.Uploads?.length ?? 0).toBe(before.Uploads?.length ?? 0);
});

test('DELETE removes the multipart upload and every staging object', async () => {
  const url = await createUpload(tokens.alice, 20 * MiB);
  // 4 MiB + 4 MiB + 1 MiB: one 8 MiB part in the multipart upload, 1 MiB left over as the `.part` object.
  let offset = 0;
  for (const size of [4 * MiB, 4 * MiB, MiB]) {
    expect((await patch(url, tokens.alice, offset, randomBytes(size))).status).toBe(204);
    offset += size;
  }
  const key = keyOf('alice', url);
  const inProgress = await file.storage.s3.send(new ListMultipartUploadsCommand({ Bucket: file.storage.bucket, Prefix: key }));
  expect(inProgress.Uploads?.map((u) => u.Key)).toEqual([key]);
  await file.storage.s3.send(new HeadObjectCommand({ Bucket: file.storage.bucket, Key: `${key}.part` }));

  expect((await fetch(url, { method: 'DELETE', headers: tusHeaders(tokens.alice) })).status).toBe(204);

  const remaining = await file.storage.s3.send(new ListMultipartUploadsCommand({ Bucket: file.storage.bucket, Prefix: key }));
  expect(remaining.Uploads ?? []).toEqual([]);
  for (const staged of [key, `${key}.info`, `${key}.part`]) {
    await expect(file.storage.s3.send(new HeadObjectCommand({ Bucket: file.storage.bucket, Key: staged }))).rejects.toMatchObject({ name: 'NotFound' });
  }
  expectHeadRefusal(await fetch(url, { method: 'HEAD', headers: tusHeaders(tokens.alice) }), 404);
});

test('chunks above 4 MiB, other methods and other paths are refused in the catalogue format', async () => {
  const url = await createUpload(tokens.alice, 8 * MiB);
  await expectRefusal(await patch(url, tokens.alice, 0, randomBytes(MAX_CHUNK_BYTES + 1)), 413, 'payload too large');
  await expectRefusal(await patch(url, tokens.alice, MiB, randomBytes(10)), 409, 'invalid request');
  await expectRefusal(await fetch(url, { headers: tusHeaders(tokens.alice) }), 405, 'method not allowed');
  expectHeadRefusal(await fetch(`${url}/more`, { method: 'HEAD', headers: tusHeaders(tokens.alice) }), 404);
  const withoutVersion = await fetch(url, { method: 'DELETE', headers: { Authorization: `Bearer ${tokens.alice}` } });
  await expectRefusal(withoutVersion, 412, 'invalid request');

  const options = await fetch(file.origin.endpoint, { method: 'OPTIONS' });
  expect(options.status).toBe(204);
  expect(options.headers.get('tus-extension')?.split(',')).not.toContain('creation-defer-length');
});
