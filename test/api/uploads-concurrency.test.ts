// Two PATCHes on one upload at the same time, through two separate upload servers (two Lambda containers, in
// effect) that share nothing but DynamoDB and S3: the lock in DynamoDB lets one write at a time, so the stored
// bytes are exactly one request's, never a mix.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { lockItemKey } from '../../lambdas/adapters/tus/dynamo-locker';
import { MAX_CHUNK_BYTES } from '../../lambdas/uploads/tus-server';
import {
  createTestStorage,
  MiB,
  sha256,
  startTestOrigin,
  storedSha256,
  testHooks,
  tokens,
  tusHeaders,
  type TestOrigin,
  type TestStorage,
} from '../helpers/upload-server';

let storage: TestStorage;
let first: TestOrigin;
let second: TestOrigin;

beforeAll(async () => {
  storage = await createTestStorage();
  // A request asked to give way stops 300 ms later (tus's default is 3 s).
  first = await startTestOrigin(storage, testHooks(), { lockDrainTimeoutMs: 300 });
  second = await startTestOrigin(storage, testHooks(), { lockDrainTimeoutMs: 300 });
});
afterAll(async () => {
  await Promise.all([first.stop(), second.stop()]);
  storage.stop();
});

/** `status` is undefined when the server closed the connection before the client could read its answer: it
 * does so when it stops a request before its body is complete (the client then sees EPIPE or ECONNRESET). */
interface PatchResult {
  status?: number;
  offset?: number;
}

/** A PATCH whose body trickles in (64 KiB every 25 ms), so that it is still in flight when the other arrives. */
function trickledPatch(url: string, offset: number, body: Buffer, onProgress: (written: number) => void = () => undefined): Promise<PatchResult> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest(url, {
      method: 'PATCH',
      headers: {
        ...tusHeaders(tokens.alice),
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(body.length),
      },
    });
    request.on('response', (response) => {
      answered = true;
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, offset: Number(response.headers['upload-offset']) }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({});
      else reject(error);
    });
    void (async () => {
      for (let at = 0; at < body.length && !request.destroyed; at += 64 * 1024) {
        if (!request.write(body.subarray(at, at + 64 * 1024))) await once(request, 'drain');
        onProgress(Math.min(at + 64 * 1024, body.length));
        await sleep(25);
      }
      request.end();
    })().catch(() => undefined);
  });
}

async function untilLocked(key: string): Promise<void> {
  for (;;) {
    const { Item } = await storage.db.send(new GetCommand({ TableName: storage.config.tables.app, Key: lockItemKey(key) }));
    if (Item) return;
    await sleep(10);
  }
}

test('two concurrent PATCHes at the same offset through two servers: one is stored, the other refused', async () => {
  const size = 12 * MiB;
  const created = await fetch(first.endpoint, {
    method: 'POST',
    headers: { ...tusHeaders(tokens.alice), 'Upload-Length': String(size), 'Upload-Metadata': 'filename YS5tcDQ=,kind dmlkZW8=' },
  });
  expect(created.status).toBe(201);
  const path = created.headers.get('location')!;
  const key = `uploads/alice/${path.slice(path.lastIndexOf('/') + 1)}`;
  const mine = randomBytes(MAX_CHUNK_BYTES);
  const theirs = randomBytes(MAX_CHUNK_BYTES);

  let written = 0;
  const firstPatch = trickledPatch(new URL(path, first.endpoint).href, 0, mine, (bytes) => (written = bytes));
  await untilLocked(key);
  while (written < MiB) await sleep(10);
  const secondPatch = trickledPatch(new URL(path, second.endpoint).href, 0, theirs);
  const [stored, refused] = await Promise.all([firstPatch, secondPatch]);

  // The first server's PATCH held the lock (asked to give way, it stops early and keeps what it received);
  // the second server's then finds the offset moved and changes nothing.
  expect([204, undefined]).toContain(stored.status);
  expect([409, undefined]).toContain(refused.status);
  const head = await fetch(new URL(path, second.endpoint), { method: 'HEAD', headers: tusHeaders(tokens.alice) });
  const kept = Number(head.headers.get('upload-offset'));
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThanOrEqual(mine.length);
  if (stored.status === 204) expect(stored.offset).toBe(kept);

  // Finishing the upload shows the stored prefix is exactly the first request's bytes, none of the second's.
  const expected = Buffer.concat([mine.subarray(0, kept), randomBytes(size - kept)]);
  for (let offset = kept; offset < size; offset += MAX_CHUNK_BYTES) {
    const response = await fetch(new URL(path, second.endpoint), {
      method: 'PATCH',
      headers: { ...tusHeaders(tokens.alice), 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(expected.subarray(offset, offset + MAX_CHUNK_BYTES)),
    });
    expect(response.status).toBe(204);
  }
  expect(await storedSha256(storage, key)).toBe(sha256(expected));
}, 60_000);
