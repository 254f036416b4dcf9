// npm run bench:upload [-- <size>]   (size: 2GiB by default; e.g. 512MiB, 10GB; or BENCH_UPLOAD_SIZE)
//
// One generated file (streamed from a generator, never held in memory) uploaded twice into the same s3rver:
//   1. tus: tus-js-client with 4 MiB chunks, as the web app sends them -> the local uploads mount (the tus handler
//      the Lambda runs, locks and metadata cache in DynamoDB Local) -> s3rver;
//   2. direct: an @aws-sdk/lib-storage multipart upload (its default 5 MiB parts, 4 at a time) -> s3rver.
// s3rver and the upload server are child processes running this file bundled by esbuild (as Lambda runs the
// handler), so the upload server's peak RSS (VmHWM) is its own. Both stored objects are read back and compared
// by sha256. Prints MB/s (10^6 bytes), the ratio, and the upload server's RSS idle, at 10 % and at the end.
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { S3Client } from '@aws-sdk/client-s3';
import { cpuSeconds, residentSet } from './proc';
import type { UploadConfig, UploadHooks } from '../lambdas/uploads/tus-server';

// Each role imports only what it runs, so the upload server holds no client, s3rver or DynamoDB Local code.

const MiB = 1024 * 1024;
const BENCH_TOKEN = 'bench-token';

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|KiB|MiB|GiB)?$/i.exec(text.trim());
  if (!match) throw new Error(`not a size: ${text} (examples: 2GiB, 512MiB, 10GB, 1000000)`);
  const units: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: MiB, gib: 1024 * MiB };
  return Math.round(Number(match[1]) * units[(match[2] ?? 'b').toLowerCase()]!);
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);
const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');

// ---- children -------------------------------------------------------------------------------------------------

async function runS3Child(directory: string): Promise<void> {
  const { startS3Server } = await import('../local/s3-server');
  const s3 = await startS3Server({ port: 0, directory });
  process.send!({ endpoint: s3.endpoint });
  process.on('disconnect', () => void s3.stop().finally(() => process.exit(0)));
}

async function runUploadServerChild(config: UploadConfig): Promise<void> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  const { localCredentials } = await import('../lambdas/adapters/aws-clients');
  const { createUploadServer } = await import('../lambdas/uploads/tus-server');
  const { uploadsMount } = await import('../local/uploads-mount');
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb!, credentials: localCredentials }),
  );
  const hooks: UploadHooks = {
    authenticate: async (token) => (token === BENCH_TOKEN ? { userId: 'bench' } : undefined),
    authorizeCreation: async () => undefined,
    onUploadFinished: async () => undefined,
  };
  const mount = uploadsMount(createUploadServer({ deps: { config, db }, hooks }));
  const http = createServer((request, response) => {
    mount.handle(request, response).catch((error: unknown) => {
      console.error('upload request failed', error);
      response.destroy();
    });
  });
  http.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.send!({ port: (http.address() as AddressInfo).port, prefix: mount.prefix });
  process.on('disconnect', () => process.exit(0));
}

/** Node flags of the upload server child. V8 sizes its young generation from the machine's memory (here up to
 * ~130 MB of mostly empty heap on a 24 GB machine: a GC policy, not data held); capped, the peak shows the
 * server's working set. docs/uploads.md has the figures with and without. */
const UPLOAD_SERVER_FLAGS = ['--max-semi-space-size=4'];

/** Runs the bundle of this file as a child process in the given role; resolves with its first message. */
function startChild<T>(bundle: string, role: string, argument: string, execArgv: string[] = []): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(bundle, [role, argument], {
    execArgv,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as T }));
    child.once('exit', (code) => reject(new Error(`${role} child exited (${code}) before it was ready`)));
  });
}

/** CPU seconds each process of a run used, from `start()` to the returned function's call. */
function cpuMeter(pids: Record<string, number>): () => Record<string, number> {
  const read = (): Record<string, number> => {
    const own = process.cpuUsage();
    return { ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)])), client: (own.user + own.system) / 1e6 };
  };
  const before = read();
  return () => Object.fromEntries(Object.entries(read()).map(([name, seconds]) => [name, seconds - before[name]!]));
}

const cpuLine = (used: Record<string, number>, seconds: number) =>
  `${Object.entries(used).map(([name, cpu]) => `${name} ${cpu.toFixed(1)}`).join(', ')} s; ` +
  `${((Object.values(used).reduce((sum, cpu) => sum + cpu, 0) / seconds) * 100).toFixed(0)} % of one core on average`;

// ---- the benchmark --------------------------------------------------------------------------------------------

/** The file's bytes: a random block of an odd size, repeated, so chunk and part edges never line up with it. */
const block = randomBytes(7 * MiB + 12_345);

function* fileBytes(size: number, hash?: Hash): Generator<Buffer> {
  for (let at = 0; at < size; ) {
    const start = at % block.length;
    const piece = block.subarray(start, start + Math.min(MiB, block.length - start, size - at));
    hash?.update(piece);
    at += piece.length;
    yield piece;
  }
}

const sourceStream = (size: number, hash?: Hash) => Readable.from(fileBytes(size, hash), { objectMode: false });

async function storedSha256(s3: S3Client, bucket: string, key: string): Promise<string> {
  const { GetObjectCommand } = await import('@aws-sdk/client-s3');
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash('sha256');
  for await (const chunk of Body as Readable) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Prints each tenth of the way, with what `detail` adds. */
function progressPrinter(label: string, size: number, detail: (tenth: number) => string = () => ''): (sent: number) => void {
  let nextTenth = 1;
  const started = performance.now();
  return (sent) => {
    while (nextTenth <= 10 && sent >= (nextTenth * size) / 10) {
      const seconds = (performance.now() - started) / 1000;
      console.log(`  ${label}: ${nextTenth * 10}% after ${seconds.toFixed(0)} s (${mb(sent / seconds)} MB/s)${detail(nextTenth)}`);
      nextTenth += 1;
    }
  };
}

async function tusUpload(endpoint: string, chunkSize: number, size: number, hash: Hash, onProgress: (sent: number) => void): Promise<string> {
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const upload = new Upload(sourceStream(size, hash), {
      endpoint,
      chunkSize,
      uploadSize: size,
      retryDelays: [0, 1000, 3000, 5000],
      headers: { Authorization: `Bearer ${BENCH_TOKEN}` },
      metadata: { filename: 'bench.mp4', filetype: 'video/mp4', kind: 'video' },
      onProgress,
      onError: reject,
      onSuccess: () => resolve(upload.url!),
    });
    upload.start();
  });
}

async function runBench(size: number): Promise<void> {
  const { build } = await import('esbuild');
  const { DeleteObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { Upload: MultipartUpload } = await import('@aws-sdk/lib-storage');
  const { localCredentials } = await import('../lambdas/adapters/aws-clients');
  const { appTable } = await import('../lambdas/contract/tables');
  const { MAX_CHUNK_BYTES } = await import('../lambdas/uploads/tus-server');
  const { startDynamoDbLocal } = await import('../local/dynamodb-local');
  const { freePort } = await import('../local/ports');
  const { createBucket, createTable } = await import('../local/provision');

  const dir = mkdtempSync(join(tmpdir(), 'loopcast-bench-upload-'));
  const { bavail, bsize } = statfsSync(dir);
  // s3rver holds the parts and then the assembled object, once per upload (each is deleted after its check).
  if (bavail * bsize < 2.2 * size) throw new Error(`${gib(bavail * bsize)} GiB free in ${dir}; ${gib(2.2 * size)} GiB needed`);
  const stoppers: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    const bundle = join(dir, 'upload-bench.mjs');
    await build({
      entryPoints: [fileURLToPath(import.meta.url)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      outfile: bundle,
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'error',
    });
    const dynamo = await startDynamoDbLocal({ port: await freePort(), logFile: join(dir, 'dynamodb-local.log') });
    stoppers.push(() => dynamo.stop());
    const s3Child = await startChild<{ endpoint: string }>(bundle, 's3', join(dir, 's3'));
    stoppers.push(() => void s3Child.child.kill());

    const config: UploadConfig = {
      region: 'us-east-1',
      tables: { app: 'bench-app' },
      buckets: { media: 'bench-media' },
      endpoints: { dynamodb: dynamo.endpoint, s3: s3Child.ready.endpoint },
    };
    const dynamoClient = new DynamoDBClient({ region: config.region, endpoint: dynamo.endpoint, credentials: localCredentials });
    await createTable(dynamoClient, config.tables.app, appTable);
    dynamoClient.destroy();
    const s3 = new S3Client({
      region: config.region,
      endpoint: s3Child.ready.endpoint,
      forcePathStyle: true,
      credentials: localCredentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    stoppers.push(() => s3.destroy());
    await createBucket(s3, config.buckets.media);

    const server = await startChild<{ port: number; prefix: string }>(bundle, 'server', JSON.stringify(config), UPLOAD_SERVER_FLAGS);
    stoppers.push(() => void server.child.kill());
    const serverPid = server.child.pid!;
    const endpoint = `http://127.0.0.1:${server.ready.port}${server.ready.prefix}`;
    const idleRss = residentSet(serverPid).now;

    console.log(`upload benchmark: ${gib(size)} GiB (${size} bytes), generated while sending; load average ${load()}`);
    const sourceHash = createHash('sha256');
    let peakAtTenth = 0;
    const processes = { 'upload server': serverPid, s3rver: s3Child.child.pid!, 'DynamoDB Local': dynamo.pid };
    let cpuUsed = cpuMeter(processes);
    let started = performance.now();
    const url = await tusUpload(endpoint, MAX_CHUNK_BYTES, size, sourceHash, progressPrinter('tus', size, (tenth) => {
      const { now, peak } = residentSet(serverPid);
      if (tenth === 1) peakAtTenth = peak;
      return `, upload server RSS ${mb(now)} MB, peak ${mb(peak)} MB`;
    }));
    const tusSeconds = (performance.now() - started) / 1000;
    const tusCpu = cpuUsed();
    const serverPeak = residentSet(serverPid).peak;
    const expected = sourceHash.digest('hex');
    const tusKey = `uploads/bench/${url.slice(url.lastIndexOf('/') + 1)}`;
    const tusExact = (await storedSha256(s3, config.buckets.media, tusKey)) === expected;
    await s3.send(new DeleteObjectCommand({ Bucket: config.buckets.media, Key: tusKey }));

    cpuUsed = cpuMeter(processes);
    started = performance.now();
    const direct = new MultipartUpload({ client: s3, params: { Bucket: config.buckets.media, Key: 'direct/bench', Body: sourceStream(size) } });
    const printDirect = progressPrinter('direct', size);
    direct.on('httpUploadProgress', ({ loaded }) => printDirect(loaded ?? 0));
    await direct.done();
    const directSeconds = (performance.now() - started) / 1000;
    const directCpu = cpuUsed();
    const directExact = (await storedSha256(s3, config.buckets.media, 'direct/bench')) === expected;
    await s3.send(new DeleteObjectCommand({ Bucket: config.buckets.media, Key: 'direct/bench' }));
    const s3Peak = residentSet(s3Child.child.pid!).peak;

    const tusRate = size / tusSeconds;
    const directRate = size / directSeconds;
    const ratio = tusRate / directRate;
    console.log('');
    console.log(`  tus     tus-js-client, ${MAX_CHUNK_BYTES / MiB} MiB chunks -> uploads mount -> s3rver   ${tusSeconds.toFixed(1)} s   ${mb(tusRate)} MB/s`);
    console.log(`  direct  @aws-sdk/lib-storage (5 MiB parts x 4) -> s3rver        ${directSeconds.toFixed(1)} s   ${mb(directRate)} MB/s`);
    console.log(`  ratio tus/direct                          ${ratio.toFixed(2)}   (goal >= 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
    console.log(
      `  upload server RSS (node ${UPLOAD_SERVER_FLAGS.join(' ')}): idle ${mb(idleRss)} MB, peak at 10 % ${mb(peakAtTenth)} MB, peak ${mb(serverPeak)} MB   (goal < 200 MB: ${serverPeak < 200e6 ? 'met' : 'NOT met'})`,
    );
    console.log(`  s3rver peak RSS                           ${mb(s3Peak)} MB`);
    console.log(`  stored objects byte-exact (sha256)        tus ${tusExact ? 'yes' : 'NO'}, direct ${directExact ? 'yes' : 'NO'}`);
    console.log(`  CPU, tus: ${cpuLine(tusCpu, tusSeconds)}`);
    console.log(`  CPU, direct: ${cpuLine(directCpu, directSeconds)}`);
    console.log(`  load average at the end                   ${load()} (2 cores)`);
    if (!tusExact || !directExact) process.exitCode = 1;
  } finally {
    for (const stop of stoppers.reverse()) await stop();
  }
}

const [role, argument] = process.argv.slice(2);
if (role === 's3') await runS3Child(argument!);
else if (role === 'server') await runUploadServerChild(JSON.parse(argument!) as UploadConfig);
else await runBench(parseSize(role ?? process.env.BENCH_UPLOAD_SIZE ?? '2GiB'));
