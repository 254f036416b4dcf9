// npm run bench:wire [-- --quick]
//   BENCH_WIRE_WINDOW_SECONDS (20; quick 8)
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
// with tcp_nodelay, against a real nginx-rtmp (RTMPS through nginx's stream module) declaring that chunk size.
// Counted on ffmpeg's own socket (ss -ti): bytes and TCP segments sent, against the FLV bytes ffmpeg muxed (its
// progress total_size) over the same window. "Wire" adds 66 bytes a segment (Ethernet, IPv4, TCP with timestamps).
// On loopback an ACK comes at once, so Nagle joins less than on a real link: with Nagle on, the segment count is an
// upper bound; with tcp_nodelay, every write is a segment on any link.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startNginxRtmp } from '../local/nginx-rtmp';
import { freePort } from '../local/ports';
import { ffmpegArgs } from '../stream-task/src/ffmpeg';
import { makeStreamReadySource } from './first-media';
import { cpuSeconds } from './proc';
import { figure, quick, recordResults, type Figure } from './results';

const WINDOW_MS = Number(process.env.BENCH_WIRE_WINDOW_SECONDS ?? (quick ? 8 : 20)) * 1000;
const WARMUP_MS = 3_000;
const CHUNK_SIZES = [4096, 128] as const;
/** Ethernet (14), IPv4 (20) and TCP with the timestamp option (32) headers of one segment. */
const SEGMENT_HEADERS = 66;

const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SocketCounters {
  bytes: number;
  segments: number;
}

/** The counters of the one established TCP socket a process has, from `ss -tinp` (iproute2). */
function socketCounters(pid: number): SocketCounters {
  const lines = execFileSync('ss', ['-tinpH', 'state', 'established'], { encoding: 'utf8' }).split('\n');
  const at = lines.findIndex((line) => line.includes(`pid=${pid},`));
  const info = at >= 0 ? lines[at + 1] : undefined;
  const count = (key: string) => Number(new RegExp(`\\b${key}:(\\d+)`).exec(info ?? '')?.[1]);
  const counters = { bytes: count('bytes_sent'), segments: count('segs_out') };
  if (!Number.isFinite(counters.bytes) || !Number.isFinite(counters.segments)) throw new Error(`no TCP socket of ffmpeg (pid ${pid}) in ss's output`);
  return counters;
}

interface Sample extends SocketCounters {
  muxed: number;
  at: number;
  cpu: number;
}

interface WireFigure {
  chunkSize: number;
  scheme: 'rtmp' | 'rtmps';
  nodelay: boolean;
  mediaKBps: number;
  sentPerMedia: number;
  segmentsPerSecond: number;
  wirePerMedia: number;
  ffmpegCorePercent: number;
}

/** One ffmpeg publishing the looped source for the window; samples are taken as its progress blocks arrive, so the
 * socket's counters and the muxed bytes are read at the same moment. */
async function measure(source: string, url: string, caFile: string, nodelay: boolean): Promise<Omit<WireFigure, 'chunkSize' | 'scheme' | 'nodelay'>> {
  const args = ffmpegArgs({ videoPath: source }, [{ id: 'bench', url }], { caFile });
  if (nodelay) args.splice(args.indexOf('-flvflags'), 0, '-tcp_nodelay', '1');
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-2000)));
  const samples: Sample[] = [];
  let muxed = 0;
  const started = performance.now();
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('total_size=')) muxed = Number(line.slice('total_size='.length));
    if (line.startsWith('progress=') && performance.now() - started >= WARMUP_MS)
      samples.push({ ...socketCounters(child.pid!), muxed, at: performance.now(), cpu: cpuSeconds(child.pid!) });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const outcome = await Promise.race([sleep(WARMUP_MS + WINDOW_MS).then(() => 'window' as const), exited.then(() => 'exited' as const)]);
  child.kill('SIGKILL');
  await exited;
  if (outcome === 'exited') throw new Error(`ffmpeg ended during the window: ${stderr.trim()}`);
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last === first) throw new Error('ffmpeg reported no progress during the window');
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
  };
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
    out('chunk  scheme  tcp_nodelay      media   sent/media   segments/s   wire/media   ffmpeg CPU');
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
        for (const scheme of ['rtmp', 'rtmps'] as const)
          for (const nodelay of [false, true]) {
            const url = `${scheme === 'rtmp' ? nginx.rtmpUrl : nginx.rtmpsUrl}/wire-${chunkSize}-${scheme}-${nodelay ? 'nodelay' : 'nagle'}`;
            const result = { chunkSize, scheme, nodelay, ...(await measure(source, url, nginx.caFile, nodelay)) };
            results.push(result);
            out(
              `${String(chunkSize).padStart(5)}  ${scheme.padEnd(6)}  ${(nodelay ? 'on' : 'off (ours)').padEnd(11)}  ${result.mediaKBps.toFixed(0).padStart(6)} kB/s` +
                `  ${result.sentPerMedia.toFixed(3).padStart(10)}  ${result.segmentsPerSecond.toFixed(0).padStart(11)}  ${result.wirePerMedia.toFixed(3).padStart(11)}  ${result.ffmpegCorePercent.toFixed(2).padStart(8)} %`,
            );
          }
      } finally {
        await nginx.stop();
      }
    }
    const ours = (chunkSize: number, scheme: 'rtmp' | 'rtmps') => results.find((r) => r.chunkSize === chunkSize && r.scheme === scheme && !r.nodelay)!;
    const withNodelay = (chunkSize: number, scheme: 'rtmp' | 'rtmps') => results.find((r) => r.chunkSize === chunkSize && r.scheme === scheme && r.nodelay)!;
    const figures: Record<string, Figure> = {};
    for (const chunkSize of CHUNK_SIZES)
      for (const scheme of ['rtmp', 'rtmps'] as const) {
        const name = `${scheme}Chunk${chunkSize}`;
        figures[`${name}WirePerMedia`] = figure(Number(ours(chunkSize, scheme).wirePerMedia.toFixed(3)), 'x');
        figures[`${name}SentPerMedia`] = figure(Number(ours(chunkSize, scheme).sentPerMedia.toFixed(3)), 'x');
        figures[`${name}FfmpegCpu`] = figure(Number(ours(chunkSize, scheme).ffmpegCorePercent.toFixed(2)), '% core');
        figures[`${name}NodelayWirePerMedia`] = figure(Number(withNodelay(chunkSize, scheme).wirePerMedia.toFixed(3)), 'x');
      }
    out('\nReading it:');
    out(
      `  RTMPS at a 128-byte chunk sends ${ours(128, 'rtmps').sentPerMedia.toFixed(2)}x the media before TCP (TLS records), at 4096 ${ours(4096, 'rtmps').sentPerMedia.toFixed(2)}x;` +
        ` ffmpeg's CPU is ${(ours(128, 'rtmp').ffmpegCorePercent / ours(4096, 'rtmp').ffmpegCorePercent).toFixed(1)}x higher at 128 than at 4096 (RTMP).`,
    );
    out(
      `  tcp_nodelay adds ${((withNodelay(4096, 'rtmp').wirePerMedia / ours(4096, 'rtmp').wirePerMedia - 1) * 100).toFixed(1)} % on the wire at 4096 and` +
        ` ${((withNodelay(128, 'rtmp').wirePerMedia / ours(128, 'rtmp').wirePerMedia - 1) * 100).toFixed(1)} % at 128 (RTMP, loopback: a lower bound at 128).`,
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
