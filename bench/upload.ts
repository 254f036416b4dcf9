// npm run bench:upload [-- --quick] [--size 10GB] [--link-size 1GiB] [--links 50:40,200:40] [--sequential]
//   (or BENCH_UPLOAD_SIZE, BENCH_UPLOAD_LINK_SIZE, BENCH_UPLOAD_LINKS; quick: 1 GiB and 128 MiB)
//
// One generated file (written to a temporary file once: tus-js-client's parallel uploads read it at several
// places at once) uploaded into the same s3rver, in pairs:
//   tus: tus-js-client with the web app's settings (web/src/features/videos/upload-settings.ts: 4 MiB chunks,
//        four partial uploads at once for large files) -> the local uploads mount (the tus handler the Lambda runs,
//        locks and metadata cache in DynamoDB Local) -> s3rver;
//   direct: an @aws-sdk/lib-storage multipart upload (its default 5 MiB parts, 4 at a time) -> s3rver.
// One pair on this machine's loopback (`--size`, 10 GB by default: the server's memory at 10 GB is a goal), then
// one pair through each emulated creator's uplink (bench/uplink.ts: rate and round trip, `--link-size` each).
// `--sequential`: tus as one upload, one chunk at a time, whatever the size (the web app before partial uploads).
// s3rver and the upload server are child processes running bench/upload-children.ts bundled by esbuild (as Lambda
// runs the handler; the server with the uploads function's environment), so the upload server's peak RSS (VmHWM)
// is its own. Every stored object is read back and compared by sha256. Prints MB/s (10^6 bytes), the ratios, and
// the upload server's RSS; records them in bench/results/upload.jsonl.
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Upload as MultipartUpload } from '@aws-sdk/lib-storage';
import { build } from 'esbuild';
import { Upload } from 'tus-js-client';
import { CHUNK_BYTES, RETRY_DELAYS_MS, parallelUploadOptions } from '../web/src/features/videos/upload-settings';
import { localCredentials } from '../lambdas/adapters/aws-clients';
import { appTable } from '../lambdas/contract/tables';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { freePort } from '../local/ports';
import { createBucket, createTable } from '../local/provision';
import { cpuSeconds, residentSet, resetPeak } from './proc';
import { figure, goalText, quick, recordResults, type Figure } from './results';
import { describeLink, parseLink, startUplink, type LinkSpec } from './uplink';
import { UPLOADS_FUNCTION_ENVIRONMENT } from '../lambdas/uploads/process-environment';
import type { UploadConfig } from '../lambdas/uploads/tus-server';
import type { UploadServerChildOptions } from './upload-children';

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
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

interface ChildSettings {
  execArgv?: string[];
  env?: Readonly<Record<string, string>>;
}

/** The upload server child runs with the uploads function's environment (its NODE_OPTIONS and glibc's allocator
 * settings). BENCH_UPLOAD_SERVER_FLAGS adds Node flags (experiments; they are printed and recorded with the figures). */
const UPLOAD_SERVER: ChildSettings = {
  execArgv: process.env.BENCH_UPLOAD_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [],
  env: UPLOADS_FUNCTION_ENVIRONMENT,
};

const describeSettings = ({ execArgv = [], env = {} }: ChildSettings) =>
  [...Object.entries(env).map(([name, value]) => `${name}=${value}`), 'node', ...execArgv].join(' ');

/** Runs the children's bundle (bench/upload-children.ts) as a child process in the given role; resolves with its first message. */
function startChild<T>(
  bundle: string,
  role: string,
  argument: string,
  { execArgv = [], env = {} }: ChildSettings = {},
): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(bundle, [role, argument], {
    execArgv,
    env: { ...process.env, ...env, POWERTOOLS_LOG_LEVEL: 'WARN' },
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
  `${Object.entries(used)
    .map(([name, cpu]) => `${name} ${cpu.toFixed(1)}`)
    .join(', ')} s; ` + `${((Object.values(used).reduce((sum, cpu) => sum + cpu, 0) / seconds) * 100).toFixed(0)} % of one core on average`;

// ---- the benchmark --------------------------------------------------------------------------------------------

/** The file's bytes: a random block of an odd size, repeated, so chunk and part edges never line up with it. */
const block = randomBytes(7 * MiB + 12_345);

/** Writes `size` generated bytes to `path`; returns the sha256 of each prefix whose length is in `prefixes`. */
async function writeSource(path: string, size: number, prefixes: number[]): Promise<Map<number, string>> {
  const file = createWriteStream(path);
  const hash = createHash('sha256');
  const digests = new Map<number, string>();
  for (let at = 0; at < size;) {
    const start = at % block.length;
    const nextPrefix = Math.min(...prefixes.filter((prefix) => prefix > at));
    const piece = block.subarray(start, start + Math.min(MiB, block.length - start, size - at, nextPrefix - at));
    hash.update(piece);
    at += piece.length;
    if (prefixes.includes(at)) digests.set(at, hash.copy().digest('hex'));
    if (!file.write(piece)) await new Promise<void>((resolve) => file.once('drain', () => resolve()));
  }
  file.end();
  await finished(file);
  return digests;
}

async function storedSha256(s3: S3Client, bucket: string, key: string): Promise<string> {
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

/** The first `size` bytes of the file at `path`, sent as the web app sends a file (upload-settings.ts). */
async function tusUpload(endpoint: string, path: string, size: number, sequential: boolean, onProgress: (sent: number) => void): Promise<string> {
  const metadata = { filename: 'bench.mp4', filetype: 'video/mp4', kind: 'video' as const };
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(path, { start: 0, end: size - 1 }), {
      endpoint,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      headers: { Authorization: `Bearer ${BENCH_TOKEN}` },
      metadata,
      ...(sequential ? {} : parallelUploadOptions(size, metadata)),
      onProgress,
      onError: reject,
      onSuccess: () => resolve(upload.url!),
    });
    upload.start();
  });
}

interface PairResult {
  tusSeconds: number;
  directSeconds: number;
  serverPeak: number;
  exact: boolean;
}

interface Rig {
  s3: S3Client;
  bucket: string;
  server: ChildProcess;
  serverPid: number;
  processes: Record<string, number>;
  source: string;
  digests: Map<number, string>;
  sequential: boolean;
  makeS3Client(endpoint: string): S3Client;
}

/** tus, then direct, for the first `size` bytes of the source, to the given endpoints (the servers' own, or an
 * uplink's in front of them). Checks both stored objects, removes them, and that no staging object is left. */
async function runPair(rig: Rig, label: string, size: number, tusEndpoint: string, s3Endpoint: string): Promise<PairResult> {
  console.log(`\n${label}: ${gib(size)} GiB (${size} bytes); load average ${load()}`);
  resetPeak(rig.serverPid);
  rig.server.send('reset-memory');
  let cpuUsed = cpuMeter(rig.processes);
  let started = performance.now();
  const url = await tusUpload(
    tusEndpoint,
    rig.source,
    size,
    rig.sequential,
    progressPrinter('tus', size, () => {
      const { now, peak } = residentSet(rig.serverPid);
      return `, upload server RSS ${mb(now)} MB, peak ${mb(peak)} MB`;
    }),
  );
  const tusSeconds = (performance.now() - started) / 1000;
  console.log(`  CPU, tus: ${cpuLine(cpuUsed(), tusSeconds)}`);
  const serverPeak = residentSet(rig.serverPid).peak;
  const memory = await new Promise<NodeJS.MemoryUsage>((resolve) => {
    const answer = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('memory' in message)) return;
      rig.server.off('message', answer);
      resolve((message as { memory: NodeJS.MemoryUsage }).memory);
    };
    rig.server.on('message', answer);
    rig.server.send('memory');
  });
  console.log(
    `  upload server at its highest sampled RSS (${mb(memory.rss)} MB): V8 heap ${mb(memory.heapUsed)} MB used of ${mb(memory.heapTotal)} MB, ` +
      `external ${mb(memory.external)} MB (array buffers ${mb(memory.arrayBuffers)} MB), the rest (code, stacks, allocator) ${mb(memory.rss - memory.heapTotal - memory.external)} MB`,
  );
  const tusKey = `uploads/bench/${url.slice(url.lastIndexOf('/') + 1)}`;
  const tusExact = (await storedSha256(rig.s3, rig.bucket, tusKey)) === rig.digests.get(size);
  const staged = await rig.s3.send(new ListObjectsV2Command({ Bucket: rig.bucket, Prefix: 'uploads/bench/' }));
  const left = (staged.Contents ?? []).map(({ Key }) => Key!).filter((key) => !key.startsWith(tusKey));
  await rig.s3.send(new DeleteObjectsCommand({ Bucket: rig.bucket, Delete: { Objects: [{ Key: tusKey }, { Key: `${tusKey}.info` }] } }));

  const client = rig.makeS3Client(s3Endpoint);
  cpuUsed = cpuMeter(rig.processes);
  started = performance.now();
  const direct = new MultipartUpload({
    client,
    params: { Bucket: rig.bucket, Key: 'direct/bench', Body: createReadStream(rig.source, { start: 0, end: size - 1 }) },
  });
  const printDirect = progressPrinter('direct', size);
  direct.on('httpUploadProgress', ({ loaded }) => printDirect(loaded ?? 0));
  await direct.done();
  const directSeconds = (performance.now() - started) / 1000;
  console.log(`  CPU, direct: ${cpuLine(cpuUsed(), directSeconds)}`);
  client.destroy();
  const directExact = (await storedSha256(rig.s3, rig.bucket, 'direct/bench')) === rig.digests.get(size);
  await rig.s3.send(new DeleteObjectsCommand({ Bucket: rig.bucket, Delete: { Objects: [{ Key: 'direct/bench' }] } }));

  console.log(`  tus     ${tusSeconds.toFixed(1)} s   ${mb(size / tusSeconds)} MB/s`);
  console.log(`  direct  ${directSeconds.toFixed(1)} s   ${mb(size / directSeconds)} MB/s`);
  console.log(
    `  stored objects byte-exact (sha256): tus ${tusExact ? 'yes' : 'NO'}, direct ${directExact ? 'yes' : 'NO'}; staging objects left by tus: ${left.length ? left.join(', ') : 'none'}`,
  );
  return { tusSeconds, directSeconds, serverPeak, exact: tusExact && directExact && left.length === 0 };
}

interface Options {
  sequential: boolean;
  size: number;
  linkSize: number;
  links: LinkSpec[];
}

function options(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: 'boolean' },
      sequential: { type: 'boolean' },
      size: { type: 'string' },
      'link-size': { type: 'string' },
      links: { type: 'string' },
    },
  });
  const links = values.links ?? process.env.BENCH_UPLOAD_LINKS ?? '50:40,200:40';
  return {
    sequential: values.sequential ?? false,
    size: parseSize(values.size ?? process.env.BENCH_UPLOAD_SIZE ?? (quick ? '1GiB' : '10GB')),
    linkSize: parseSize(values['link-size'] ?? process.env.BENCH_UPLOAD_LINK_SIZE ?? (quick ? '128MiB' : '1GiB')),
    links: links ? links.split(',').map(parseLink) : [],
  };
}

async function runBench({ sequential, size, linkSize, links }: Options): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-bench-upload-'));
  const largest = Math.max(size, links.length ? linkSize : 0);
  const { bavail, bsize } = statfsSync(dir);
  // The source file; s3rver holds the partial objects, the final upload's parts and then the final object.
  if (bavail * bsize < 4.2 * largest) throw new Error(`${gib(bavail * bsize)} GiB free in ${dir}; ${gib(4.2 * largest)} GiB needed`);
  const stoppers: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    const bundle = join(dir, 'upload-children.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('./upload-children.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      outfile: bundle,
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'error',
    });
    const source = join(dir, 'source.bin');
    const digests = await writeSource(source, largest, [size, linkSize]);
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
    const makeS3Client = (endpoint: string) =>
      new S3Client({
        region: config.region,
        endpoint,
        forcePathStyle: true,
        credentials: localCredentials,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    const s3 = makeS3Client(s3Child.ready.endpoint);
    stoppers.push(() => s3.destroy());
    await createBucket(s3, config.buckets.media);

    const server = await startChild<{ port: number; prefix: string }>(
      bundle,
      'server',
      JSON.stringify({ config, token: BENCH_TOKEN } satisfies UploadServerChildOptions),
      UPLOAD_SERVER,
    );
    stoppers.push(() => void server.child.kill());
    const serverPid = server.child.pid!;
    const idleRss = residentSet(serverPid).now;
    const rig: Rig = {
      s3,
      bucket: config.buckets.media,
      server: server.child,
      serverPid,
      processes: { 'upload server': serverPid, s3rver: s3Child.child.pid!, 'DynamoDB Local': dynamo.pid },
      source,
      digests,
      sequential,
      makeS3Client,
    };
    const uploadsPath = (port: number) => `http://127.0.0.1:${port}${server.ready.prefix}`;
    const figures: Record<string, Figure> = {};
    const lines: string[] = [];
    let exact = true;

    const loopback = await runPair(
      rig,
      'loopback (client, servers and S3 stand-in share 2 cores)',
      size,
      uploadsPath(server.ready.port),
      s3Child.ready.endpoint,
    );
    exact &&= loopback.exact;
    figures.loopbackTus = figure(Number(mb(size / loopback.tusSeconds)), 'MB/s');
    figures.loopbackDirect = figure(Number(mb(size / loopback.directSeconds)), 'MB/s');
    figures.loopbackRatio = figure(Number((loopback.directSeconds / loopback.tusSeconds).toFixed(2)), '', { op: '>=', value: 0.5 });
    figures.serverPeakRss = figure(Number(mb(loopback.serverPeak)), 'MB', { op: '<', value: 200 });
    lines.push(
      `  loopback, ${gib(size)} GiB: tus ${figures.loopbackTus.value} MB/s, direct ${figures.loopbackDirect.value} MB/s, ratio ${figures.loopbackRatio.value} ${goalText(figures.loopbackRatio)}`,
      `  upload server RSS (${describeSettings(UPLOAD_SERVER)}): idle ${mb(idleRss)} MB, peak ${figures.serverPeakRss.value} MB ${goalText(figures.serverPeakRss)}`,
    );

    for (const link of links) {
      const tusUplink = await startUplink({ host: '127.0.0.1', port: server.ready.port }, link);
      const s3Uplink = await startUplink({ host: '127.0.0.1', port: Number(new URL(s3Child.ready.endpoint).port) }, link);
      try {
        const result = await runPair(
          rig,
          `through an uplink of ${describeLink(link)}`,
          linkSize,
          uploadsPath(tusUplink.port),
          `http://127.0.0.1:${s3Uplink.port}`,
        );
        exact &&= result.exact;
        const name = `link${link.bitsPerSecond / 1e6}mbit${link.roundTripMs}ms`;
        const linkRate = link.bitsPerSecond / 8;
        const goal = link.bitsPerSecond <= 50e6 ? 0.9 : 0.8;
        figures[`${name}Tus`] = figure(Number(mb(linkSize / result.tusSeconds)), 'MB/s');
        figures[`${name}Direct`] = figure(Number(mb(linkSize / result.directSeconds)), 'MB/s');
        figures[`${name}Ratio`] = figure(Number((result.directSeconds / result.tusSeconds).toFixed(2)), '', { op: '>=', value: goal });
        lines.push(
          `  ${describeLink(link)}, ${gib(linkSize)} GiB: tus ${figures[`${name}Tus`]!.value} MB/s (${((linkSize / result.tusSeconds / linkRate) * 100).toFixed(0)} % of the link), ` +
            `direct ${figures[`${name}Direct`]!.value} MB/s (${((linkSize / result.directSeconds / linkRate) * 100).toFixed(0)} %), ratio ${figures[`${name}Ratio`]!.value} ${goalText(figures[`${name}Ratio`]!)}`,
        );
      } finally {
        await tusUplink.close();
        await s3Uplink.close();
      }
    }
    console.log(`\nupload benchmark, tus ${sequential ? 'as one sequential upload (--sequential)' : "with the web app's settings"}`);
    for (const line of lines) console.log(line);
    console.log(`  every stored object byte-exact, no staging object left: ${exact ? 'yes' : 'NO'}`);
    console.log(`  load average at the end ${load()} (2 cores)`);
    recordResults('upload', figures, {
      size,
      linkSize,
      links: links.map(describeLink),
      byteExact: exact,
      serverFlags: UPLOAD_SERVER.execArgv,
      serverEnvironment: UPLOAD_SERVER.env,
      tus: sequential ? 'sequential' : 'web app settings',
    });
    if (!exact) process.exitCode = 1;
  } finally {
    for (const stop of stoppers.reverse()) await stop();
  }
}

await runBench(options());
