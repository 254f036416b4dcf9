// S3 fetching against the s3rver the test run's global setup starts (LOOPCAST_TEST_S3), in a bucket of our own:
// s3:// sources with the SDK, and presigned URLs as a managed task gets them.
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createS3Client, fetchInput, HttpInputFetcher, LocalFileFetcher, parseS3Source, S3InputFetcher } from './inputs';

const endpoint = process.env.LOOPCAST_TEST_S3;
const s3Options = { region: 'us-east-1', endpoint };
const s3 = await createS3Client(s3Options);
const s3Fetcher = new S3InputFetcher(s3Options);
const bucket = `stream-task-${randomBytes(4).toString('hex')}`;
const body = randomBytes(3 * 1024 * 1024 + 17);
let dir: string;
let etag: string | undefined;

beforeAll(async () => {
  if (!endpoint) throw new Error('LOOPCAST_TEST_S3 is not set: run through jest with the global setup');
  dir = mkdtempSync(join(tmpdir(), 'loopcast-inputs-'));
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  ({ ETag: etag } = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'media/u1/v1/stream.mp4', Body: body })));
});

afterAll(async () => {
  s3.destroy();
  await s3Fetcher.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('input fetching', () => {
  test('s3:// sources are downloaded once into the given folder, byte for byte, with the ETag that names the bytes', async () => {
    const fetched = await fetchInput([s3Fetcher, new LocalFileFetcher()], `s3://${bucket}/media/u1/v1/stream.mp4`, join(dir, 'video'));
    expect(etag).toMatch(/^"\w+"$/);
    expect(fetched).toEqual({ path: join(dir, 'video', 'stream.mp4'), etag });
    const { path } = fetched;
    expect(readFileSync(path).equals(body)).toBe(true);
    expect(readdirSync(join(dir, 'video'))).toEqual(['stream.mp4']);
  });

  test('a missing object is a clear error and leaves no partial file', async () => {
    await expect(s3Fetcher.fetch(`s3://${bucket}/media/u1/none/stream.mp4`, join(dir, 'missing'))).rejects.toThrow(
      `cannot fetch s3://${bucket}/media/u1/none/stream.mp4: no such object`,
    );
    expect(readdirSync(join(dir, 'missing'))).toEqual([]);
  });

  test('an aborted download stops and leaves no partial file', async () => {
    const abort = new AbortController();
    const fetching = s3Fetcher.fetch(`s3://${bucket}/media/u1/v1/stream.mp4`, join(dir, 'aborted'), abort.signal);
    abort.abort();
    await expect(fetching).rejects.toThrow(/^cannot fetch/);
    expect(existsSync(join(dir, 'aborted', 'stream.mp4'))).toBe(false);
    expect(existsSync(join(dir, 'aborted', 'stream.mp4.part'))).toBe(false);
  });

  test('a presigned URL is downloaded byte for byte; a refused one is an error that does not echo the URL', async () => {
    const http = new HttpInputFetcher();
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: 'media/u1/v1/stream.mp4' }), { expiresIn: 60 });
    const { path, etag: downloadedEtag } = await fetchInput([http, s3Fetcher], url, join(dir, 'presigned'));
    expect(downloadedEtag).toBe(etag);
    expect(readFileSync(path).equals(body)).toBe(true);
    expect(readdirSync(join(dir, 'presigned'))).toEqual(['stream.mp4']);

    const tampered = url.replace(/X-Amz-Signature=\w+/, `X-Amz-Signature=${'0'.repeat(64)}`);
    const refusal = await http.fetch(tampered, join(dir, 'refused')).catch((error: Error) => error);
    expect((refusal as Error).message).toBe('cannot fetch stream.mp4: HTTP 403');
    expect(readdirSync(join(dir, 'refused'))).toEqual([]);

    const abort = new AbortController();
    const fetching = http.fetch(url, join(dir, 'presigned-aborted'), abort.signal);
    abort.abort();
    await expect(fetching).rejects.toThrow(/^cannot fetch stream.mp4: /);
    expect(readdirSync(join(dir, 'presigned-aborted'))).toEqual([]);
  });

  test('local paths and file:// URLs are used in place; other schemes are refused', async () => {
    const file = join(dir, 'local.mp4');
    writeFileSync(file, 'x');
    const fetchers = [s3Fetcher, new LocalFileFetcher()];
    await expect(fetchInput(fetchers, file, join(dir, 'unused'))).resolves.toEqual({ path: file });
    await expect(fetchInput(fetchers, `file://${file}`, join(dir, 'unused'))).resolves.toEqual({ path: file });
    await expect(fetchInput(fetchers, join(dir, 'nope.mp4'), join(dir, 'unused'))).rejects.toThrow('no such file');
    await expect(fetchInput(fetchers, 'https://example.com/v.mp4', join(dir, 'unused'))).rejects.toThrow('no way to fetch https://example.com/v.mp4');
  });

  test('s3 sources are parsed into bucket and key', () => {
    expect(parseS3Source('s3://media/media/u1/v1/stream.mp4')).toEqual({ bucket: 'media', key: 'media/u1/v1/stream.mp4' });
    expect(parseS3Source('s3://media/')).toBeUndefined();
    expect(parseS3Source('/tmp/x.mp4')).toBeUndefined();
  });
});
