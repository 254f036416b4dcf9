// npm run bench:stream [-- --quick]
//   BENCH_STREAM_MAX_LOOPS (default 300; quick 60), BENCH_STREAM_STEP (25; quick 20), BENCH_STREAM_FIRST (= the
//   step), BENCH_STREAM_WINDOW_SECONDS (20; quick 10), BENCH_STREAM_PROFILE_AT (loops at which the supervisors'
//   process is profiled during the window: the first step by default, none with --quick; 0 for none), BENCH_STREAM_PARTS (which
//   parts to run, comma-separated: cpu,ramp,recovery; all by default), BENCH_STREAM_PROFILE_PLAYLIST (0: no CPU
//   profile of the playlist stream's process, taken in a window after its measured one; --quick takes none)
//
// The stream-task's costs and recovery on this machine, against a real nginx-rtmp destination:
//   1. CPU % of one core for one looping 1080p30 stream: stream copy (the real supervisor) and libx264 veryfast
//      re-encoding, one after the other in this run, also per second of media (re-encoding may not keep up); and a
//      playlist of three items (2, 4 and 6 s of the same source) fed by the supervisor's feeder, next to the
//      single video, with the time each join takes (the previous item's last tag to the next one's first);
//   2. how many copy loops at once all hold speed >= 0.99 (ramped up until one does not or restarts, or the
//      maximum): the knee, with memory per loop (ffmpeg's RSS, the supervisors' process RSS), the supervisors' CPU
//      and wakeups (context switches) per loop, and a CPU profile of the supervisors' process at one step;
//   3. recovery after a destination outage: the server is killed, kept down, started again; seconds until the
//      supervisor is publishing again and until a player receives media.
// Start to first media has its own bench: `npm run bench:start`.
// The machine is shared: the load average is printed with the figures.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { startNginxRtmp, type NginxRtmp } from '../local/nginx-rtmp';
import { freePort } from '../local/ports';
import { profileDuring, type ProfileSummary } from './cpu-profile';
import { contextSwitches, cpuSeconds, proportionalSet, residentSet } from './proc';
import { firstMediaAt, makeStreamReadySource } from './first-media';
import { figure, quick, recordResults } from './results';
import { InMemoryHeartbeatSink } from '../stream-task/src/heartbeat';
import { LocalFileFetcher } from '../stream-task/src/inputs';
import type { JoinReport } from '../stream-task/src/feeder';
import { prepareMedia, type PreparedMedia } from '../stream-task/src/media';
import { ProgressParser } from '../stream-task/src/progress';
import { StreamSupervisor } from '../stream-task/src/supervisor';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const MAX_LOOPS = envNumber('BENCH_STREAM_MAX_LOOPS', quick ? 60 : 300);
const STEP = envNumber('BENCH_STREAM_STEP', quick ? 20 : 25);
const FIRST = envNumber('BENCH_STREAM_FIRST', STEP);
const WINDOW_MS = envNumber('BENCH_STREAM_WINDOW_SECONDS', quick ? 10 : 20) * 1000;
// The profiles take windows of their own: a quick run, which checks the figures, leaves them to full runs.
const PROFILE_AT = envNumber('BENCH_STREAM_PROFILE_AT', quick ? 0 : FIRST);
const OUTAGES_SECONDS = quick ? [2, 10] : [2, 10, 30];
const PROFILE_PLAYLIST = (process.env.BENCH_STREAM_PROFILE_PLAYLIST ?? (quick ? '0' : '1')) !== '0';
const PARTS = new Set((process.env.BENCH_STREAM_PARTS ?? 'cpu,ramp,recovery').split(','));

const out = (line = '') => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 1) => value.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface BenchStream {
  supervisor: StreamSupervisor;
  sink: InMemoryHeartbeatSink;
  done: Promise<number>;
}

/** A single video's loop, or (with `playlist`) the playlist of those files. */
function startSupervisor(source: string, url: string, workDir: string, playlist?: { items: string[]; onJoin(report: JoinReport): void }): BenchStream {
  const sink = new InMemoryHeartbeatSink();
  const sources = playlist
    ? { video: source, playlist: { revision: 0, shuffle: false, items: playlist.items.map((path, i) => ({ id: `item-${i + 1}`, url: path })) } }
    : { video: source };
  const supervisor = new StreamSupervisor({
    streamId: 'bench',
    destinations: [{ id: 'bench', url }],
    restartTimes: [],
    timeZone: 'UTC',
    prepare: (signal): Promise<PreparedMedia> => prepareMedia(sources, [new LocalFileFetcher()], workDir, signal),
    sink,
    ...(playlist ? { onJoin: playlist.onJoin } : {}),
  });
  return { supervisor, sink, done: supervisor.run() };
}

async function stopAll(streams: BenchStream[]): Promise<void> {
  for (const stream of streams) stream.supervisor.stop();
  await Promise.all(streams.map((stream) => stream.done));
}

/** The newest progress sample of a stream's current run: output time and when it arrived. */
function lastSample(stream: BenchStream): { at: number; outTimeUs: number } | undefined {
  return stream.supervisor.state.run?.health.samples.at(-1);
}

// ---- 1. CPU: copy vs re-encode ---------------------------------------------------------------------------

interface CpuFigure {
  corePercent: number;
  speed: number;
  cpuPerMediaSecond: number;
}

async function measureCopyCpu(
  source: string,
  nginx: NginxRtmp,
  workDir: string,
  playlist?: { items: string[]; onJoin(report: JoinReport): void },
  profile = false,
): Promise<CpuFigure & { supervisorCorePercent: number; supervisorWakeupsPerSecond: number; nginxCorePercent: number; profile?: ProfileSummary }> {
  const stream = startSupervisor(source, `${nginx.rtmpUrl}/cpu-copy${playlist ? '-playlist' : ''}`, workDir, playlist);
  try {
    await stream.sink.waitFor((h) => h.actual === 'started', 30_000, 'actual started');
    await sleep(3_000);
    const [pid] = stream.supervisor.ffmpegPids;
    const nginxPid = nginx.process.child.pid!;
    const before = {
      ffmpeg: cpuSeconds(pid!),
      nginx: cpuSeconds(nginxPid),
      node: process.cpuUsage(),
      switches: contextSwitches(process.pid),
      sample: lastSample(stream)!,
    };
    await sleep(WINDOW_MS);
    const after = {
      ffmpeg: cpuSeconds(pid!),
      nginx: cpuSeconds(nginxPid),
      node: process.cpuUsage(before.node),
      switches: contextSwitches(process.pid),
      sample: lastSample(stream)!,
    };
    const wall = (after.sample.at - before.sample.at) / 1000;
    const media = (after.sample.outTimeUs - before.sample.outTimeUs) / 1e6;
    const cpu = after.ffmpeg - before.ffmpeg;
    if (stream.supervisor.state.restarts) throw new Error('the copy stream restarted during the measurement');
    // Profiled in a window of its own after the measured one (the profiler's thread would count as the process's CPU).
    const summary = profile ? await profileDuring(() => sleep(WINDOW_MS).then(() => undefined)) : undefined;
    return {
      ...(summary ? { profile: summary } : {}),
      corePercent: (cpu / wall) * 100,
      speed: media / wall,
      cpuPerMediaSecond: cpu / media,
      supervisorCorePercent: ((after.node.user + after.node.system) / 1e6 / wall) * 100,
      supervisorWakeupsPerSecond: (after.switches - before.switches) / wall,
      nginxCorePercent: ((after.nginx - before.nginx) / wall) * 100,
    };
  } finally {
    await stopAll([stream]);
  }
}

/** Three items cut by stream copy at keyframes from the source (2, 4 and 6 s): the playlist of the CPU part. */
async function playlistItems(source: string, dir: string): Promise<string[]> {
  return Promise.all(
    [2, 4, 6].map(async (seconds) => {
      const path = join(dir, `item-${seconds}s.mp4`);
      await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', source, '-t', String(seconds), '-c', 'copy', '-movflags', '+faststart', path]);
      return path;
    }),
  );
}

/** A playlist stream's CPU next to the single video's, and its joins' times. */
async function measurePlaylistCpu(source: string, nginx: NginxRtmp, dir: string) {
  const joins: JoinReport[] = [];
  const items = await playlistItems(source, dir);
  const cpu = await measureCopyCpu(source, nginx, join(dir, 'work-playlist'), { items, onJoin: (report) => joins.push(report) }, PROFILE_PLAYLIST);
  const switches = joins.flatMap((report) => (report.switchMs === undefined ? [] : [report.switchMs]));
  if (!switches.length) throw new Error('the playlist made no join during the measurement');
  return { ...cpu, joins: switches.length, joinMedianMs: median(switches), joinMaxMs: Math.max(...switches) };
}

async function measureReencodeCpu(source: string, url: string): Promise<CpuFigure> {
  const ffmpeg = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      source,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      '6M',
      '-maxrate',
      '6M',
      '-bufsize',
      '12M',
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
      '-f',
      'flv',
      url,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const parser = new ProgressParser();
  let latest = { at: 0, outTimeUs: 0 };
  createInterface({ input: ffmpeg.stdout! }).on('line', (line) => {
    const block = parser.pushLine(line);
    if (block?.outTimeUs) latest = { at: Date.now(), outTimeUs: block.outTimeUs };
  });
  try {
    await sleep(5_000);
    const before = { cpu: cpuSeconds(ffmpeg.pid!), sample: latest };
    await sleep(WINDOW_MS);
    const after = { cpu: cpuSeconds(ffmpeg.pid!), sample: latest };
    if (!before.sample.at || after.sample.at === before.sample.at) throw new Error('the re-encoding ffmpeg made no progress');
    const wall = (after.sample.at - before.sample.at) / 1000;
    const media = (after.sample.outTimeUs - before.sample.outTimeUs) / 1e6;
    const cpu = after.cpu - before.cpu;
    return { corePercent: (cpu / wall) * 100, speed: media / wall, cpuPerMediaSecond: cpu / media };
  } finally {
    ffmpeg.kill('SIGKILL');
  }
}

// ---- 2. concurrent copy loops -----------------------------------------------------------------------------

interface RampStep {
  loops: number;
  minSpeed: number;
  medianSpeed: number;
  restarts: number;
  machinePercent: number;
  /** The supervisors' process (this one): % of one core per loop, wakeups per second per loop. */
  supervisorPercentPerLoop: number;
  wakeupsPerSecondPerLoop: number;
  /** Resident memory per loop: each ffmpeg's own, and this process's share. */
  ffmpegMiBPerLoop: number;
  supervisorMiBPerLoop: number;
  held: boolean;
  profile?: ProfileSummary;
}

const MiB = 1024 * 1024;
const rssOf = (pid: number) => {
  try {
    return residentSet(pid).now;
  } catch {
    return 0; // gone meanwhile
  }
};
/** An ffmpeg's own memory: its proportional set (shared libraries divided among the processes mapping them). */
const pssOf = (pid: number) => {
  try {
    return proportionalSet(pid);
  } catch {
    return 0;
  }
};

async function rampConcurrentLoops(source: string, nginx: NginxRtmp, workDir: string): Promise<RampStep[]> {
  const streams: BenchStream[] = [];
  const steps: RampStep[] = [];
  try {
    for (let loops = FIRST; loops <= MAX_LOOPS; loops += STEP) {
      while (streams.length < loops) streams.push(startSupervisor(source, `${nginx.rtmpUrl}/ramp-${streams.length}`, join(workDir, `ramp-${streams.length}`)));
      // A loop that cannot start within a minute (the destination stops answering handshakes) is past the knee too.
      const started = await Promise.allSettled(streams.map((s) => s.sink.waitFor((h) => h.actual === 'started', 60_000, 'actual started')));
      const notStarted = started.filter((outcome) => outcome.status === 'rejected').length;
      if (notStarted) {
        steps.push({
          loops,
          minSpeed: 0,
          medianSpeed: 0,
          restarts: 0,
          machinePercent: 0,
          supervisorPercentPerLoop: 0,
          wakeupsPerSecondPerLoop: 0,
          ffmpegMiBPerLoop: 0,
          supervisorMiBPerLoop: 0,
          held: false,
        });
        out(
          `  ${String(loops).padStart(3)} loops: ${notStarted} did not start within 60 s, load ${loadavg()
            .map((l) => fixed(l, 1))
            .join(' ')}  NOT held`,
        );
        reportErrors(streams);
        break;
      }
      await sleep(5_000);
      const pids = () => [...streams.flatMap((s) => s.supervisor.ffmpegPids), nginx.process.child.pid!];
      const cpuBefore = pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      const nodeBefore = process.cpuUsage();
      const wallBefore = Date.now();
      const before = streams.map((s) => ({ sample: lastSample(s), run: s.supervisor.state.run?.id, restarts: s.supervisor.state.restarts }));
      const switchesBefore = contextSwitches(process.pid);
      await sleep(WINDOW_MS);
      const switches = contextSwitches(process.pid) - switchesBefore;
      // A stream whose ffmpeg was restarted during the window did not hold: speed 0.
      const speeds = streams.map((s, i) => {
        const first = before[i]!.sample;
        const last = lastSample(s);
        const sameRun = s.supervisor.state.run?.id === before[i]!.run;
        return sameRun && first && last && last.at > first.at ? (last.outTimeUs - first.outTimeUs) / 1e3 / (last.at - first.at) : 0;
      });
      const restarts = streams.reduce((sum, s, i) => sum + s.supervisor.state.restarts - before[i]!.restarts, 0);
      const node = process.cpuUsage(nodeBefore);
      const nodeSeconds = (node.user + node.system) / 1e6;
      const wall = (Date.now() - wallBefore) / 1000;
      const cpu = pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore + nodeSeconds;
      const ffmpegPids = streams.flatMap((s) => s.supervisor.ffmpegPids);
      // Profiled in a window of its own after the measured one: the profiler's own thread and its serialising
      // would count as the supervisors' CPU and wakeups.
      const profile = loops === PROFILE_AT ? await profileDuring(() => sleep(WINDOW_MS).then(() => undefined)) : undefined;
      const step: RampStep = {
        loops,
        minSpeed: Math.min(...speeds),
        medianSpeed: median(speeds),
        restarts,
        machinePercent: ((cpu / wall) * 100) / cpus().length,
        supervisorPercentPerLoop: (nodeSeconds / wall / loops) * 100,
        wakeupsPerSecondPerLoop: switches / wall / loops,
        ffmpegMiBPerLoop: ffmpegPids.reduce((sum, pid) => sum + pssOf(pid), 0) / ffmpegPids.length / MiB,
        supervisorMiBPerLoop: rssOf(process.pid) / loops / MiB,
        held: Math.min(...speeds) >= 0.99 && restarts === 0,
        ...(profile ? { profile } : {}),
      };
      steps.push(step);
      out(
        `  ${String(loops).padStart(3)} loops: speed min ${fixed(step.minSpeed, 3)} median ${fixed(step.medianSpeed, 3)}, restarts ${restarts}, ` +
          `machine CPU ${fixed(step.machinePercent)} % (ffmpeg + nginx + supervisors), load ${loadavg()
            .map((l) => fixed(l, 1))
            .join(' ')}  ${step.held ? 'held' : 'NOT held'}`,
      );
      out(
        `       per loop: supervisors ${fixed(step.supervisorPercentPerLoop, 3)} % of a core, ${fixed(step.wakeupsPerSecondPerLoop, 1)} wakeups/s; ` +
          `memory: ffmpeg ${fixed(step.ffmpegMiBPerLoop)} MiB (PSS), supervisors' process ${fixed(step.supervisorMiBPerLoop, 2)} MiB (RSS / loops)`,
      );
      if (profile) printProfile(profile, `the supervisors' process at ${loops} loops`);
      if (!step.held) {
        reportErrors(streams);
        break;
      }
    }
  } finally {
    await stopAll(streams);
  }
  return steps;
}

/** The loops' last errors, counted. */
function reportErrors(streams: BenchStream[]): void {
  const errors = new Map<string, number>();
  for (const s of streams) if (s.supervisor.state.lastError) errors.set(s.supervisor.state.lastError, (errors.get(s.supervisor.state.lastError) ?? 0) + 1);
  for (const [error, count] of errors) out(`       ${count} x ${error}`);
}

function printProfile(profile: ProfileSummary, what: string): void {
  out(`       CPU profile of ${what}: ${fixed(profile.busyMs / 1000, 2)} s busy of ${fixed(profile.sampledMs / 1000, 1)} s sampled`);
  out(
    '         by file:     ' +
      profile.byFile
        .slice(0, 8)
        .map(({ name, ms }) => `${name} ${fixed((ms / profile.busyMs) * 100, 0)} %`)
        .join(', '),
  );
  out('         by function:');
  for (const { name, ms } of profile.byFunction.slice(0, 12)) out(`           ${fixed((ms / profile.busyMs) * 100, 1).padStart(5)} %  ${name}`);
}

// ---- 3. recovery after a destination outage ----------------------------------------------------------------

async function measureRecovery(source: string, dir: string, workDir: string): Promise<{ outage: number; publishing: number; media: number }[]> {
  const ports = { rtmpPort: await freePort(), hlsPort: await freePort() };
  const startServer = () => startNginxRtmp({ dir: join(dir, 'nginx-recovery'), ...ports, logFile: join(dir, 'nginx-recovery.log'), hls: false });
  let server = await startServer();
  const url = `${server.rtmpUrl}/recovery`;
  const stream = startSupervisor(source, url, workDir);
  const results: { outage: number; publishing: number; media: number }[] = [];
  try {
    await stream.sink.waitFor((h) => h.actual === 'started', 30_000, 'actual started');
    for (const outage of OUTAGES_SECONDS) {
      await sleep(3_000);
      server.process.child.kill('SIGKILL');
      await stream.sink.waitFor((h) => h.actual === 'restarting', 10_000, 'actual restarting');
      await sleep(outage * 1000);
      server = await startServer();
      const backAt = Date.now();
      const media = firstMediaAt(url);
      try {
        const started = await stream.sink.waitFor((h) => h.actual === 'started', 60_000, 'actual started again');
        results.push({ outage, publishing: (Date.parse(started.at) - backAt) / 1000, media: ((await media.at) - backAt) / 1000 });
      } finally {
        media.reader.kill('SIGKILL');
      }
      const last = results.at(-1)!;
      out(
        `  outage ${String(outage).padStart(2)} s: publishing again ${fixed(last.publishing)} s and media at a player ${fixed(last.media)} s after the server is back (restarts ${stream.supervisor.state.restarts})`,
      );
    }
  } finally {
    await stopAll([stream]);
    await server.stop();
  }
  return results;
}

// ---- main -------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-bench-stream-'));
  const { stdout: version } = await run('ffmpeg', ['-version']);
  out(`bench:stream on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${version.split('\n')[0]}`);
  out(
    `load average at start: ${loadavg()
      .map((l) => fixed(l, 2))
      .join(' ')} (the machine is shared; figures move with it)`,
  );
  // The destination only ingests, as a platform's does from our side: the local stack's HLS preview would cost it as
  // much CPU per stream as the loop costs ffmpeg, on the same two cores.
  const nginx = await startNginxRtmp({
    dir: join(dir, 'nginx'),
    rtmpPort: await freePort(),
    hlsPort: await freePort(),
    logFile: join(dir, 'nginx.log'),
    hls: false,
  });
  try {
    const source = await makeStreamReadySource(join(dir, 'source-1080p30.mp4'));
    out('source: 10 s 1920x1080 30 fps H.264 High, constant 6 Mbit/s, 2 s closed GOP, AAC-LC 128 kbit/s 44.1 kHz');

    if (!PARTS.has('cpu')) throw new Error('the cpu part is always run (the other parts compare with it)');
    out('\n1. CPU per looping 1080p30 stream (% of one core)');
    const copy = await measureCopyCpu(source, nginx, join(dir, 'work-copy'));
    out(
      `  copy      : ffmpeg ${fixed(copy.corePercent, 2)} %, speed ${fixed(copy.speed, 3)}, ${fixed(copy.cpuPerMediaSecond * 1000, 1)} ms CPU per media second;` +
        ` supervisor (Node) ${fixed(copy.supervisorCorePercent, 2)} %, ${fixed(copy.supervisorWakeupsPerSecond, 0)} wakeups/s; destination nginx ${fixed(copy.nginxCorePercent, 2)} %`,
    );
    const playlist = await measurePlaylistCpu(source, nginx, dir);
    out(
      `  playlist  : ffmpeg ${fixed(playlist.corePercent, 2)} %, speed ${fixed(playlist.speed, 3)}, ${fixed(playlist.cpuPerMediaSecond * 1000, 1)} ms CPU per media second;` +
        ` supervisor (Node, with the feeder) ${fixed(playlist.supervisorCorePercent, 2)} %, ${fixed(playlist.supervisorWakeupsPerSecond, 0)} wakeups/s; ${playlist.joins} joins, ${fixed(playlist.joinMedianMs, 2)} ms median, ${fixed(playlist.joinMaxMs, 2)} ms longest`,
    );
    if (playlist.profile) printProfile(playlist.profile, "the playlist stream's process (supervisor and feeder)");
    const singleTotal = copy.corePercent + copy.supervisorCorePercent;
    const playlistTotal = playlist.corePercent + playlist.supervisorCorePercent;
    const reencode = await measureReencodeCpu(source, `${nginx.rtmpUrl}/cpu-reencode`);
    out(
      `  re-encode : ffmpeg ${fixed(reencode.corePercent)} % (libx264 veryfast), speed ${fixed(reencode.speed, 3)}, ${fixed(reencode.cpuPerMediaSecond * 1000, 0)} ms CPU per media second`,
    );
    const ratio = reencode.cpuPerMediaSecond / copy.cpuPerMediaSecond;
    out(`  ratio     : re-encoding costs ${fixed(ratio, 0)}x the CPU of stream copy per second of media`);

    const playlistFigures = {
      playlistCpuPerStream: figure(Number(fixed(playlistTotal, 2)), '% core'),
      playlistSupervisorCpu: figure(Number(fixed(playlist.supervisorCorePercent, 2)), '% core'),
      singleVideoSupervisorCpu: figure(Number(fixed(copy.supervisorCorePercent, 2)), '% core'),
      playlistSupervisorWakeups: figure(Number(fixed(playlist.supervisorWakeupsPerSecond, 0)), '/s'),
      singleVideoSupervisorWakeups: figure(Number(fixed(copy.supervisorWakeupsPerSecond, 0)), '/s'),
      singleVideoCpuPerStream: figure(Number(fixed(singleTotal, 2)), '% core'),
      playlistJoinMedian: figure(Number(fixed(playlist.joinMedianMs, 2)), 'ms', { op: '<', value: 50 }),
      playlistJoinLongest: figure(Number(fixed(playlist.joinMaxMs, 2)), 'ms', { op: '<', value: 50 }),
    };
    const playlistExtra = playlist.profile ? { playlistProfileTop: playlist.profile.byFunction.slice(0, 8) } : {};
    if (!PARTS.has('ramp') || !PARTS.has('recovery')) {
      out('\nFigures (goal):');
      out(
        `  CPU per stream (ffmpeg + supervisor)   single video ${fixed(singleTotal, 2)} %, playlist ${fixed(playlistTotal, 2)} % of one core   (equal within noise)`,
      );
      out(
        `  time per join                          ${fixed(playlist.joinMedianMs, 2)} ms median, ${fixed(playlist.joinMaxMs, 2)} ms longest   (< 50 ms)  ${playlist.joinMaxMs < 50 ? 'met' : 'MISSED'}`,
      );
      recordResults(
        'stream',
        { copyCpuPerStream: figure(Number(fixed(copy.corePercent, 2)), '% core', { op: '<=', value: 2 }), ...playlistFigures },
        { parts: [...PARTS], ...playlistExtra },
      );
      return;
    }

    out(`\n2. Concurrent copy loops holding speed >= 0.99 (steps of ${STEP} up to ${MAX_LOOPS}, ${WINDOW_MS / 1000} s windows)`);
    const ramp = await rampConcurrentLoops(source, nginx, join(dir, 'work-ramp'));
    const held = Math.max(0, ...ramp.filter((s) => s.held).map((s) => s.loops));
    const knee = ramp.filter((s) => s.held).at(-1) ?? ramp[0]!;
    // What one more loop costs the supervisors' process: the slope from the first step to the knee (the process's
    // own fixed cost, timers and the bench, drops out).
    const first = ramp[0]!;
    const marginalPercent =
      knee.loops > first.loops
        ? (knee.supervisorPercentPerLoop * knee.loops - first.supervisorPercentPerLoop * first.loops) / (knee.loops - first.loops)
        : knee.supervisorPercentPerLoop;

    out('\n3. Recovery after a destination outage (server killed, kept down, started again)');
    const recovery = await measureRecovery(source, dir, join(dir, 'work-recovery'));

    const worstRecovery = Math.max(...recovery.map((r) => r.media));
    out('\nFigures (goal):');
    out(`  copy CPU per stream        ${fixed(copy.corePercent, 2)} % of one core   (<= 2 %)  ${copy.corePercent <= 2 ? 'met' : 'MISSED'}`);
    out(
      `  playlist CPU per stream    ${fixed(playlistTotal, 2)} % of one core (ffmpeg + supervisor), single video ${fixed(singleTotal, 2)} %   (equal within noise)`,
    );
    out(
      `  time per join              ${fixed(playlist.joinMedianMs, 2)} ms median, ${fixed(playlist.joinMaxMs, 2)} ms longest   (< 50 ms)  ${playlist.joinMaxMs < 50 ? 'met' : 'MISSED'}`,
    );
    out(`  re-encode / copy CPU       ${fixed(ratio, 0)}x                 (>= 50x)  ${ratio >= 50 ? 'met' : 'MISSED'}`);
    out(`  concurrent loops held      ${held}${held === MAX_LOOPS ? ' (the maximum tried)' : ''}                  (>= 150)  ${held >= 150 ? 'met' : 'MISSED'}`);
    out(
      `  supervisor CPU per loop    ${fixed(knee.supervisorPercentPerLoop, 3)} % of one core at ${knee.loops} loops, ${fixed(marginalPercent, 3)} % for each loop added   (<= 0.2 %)  ${knee.supervisorPercentPerLoop <= 0.2 ? 'met' : 'MISSED'}`,
    );
    out(
      `  memory per loop            ffmpeg ${fixed(knee.ffmpegMiBPerLoop)} MiB + supervisors ${fixed(knee.supervisorMiBPerLoop, 2)} MiB at ${knee.loops} loops`,
    );
    out(`  recovery after an outage   ${fixed(worstRecovery)} s worst to media   (<= 3 s)  ${worstRecovery <= 3 ? 'met' : 'MISSED'}`);
    recordResults(
      'stream',
      {
        copyCpuPerStream: figure(Number(fixed(copy.corePercent, 2)), '% core', { op: '<=', value: 2 }),
        supervisorCpuOneLoop: figure(Number(fixed(copy.supervisorCorePercent, 2)), '% core'),
        reencodeOverCopy: figure(Number(fixed(ratio, 0)), 'x', { op: '>=', value: 50 }),
        loopsHeld: figure(held, 'loops', { op: '>=', value: 150 }),
        supervisorCpuPerLoopAtKnee: figure(Number(fixed(knee.supervisorPercentPerLoop, 3)), '% core', { op: '<=', value: 0.2 }),
        supervisorCpuPerAddedLoop: figure(Number(fixed(marginalPercent, 3)), '% core'),
        supervisorWakeupsPerLoopAtKnee: figure(Number(fixed(knee.wakeupsPerSecondPerLoop, 1)), '/s'),
        ffmpegMemoryPerLoop: figure(Number(fixed(knee.ffmpegMiBPerLoop)), 'MiB'),
        supervisorMemoryPerLoopAtKnee: figure(Number(fixed(knee.supervisorMiBPerLoop, 2)), 'MiB'),
        recoveryWorst: figure(Number(fixed(worstRecovery)), 's', { op: '<=', value: 3 }),
        ...playlistFigures,
      },
      {
        maxLoops: MAX_LOOPS,
        ...playlistExtra,
        ramp: ramp.map(({ profile, ...step }) => ({ ...step, ...(profile ? { profileTop: profile.byFunction.slice(0, 8) } : {}) })),
      },
    );
  } finally {
    await nginx.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`bench:stream failed: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
