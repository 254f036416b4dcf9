// Unfinished uploads expire: after the expiration period they answer 410 Gone (catalogued as 'upload not
// found'), so the client starts over; S3 lifecycle rules remove what is left in AWS.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MiB, tokens, tusHeaders, uploadOriginForFile } from '../helpers/upload-server';

// Long enough that creating the upload and sending its first MiB fit well inside it on a loaded 2-core CI runner
// (one second did not: the first PATCH once arrived after the expiry and got 410).
const EXPIRATION_MS = 5_000;
const file = uploadOriginForFile({ expirationMs: EXPIRATION_MS });

test('an unfinished upload answers 410 once expired, to HEAD and PATCH alike', async () => {
  const before = Date.now();
  const created = await fetch(file.origin.endpoint, {
    method: 'POST',
    headers: { ...tusHeaders(tokens.alice), 'Upload-Length': String(4 * MiB), 'Upload-Metadata': 'filename YS5tcDQ=,kind dmlkZW8=' },
  });
  expect(created.status).toBe(201);
  // Upload-Expires: the creation time plus the expiration period, in whole seconds.
  const expires = Date.parse(created.headers.get('upload-expires')!);
  expect(expires).toBeGreaterThanOrEqual(Math.floor((before + EXPIRATION_MS) / 1000) * 1000);
  expect(expires).toBeLessThanOrEqual(Date.now() + EXPIRATION_MS);
  const url = new URL(created.headers.get('location')!, file.origin.endpoint);
  const patch = (offset: number) =>
    fetch(url, {
      method: 'PATCH',
      headers: { ...tusHeaders(tokens.alice), 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(randomBytes(MiB)),
    });
  expect((await patch(0)).status).toBe(204);

  // The expiry is whole seconds in the header: wait until past it.
  await sleep(Math.max(0, expires + 1_000 - Date.now()));

  const head = await fetch(url, { method: 'HEAD', headers: tusHeaders(tokens.alice) });
  expect(head.status).toBe(410);
  expect(head.headers.get('content-type')).toMatch(/^application\/json/);
  const refused = await patch(MiB);
  expect(refused.status).toBe(410);
  expect(await refused.json()).toEqual({ error: 'upload not found', message: 'This upload does not exist or has expired. Please start it again' });
});
