// Uploads sent as partial uploads at once and joined by a final upload (tus's concatenation extension), as
// tus-js-client's `parallelUploads` sends them (the web app does for large files: upload-settings.ts), against the
// local uploads mount, s3rver (with UploadPartCopy) and DynamoDB Local.
import { randomBytes } from 'node:crypto';
import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { MiB, QUOTA_BYTES, refusalOf, sha256, storedSha256, tokens, tusHeaders, tusUpload, uploadOriginForFile, videoMetadata } from '../helpers/upload-server';

const file = uploadOriginForFile();

const metadataHeader = 'filename aC5tcDQ=,filetype dmlkZW8vbXA0,kind dmlkZW8=';
const idOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const finishedOf = (userId: string) => file.hooks.finished.filter((upload) => upload.userId === userId);

async function keysUnder(prefix: string): Promise<string[]> {
  const { Contents } = await file.storage.s3.send(new ListObjectsV2Command({ Bucket: file.storage.bucket, Prefix: prefix }));
  return (Contents ?? []).map(({ Key }) => Key!).sort();
}

/** A finished partial upload of `data` made by hand (POST with Upload-Concat: partial, then PATCHes). */
async function partialUpload(token: string, data: Buffer, finish = true): Promise<string> {
  const created = await fetch(file.origin.endpoint, {
    method: 'POST',
    headers: { ...tusHeaders(token), 'Upload-Concat': 'partial', 'Upload-Length': String(data.length), 'Upload-Metadata': metadataHeader },
  });
  expect(created.status).toBe(201);
  const url = new URL(created.headers.get('location')!, file.origin.endpoint).href;
  const end = finish ? data.length : Math.min(data.length, 4 * MiB);
  for (let offset = 0; offset < end; offset += 4 * MiB) {
    const response = await fetch(url, {
      method: 'PATCH',
      headers: { ...tusHeaders(token), 'Upload-Concat': 'partial', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(data.subarray(offset, Math.min(end, offset + 4 * MiB))),
    });
    expect(response.status).toBe(204);
  }
  return url;
}

const final = (token: string, urls: string[]) =>
  fetch(file.origin.endpoint, {
    method: 'POST',
    headers: { ...tusHeaders(token), 'Upload-Concat': `final;${urls.join(' ')}`, 'Upload-Metadata': metadataHeader },
  });

async function expectRefusal(response: Response, status: number, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await response.json()).toMatchObject({ error, message: expect.any(String) });
}

test("tus-js-client's parallel upload: the partials are joined in S3 into one object, registered once, and nothing else is left", async () => {
  const data = randomBytes(21 * MiB + 12_345);
  const finishedBefore = finishedOf('alice').length;
  const boundaries = [
    { start: 0, end: 8 * MiB },
    { start: 8 * MiB, end: 16 * MiB },
    { start: 16 * MiB, end: data.length },
  ];
  const methods: string[] = [];
  const url = await tusUpload(data, {
    token: tokens.alice,
    endpoint: file.origin.endpoint,
    parallelUploads: 3,
    parallelUploadBoundaries: boundaries,
    metadataForPartialUploads: videoMetadata,
    onBeforeRequest: (request) => void methods.push(`${request.getMethod()} ${request.getHeader('Upload-Concat') ?? ''}`.trim()),
  });

  expect(methods.filter((m) => m === 'POST partial')).toHaveLength(3);
  expect(methods.filter((m) => m.startsWith('POST final;'))).toHaveLength(1);
  const key = `uploads/alice/${idOf(url)}`;
  expect(await storedSha256(file.storage, key)).toBe(sha256(data));
  // Only the final upload is registered, with the whole size and the file's metadata.
  expect(finishedOf('alice').slice(finishedBefore)).toEqual([{ userId: 'alice', uploadId: idOf(url), key, size: data.length, metadata: videoMetadata }]);
  // The partials' objects are gone: the final object and its `.info` stay, and no multipart upload is left open.
  expect(await keysUnder(`uploads/alice/`)).toEqual(expect.arrayContaining([key, `${key}.info`]));
  expect((await keysUnder('uploads/alice/')).filter((k) => !k.startsWith(key))).toEqual([]);
  const { Uploads } = await file.storage.s3.send(new ListMultipartUploadsCommand({ Bucket: file.storage.bucket, Prefix: 'uploads/alice/' }));
  expect(Uploads ?? []).toEqual([]);
  // HEAD answers the final upload as complete.
  const head = await fetch(url, { method: 'HEAD', headers: tusHeaders(tokens.alice) });
  expect(head.status).toBe(200);
  expect(head.headers.get('upload-offset')).toBe(String(data.length));
}, 60_000);

test('a finished partial upload registers nothing by itself', async () => {
  const before = file.hooks.finished.length;
  await partialUpload(tokens.bob, randomBytes(6 * MiB));
  expect(file.hooks.finished).toHaveLength(before);
});

test('the final upload joins partials in the order it names them', async () => {
  const first = randomBytes(5 * MiB + 1);
  const second = randomBytes(3 * MiB);
  const [a, b] = [await partialUpload(tokens.bob, first), await partialUpload(tokens.bob, second)];
  // Relative URLs, as the server's Location gives them.
  const response = await final(tokens.bob, [new URL(a).pathname, new URL(b).pathname]);
  expect(response.status).toBe(201);
  const location = response.headers.get('location')!;
  expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
  expect(await storedSha256(file.storage, `uploads/bob/${idOf(location)}`)).toBe(sha256(Buffer.concat([first, second])));
}, 30_000);

test("refusals: another user's partial, an unfinished one, a plain upload, a short one before the last, a partial named twice, a malformed header", async () => {
  const alices = await partialUpload(tokens.alice, randomBytes(5 * MiB));
  const bobs = await partialUpload(tokens.bob, randomBytes(5 * MiB));
  const unfinished = await partialUpload(tokens.bob, randomBytes(6 * MiB), false);
  const short = await partialUpload(tokens.bob, randomBytes(MiB));
  const plain = await tusUpload(randomBytes(MiB), { token: tokens.bob, endpoint: file.origin.endpoint });
  const before = file.hooks.finished.length;

  await expectRefusal(await final(tokens.bob, [alices, bobs]), 404, 'upload not found');
  await expectRefusal(await final(tokens.bob, [bobs, unfinished]), 400, 'invalid request');
  await expectRefusal(await final(tokens.bob, [plain, bobs]), 400, 'invalid request');
  await expectRefusal(await final(tokens.bob, [short, bobs]), 400, 'invalid request');
  await expectRefusal(await final(tokens.bob, [bobs, bobs]), 400, 'invalid request');
  await expectRefusal(await final(tokens.bob, []), 400, 'invalid request');
  await expectRefusal(await final(tokens.bob, ['/api/uploads/../../etc']), 400, 'invalid request');
  const odd = await fetch(file.origin.endpoint, {
    method: 'POST',
    headers: { ...tusHeaders(tokens.bob), 'Upload-Concat': 'whole', 'Upload-Length': '1', 'Upload-Metadata': metadataHeader },
  });
  await expectRefusal(odd, 400, 'invalid request');
  expect(file.hooks.finished).toHaveLength(before);
  // A refused final leaves its partials usable: the same ones join once the request is right.
  const joined = await final(tokens.bob, [bobs, short]);
  expect(joined.status).toBe(201);
}, 60_000);

test('the plan is checked for the whole: partials under the limit, a final over it is refused and stores nothing', async () => {
  // The test hooks refuse uploads above QUOTA_BYTES (64 MiB); each partial is under it, together they are not.
  const partSize = QUOTA_BYTES / 2 + MiB;
  const urls = [await partialUpload(tokens.bob, randomBytes(partSize)), await partialUpload(tokens.bob, randomBytes(partSize))];
  const before = file.hooks.finished.length;
  const keysBefore = await keysUnder('uploads/bob/');
  const refused = await final(tokens.bob, urls);
  await expectRefusal(refused, 403, 'storage limit');
  expect(file.hooks.finished).toHaveLength(before);
  expect(await keysUnder('uploads/bob/')).toEqual(keysBefore);
  // carol's plan refuses every upload: the refusal comes at the first partial, before any byte is sent.
  const error: unknown = await tusUpload(randomBytes(MiB), {
    token: tokens.carol,
    endpoint: file.origin.endpoint,
    parallelUploads: 2,
    metadataForPartialUploads: videoMetadata,
  }).catch((failure: unknown) => failure);
  expect(refusalOf(error)).toEqual({ status: 402, body: expect.objectContaining({ error: 'no active subscription' }) });
}, 60_000);
