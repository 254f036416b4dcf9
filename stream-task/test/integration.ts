// Helpers for the integration tests: test media made with ffmpeg, a real nginx-rtmp destination, ffprobe
// reading what arrives there, and supervisors that are always stopped after each test.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import { InMemoryHeartbeatSink } from '../src/heartbeat';
import { LocalFileFetcher } from '../src/inputs';
import { prepareMedia } from '../src/media';
import { StreamSupervisor, type StreamSupervisorOptions } from '../src/supervisor';

const run = promisify(execFile);

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `loopcast-${prefix}-`));

/**
 * A stream-ready test video as the transcode makes it: 1280x720 30 fps H.264 with a closed GOP of exactly 2 s,
 * AAC 44.1 kHz stereo of the same length. `megabits` high (noise) fills socket buffers fast when a server stalls.
 */
export async function makeTestVideo(path: string, options: { seconds: number; megabits?: number }): Promise<string> {
  const megabits = options.megabits ?? 2;
  const noise = megabits > 4 ? ',noise=alls=40:allf=t' : '';
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1280x720:rate=30${noise}`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=44100',
    '-t',
    String(options.seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-b:v',
    `${megabits}M`,
    '-maxrate',
    `${megabits}M`,
    '-bufsize',
    `${megabits}M`,
    '-g',
    '60',
    '-keyint_min',
    '60',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-shortest',
    '-movflags',
    '+faststart',
    path,
  ]);
  return path;
}

export async function makeTestAudio(path: string, seconds: number): Promise<string> {
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=660:sample_rate=44100:duration=${seconds}`,
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    path,
  ]);
  return path;
}

/** nginx-rtmp on free ports; `restart` brings it back on the same ports after it was killed. */
export class RtmpDestination {
  private constructor(
    private readonly dir: string,
    private readonly settings: { rtmpPort: number; rtmpsPort: number; hlsPort: number; chunkSize?: number },
    public server: NginxRtmp,
  ) {}

  /** `chunkSize`: the RTMP chunk size the server declares (nginx-rtmp's 4096 by default). */
  static async start(dir: string, options: { chunkSize?: number } = {}): Promise<RtmpDestination> {
    const settings = { rtmpPort: await freePort(), rtmpsPort: await freePort(), hlsPort: await freePort(), ...options };
    return new RtmpDestination(dir, settings, await startNginxRtmp({ dir, ...settings, logFile: join(dir, 'nginx.log') }));
  }

  url(key: string): string {
    return `${this.server.rtmpUrl}/${key}`;
  }

  /** The same stream key through the TLS front (nginx's stream module, a certificate from the server's own CA). */
  secureUrl(key: string, host = '127.0.0.1'): string {
    return `${this.server.rtmpsUrl.replace('//127.0.0.1:', `//${host}:`)}/${key}`;
  }

  /** Publishing clients nginx-rtmp counts on a stream key (its rtmp_stat page). */
  async publishers(key: string): Promise<number> {
    const xml = await (await fetch(`${this.server.hlsUrl.replace(/\/hls$/, '')}/stat`)).text();
    const stream = [...xml.matchAll(/<stream>([\s\S]*?)<\/stream>/g)].map((match) => match[1]!).find((body) => body.includes(`<name>${key}</name>`));
    return stream ? [...stream.matchAll(/<client>([\s\S]*?)<\/client>/g)].filter((client) => client[1]!.includes('<publishing/>')).length : 0;
  }

  get pid(): number {
    return this.server.process.child.pid!;
  }

  async restart(): Promise<void> {
    this.server = await startNginxRtmp({ dir: this.dir, ...this.settings, logFile: join(this.dir, 'nginx.log') });
  }

  async stop(): Promise<void> {
    if (!this.server.process.alive) return;
    this.server.process.child.kill('SIGCONT');
    await this.server.stop();
  }
}

export interface Packet {
  type: 'video' | 'audio';
  dts: number;
  key: boolean;
}

const readers = new Set<ChildProcess>();

/** What a player receives from the destination for `seconds` of stream time (ffprobe, packet by packet). */
export function readPackets(url: string, seconds: number): Promise<Packet[]> {
  return new Promise((resolve, reject) => {
    const probe = spawn(
      'ffprobe',
      ['-v', 'error', '-rw_timeout', '10000000', '-read_intervals', `%+${seconds}`, '-show_entries', 'packet=codec_type,dts_time,flags', '-of', 'csv=p=0', url],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    readers.add(probe);
    const packets: Packet[] = [];
    let stderr = '';
    createInterface({ input: probe.stdout! }).on('line', (line) => {
      const [type, dts, flags] = line.split(',');
      if ((type === 'video' || type === 'audio') && dts !== 'N/A') packets.push({ type, dts: Number(dts), key: flags?.startsWith('K') ?? false });
    });
    probe.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const guard = setTimeout(() => probe.kill('SIGKILL'), (seconds + 20) * 1000);
    probe.once('close', (code) => {
      clearTimeout(guard);
      readers.delete(probe);
      if (packets.length) resolve(packets);
      else reject(new Error(`ffprobe read nothing from the destination (exit ${code}): ${stderr.trim()}`));
    });
  });
}

/** Largest step between consecutive DTS, and whether they only ever increase. */
export function dtsProfile(packets: Packet[], type: Packet['type']): { count: number; increasing: boolean; maxGap: number; span: number } {
  const dts = packets.filter((p) => p.type === type).map((p) => p.dts);
  let increasing = true;
  let maxGap = 0;
  for (let i = 1; i < dts.length; i += 1) {
    if (dts[i]! <= dts[i - 1]!) increasing = false;
    maxGap = Math.max(maxGap, dts[i]! - dts[i - 1]!);
  }
  return { count: dts.length, increasing, maxGap, span: dts.length ? dts.at(-1)! - dts[0]! : 0 };
}

/** Seconds between consecutive video keyframes. */
export const keyframeIntervals = (packets: Packet[]): number[] => {
  const keys = packets.filter((p) => p.type === 'video' && p.key).map((p) => p.dts);
  return keys.slice(1).map((dts, i) => Number((dts - keys[i]!).toFixed(3)));
};

export interface TestStream {
  supervisor: StreamSupervisor;
  sink: InMemoryHeartbeatSink;
  exitCode: Promise<number>;
  logs: string[];
}

const streams = new Set<TestStream>();

/** A real supervisor (real ffmpeg) on local files. */
export function startStream(
  options: Omit<StreamSupervisorOptions, 'prepare' | 'sink' | 'streamId' | 'restartTimes' | 'timeZone'> & { video: string; audio?: string; dir: string },
): TestStream {
  const sink = new InMemoryHeartbeatSink();
  const logs: string[] = [];
  const { video, audio, dir, ...rest } = options;
  const supervisor = new StreamSupervisor({
    streamId: 'test-stream',
    restartTimes: [],
    timeZone: 'UTC',
    prepare: (signal) => prepareMedia({ video, ...(audio ? { audio } : {}) }, [new LocalFileFetcher()], dir, signal),
    sink,
    log: (line) => logs.push(`${new Date().toISOString()} ${line}`),
    ...rest,
  });
  const stream = { supervisor, sink, exitCode: supervisor.run(), logs };
  streams.add(stream);
  return stream;
}

/** Stops every supervisor and ffprobe a test started; call in afterEach so a failing test leaves nothing running. */
export async function stopEverything(): Promise<void> {
  for (const reader of readers) reader.kill('SIGKILL');
  await Promise.all(
    [...streams].map(async (stream) => {
      stream.supervisor.stop();
      await stream.exitCode;
      streams.delete(stream);
    }),
  );
}

/** Direct children of a process with the given command name, from /proc. */
export function childPids(parentPid: number, command: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return ppid === parentPid && name === command ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** True while the process exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });
