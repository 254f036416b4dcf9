// npm run bench:wire [-- --quick]
//   BENCH_WIRE_WINDOW_SECONDS (20; quick 5)
//
// What one looping stream puts on the wire for each byte of media, and what ffmpeg's CPU does with it. Egress is
// most of a stream-month's cost (docs/costs.md), and RTMP makes it depend on the destination:
//   - the RTMP chunk size: ffmpeg sends in chunks of the size the server declares, and RTMP's default of 128 bytes
//     when it declares none (ffmpeg has no option of its own for it). It writes each chunk's data and the next
//     chunk's one-byte header with separate writes. nginx-rtmp declares 4096; a public measurement of ffmpeg's
//     RTMPS to YouTube (1.7x the media on the wire) says YouTube's ingest declares none;
//   - RTMPS: GnuTLS makes each of those writes a TLS record of its own, 22-29 bytes of overhead each;
//   - Nagle's algorithm, which joins small writes into full segments; `tcp_nodelay` turns it off.
// For each pair of chunk size and scheme, ffmpeg runs with the stream task's own arguments (ffmpegArgs) and again
// with tcp_nodelay, against a real nginx-rtmp (RTMPS through nginx's stream module) declaring that chunk size; and
// over plain RTMP through the stream task's relay that makes ffmpeg chunk at 4096 whatever the server declares
// (stream-task/src/chunk-relay.ts, with the task's own ffmpeg arguments for a relayed destination; in this process:
// its CPU is this process's, and its connection to nginx is the one counted).
// After each relayed window a player reads the stream back from nginx, and the run fails unless it gets picture and
// sound: the relay's figures are of a stream a viewer can watch. Nothing here blocks this process's event loop while
// the relay runs in it (`ss` is run asynchronously).
// Counted on ffmpeg's own socket (ss -ti): bytes and TCP segments sent, against the FLV bytes ffmpeg muxed (its
// progress total_size) over the same window. "Wire" adds 66 bytes a segment (Ethernet, IPv4, TCP with timestamps).
// On loopback an ACK comes at once, so Nagle joins less than on a real link: with Nagle on, the segment count is an
// upper bound; with tcp_nodelay, every write is a segment on any link.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { startNginxRtmp } from '../local/nginx-rtmp';
import { freePort } from '../local/ports';
import { ffmpegArgs } from '../stream-task/src/ffmpeg';
import { startChunkRelay } from '../stream-task/src/chunk-relay';
import { makeStreamReadySource } from './first-media';
import { cpuSeconds } from './proc';
import { figure, quick, recordResults, type Figure } from './results';

const WINDOW_MS = Number(process.env.BENCH_WIRE_WINDOW_SECONDS ?? (quick ? 5 : 20)) * 1000;
const WARMUP_MS = 3_000;
const CHUNK_SIZES = [4096, 128] as const;
/** Ethernet (14), IPv4 (20) and TCP with the timestamp option (32) headers of one segment. */
const SEGMENT_HEADERS = 66;

const out = (line = '') => process.stdout.write(`${line}\n`);
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SocketCounters {
  bytes: number;
  segments: number;
}

/** The counters of an established TCP socket from `ss -ti` (iproute2): the one a process has (`pid`), or the one
 * from a local port. */
async function socketCounters(which: { pid: number } | { localPort: number }): Promise<SocketCounters> {
  const args = 'pid' in which ? ['-tinpH', 'state', 'established'] : ['-tinH', 'state', 'established', `sport = :${which.localPort}`];
  const lines = (await run('ss', args, { encoding: 'utf8' })).stdout.split('\n');
  const at = 'pid' in which ? lines.findIndex((line) => line.includes(`pid=${which.pid},`)) : 0;
  const info = at >= 0 ? lines[at + 1] : undefined;
  const count = (key: string) => Number(new RegExp(`\\b${key}:(\\d+)`).exec(info ?? '')?.[1]);
  const counters = { bytes: count('bytes_sent'), segments: count('segs_out') };
  if (!Number.isFinite(counters.bytes) || !Number.isFinite(counters.segments)) throw new Error(`no such TCP socket in ss's output (${JSON.stringify(which)})`);
  return counters;
}

interface Sample extends SocketCounters {
  muxed: number;
  at: number;
  cpu: number;
  relayCpu: number;
}

type Path = 'direct' | 'relay';

interface WireFigure {
  chunkSize: number;
  scheme: 'rtmp' | 'rtmps';
  nodelay: boolean;
  path: Path;
  mediaKBps: number;
  sentPerMedia: number;
  segmentsPerSecond: number;
  wirePerMedia: number;
  ffmpegCorePercent: number;
  relayCorePercent: number;
}

/** One ffmpeg publishing the looped source for the window, straight to `url` or through a relay to it. The
 * counters are read at the first progress block after the warm-up and the first after the window, with the muxed
 * bytes of that block. */
async function measure(
  source: string,
  url: string,
  caFile: string,
  options: { nodelay: boolean; path: Path },
): Promise<Omit<WireFigure, 'chunkSize' | 'scheme' | 'nodelay' | 'path'>> {
  const target = new URL(url);
  // The relay's connections to nginx, made here to read their counters.
  const upstreams: Socket[] = [];
  const dialNginx = () => {
    const socket = connect(Number(target.port), target.hostname);
    upstreams.push(socket);
    return socket;
  };
  const relay = options.path === 'relay' ? await startChunkRelay(url, dialNginx) : undefined;
  const args = ffmpegArgs({ videoPath: source }, [{ id: 'bench', url }], { caFile }, new Map(relay ? [['bench', relay.url]] : []));
  if (options.nodelay) args.splice(args.indexOf('-flvflags'), 0, '-tcp_nodelay', '1');
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-2000)));
  const counted = () => (relay ? socketCounters({ localPort: (upstreams[0]!.address() as AddressInfo).port }) : socketCounters({ pid: child.pid! }));
  const samples: Sample[] = [];
  let muxed = 0;
  const started = performance.now();
  let sampling: Promise<void> | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('total_size=')) muxed = Number(line.slice('total_size='.length));
    const due = WARMUP_MS + samples.length * WINDOW_MS;
    if (line.startsWith('progress=') && !sampling && samples.length < 2 && performance.now() - started >= due) {
      // Both ends of the window are read the same way (the socket's counters some milliseconds after the rest), so
      // the lag cancels out of the differences.
      const relayUsage = process.cpuUsage();
      const sample = { muxed, at: performance.now(), cpu: cpuSeconds(child.pid!), relayCpu: (relayUsage.user + relayUsage.system) / 1e6 };
      sampling = counted().then((counters) => {
        samples.push({ ...counters, ...sample });
        sampling = undefined;
      });
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ended = await Promise.race([sleep(WARMUP_MS + WINDOW_MS + 2_000).then(() => false), exited.then(() => true)]);
  const played = relay && !ended ? await playedBack(url) : undefined;
  await sampling;
  child.kill('SIGKILL');
  await exited;
  relay?.close();
  if (ended) throw new Error(`ffmpeg ended during the window: ${stderr.trim()}`);
  const [first, last] = samples;
  if (!first || !last) throw new Error('ffmpeg reported no progress during the window');
  if (played && !(played.video && played.audio))
    throw new Error(`a player reading the relayed stream back got ${played.video} video and ${played.audio} audio packets`);
  const seconds = (last.at - first.at) / 1000;
  const media = last.muxed - first.muxed;
  const bytes = last.bytes - first.bytes;
  const segments = last.segments - first.segments;
  return {
    mediaKBps: media / 1000 / seconds,
    sentPerMedia: bytes / media,
    segmentsPerSecond: segments / seconds,
    wirePerMedia: (bytes + segments * SEGMENT_HEADERS) / media,
    ffmpegCorePercent: ((last.cpu - first.cpu) / seconds) * 100,
    relayCorePercent: relay ? ((last.relayCpu - first.relayCpu) / seconds) * 100 : 0,
  };
}

/** A player's packets of each kind from 2 s of a live stream (nginx-rtmp serves what is being published). */
async function playedBack(url: string): Promise<{ video: number; audio: number }> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-rw_timeout', '10000000', '-read_intervals', '%+2', '-show_entries', 'packet=codec_type', '-of', 'csv=p=0', url],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  const packets = stdout.split('\n');
  return { video: packets.filter((type) => type === 'video').length, audio: packets.filter((type) => type === 'audio').length };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-bench-wire-'));
  out(
    `bench:wire on ${cpus().length} cores, ${WINDOW_MS / 1000} s windows; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  try {
    const source = await makeStreamReadySource(join(dir, 'source-1080p30.mp4'));
    out('source: 1080p30 H.264 at a constant 6 Mbit/s, AAC 128 kbit/s; one looping stream at a time\n');
    out('chunk  scheme  path    tcp_nodelay      media   sent/media   segments/s   wire/media   ffmpeg CPU   relay CPU');
    const runs: { scheme: 'rtmp' | 'rtmps'; nodelay: boolean; path: Path }[] = [
      { scheme: 'rtmp', nodelay: false, path: 'direct' },
      { scheme: 'rtmp', nodelay: true, path: 'direct' },
      { scheme: 'rtmps', nodelay: false, path: 'direct' },
      { scheme: 'rtmps', nodelay: true, path: 'direct' },
      { scheme: 'rtmp', nodelay: false, path: 'relay' },
    ];
    const results: WireFigure[] = [];
    for (const chunkSize of CHUNK_SIZES) {
      const nginx = await startNginxRtmp({
        dir: join(dir, `nginx-${chunkSize}`),
        rtmpPort: await freePort(),
        hlsPort: await freePort(),
        logFile: join(dir, `nginx-${chunkSize}.log`),
        hls: false,
        chunkSize,
      });
      try {
        for (const { scheme, nodelay, path } of runs) {
          const url = `${scheme === 'rtmp' ? nginx.rtmpUrl : nginx.rtmpsUrl}/wire-${chunkSize}-${scheme}-${path}-${nodelay ? 'nodelay' : 'nagle'}`;
          const result = { chunkSize, scheme, nodelay, path, ...(await measure(source, url, nginx.caFile, { nodelay, path })) };
          results.push(result);
          out(
            `${String(chunkSize).padStart(5)}  ${scheme.padEnd(6)}  ${path.padEnd(6)}  ${(nodelay ? 'on' : 'off (ours)').padEnd(11)}  ${result.mediaKBps.toFixed(0).padStart(6)} kB/s` +
              `  ${result.sentPerMedia.toFixed(3).padStart(10)}  ${result.segmentsPerSecond.toFixed(0).padStart(11)}  ${result.wirePerMedia.toFixed(3).padStart(11)}` +
              `  ${result.ffmpegCorePercent.toFixed(2).padStart(8)} %  ${path === 'relay' ? `${result.relayCorePercent.toFixed(2).padStart(8)} %` : ''}`,
          );
        }
      } finally {
        await nginx.stop();
      }
    }
    const find = (chunkSize: number, scheme: 'rtmp' | 'rtmps', nodelay: boolean, path: Path = 'direct') =>
      results.find((r) => r.chunkSize === chunkSize && r.scheme === scheme && r.nodelay === nodelay && r.path === path)!;
    const ours = (chunkSize: number, scheme: 'rtmp' | 'rtmps') => find(chunkSize, scheme, false);
    const relayed = (chunkSize: number) => find(chunkSize, 'rtmp', false, 'relay');
    const figures: Record<string, Figure> = {};
    for (const chunkSize of CHUNK_SIZES) {
      for (const scheme of ['rtmp', 'rtmps'] as const) {
        const name = `${scheme}Chunk${chunkSize}`;
        figures[`${name}WirePerMedia`] = figure(Number(ours(chunkSize, scheme).wirePerMedia.toFixed(3)), 'x');
        figures[`${name}SentPerMedia`] = figure(Number(ours(chunkSize, scheme).sentPerMedia.toFixed(3)), 'x');
        figures[`${name}FfmpegCpu`] = figure(Number(ours(chunkSize, scheme).ffmpegCorePercent.toFixed(2)), '% core');
        figures[`${name}NodelayWirePerMedia`] = figure(Number(find(chunkSize, scheme, true).wirePerMedia.toFixed(3)), 'x');
      }
      figures[`relayChunk${chunkSize}WirePerMedia`] = figure(Number(relayed(chunkSize).wirePerMedia.toFixed(3)), 'x');
      figures[`relayChunk${chunkSize}Cpu`] = figure(Number((relayed(chunkSize).ffmpegCorePercent + relayed(chunkSize).relayCorePercent).toFixed(2)), '% core');
    }
    const percentMore = (a: number, b: number) => ((a / b - 1) * 100).toFixed(1);
    out('\nReading it:');
    out(
      `  RTMPS at a 128-byte chunk sends ${ours(128, 'rtmps').sentPerMedia.toFixed(2)}x the media before TCP (TLS records), at 4096 ${ours(4096, 'rtmps').sentPerMedia.toFixed(2)}x;` +
        ` ffmpeg's CPU is ${(ours(128, 'rtmp').ffmpegCorePercent / ours(4096, 'rtmp').ffmpegCorePercent).toFixed(1)}x higher at 128 than at 4096 (RTMP).`,
    );
    out(
      `  tcp_nodelay adds ${percentMore(find(4096, 'rtmp', true).wirePerMedia, ours(4096, 'rtmp').wirePerMedia)} % on the wire at 4096 and` +
        ` ${percentMore(find(128, 'rtmp', true).wirePerMedia, ours(128, 'rtmp').wirePerMedia)} % at 128 (RTMP, loopback: a lower bound at 128).`,
    );
    for (const chunkSize of CHUNK_SIZES)
      out(
        `  through the relay at ${chunkSize}: ffmpeg + relay ${figures[`relayChunk${chunkSize}Cpu`]!.value.toFixed(2)} % of a core against ffmpeg alone ${ours(chunkSize, 'rtmp').ffmpegCorePercent.toFixed(2)} %;` +
          ` wire ${relayed(chunkSize).wirePerMedia.toFixed(3)}x against ${ours(chunkSize, 'rtmp').wirePerMedia.toFixed(3)}x.`,
      );
    recordResults('wire', figures, { windowSeconds: WINDOW_MS / 1000, runs: results });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`bench:wire failed: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
