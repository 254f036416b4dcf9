// npm run bench:start [-- --quick]
//
// From "Start" to the first media a player receives, and where the time goes (goal: median <= 1 s on the local
// stack). A player is connected to the destination first (nginx-rtmp holds it until a publisher comes), then:
//   1. a stream-task child process is started by hand (standalone: its spec in the environment, the video a local
//      file): the task's own start, without Loopcast around it;
//   2. a creator's `POST /api/streams/{id}/start` on a local stack: the API, the lifecycle up to the task process
//      (the local Step Functions stand-in, PrepareTask, RunTask), the task's lease at the task API, its inputs (the
//      download from s3rver, the probes), the destination's handshake probe and ffmpeg's spawn, then ffmpeg's RTMP
//      publish until the player's first packet. The task's steps come from its `on air` log line
//      (stream-task/src/startup.ts), the rest from the bench's own clock (one machine, one clock). Measured apart:
//      a video's first start, whose task probes it, and later starts of the same video, whose tasks find the probe
//      kept with the item (lambdas/contract/stream-task.ts, mediaProbeSchema).
// The machine is shared: the load average is printed with the figures.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { startNginxRtmp } from '../local/nginx-rtmp';
import { freePort } from '../local/ports';
import type { LocalStack } from '../local/stack';
import { localStreamTaskCommand } from '../stream-task/src/local-child';
import type { StartupStep } from '../stream-task/src/startup';
import { api, signedInUser } from '../test/helpers/accounts';
import { uploadWithTus, waitForItem, waitForStreamStatus } from '../test/helpers/media';
import { startEphemeralStack } from './ephemeral-stack';
import { makeStreamReadySource, startWatched } from './first-media';
import { figure, quick, recordResults } from './results';

const ATTEMPTS = quick ? 3 : 7;
/** Videos uploaded for first starts (a transcode each). */
const FIRST_STARTS = quick ? 2 : 3;
const out = (line = '') => process.stdout.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

type Startup = { processStartedAt: string } & Partial<Record<StartupStep, number>>;

/** The `startup` of the first `on air` line among JSON log lines, if there is one yet. */
function onAirStartup(logText: string): Startup | undefined {
  for (const line of logText.split('\n')) {
    if (!line.includes('"on air"')) continue;
    try {
      return (JSON.parse(line) as { startup: Startup }).startup;
    } catch {
      // A line cut off mid-write: read again later.
    }
  }
  return undefined;
}

async function waitForStartup(read: () => string, timeoutMs = 15_000): Promise<Startup> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const startup = onAirStartup(read());
    if (startup) return startup;
    if (Date.now() > deadline) throw new Error('the task logged no "on air" line');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---- 1. the task alone ---------------------------------------------------------------------------------------

async function taskAlone(source: string, dir: string): Promise<number[]> {
  const nginx = await startNginxRtmp({ dir: join(dir, 'nginx'), rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log') });
  const totals: number[] = [];
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const key = `alone-${attempt}`;
      const command = await localStreamTaskCommand(
        { streamId: key, video: source, destinations: [{ id: 'local', url: `${nginx.rtmpUrl}/${key}` }] },
        { ...process.env, LOOPCAST_WORK_DIR: join(dir, 'work'), POWERTOOLS_LOG_LEVEL: 'INFO' },
      );
      let stderr = '';
      let child: ChildProcessByStdio<null, null, Readable> | undefined;
      try {
        const { startedAt, mediaAt } = await startWatched(() => {
          child = spawn(command.command, command.args, { cwd: command.cwd, env: command.env, stdio: ['ignore', 'ignore', 'pipe'] });
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        }, `${nginx.rtmpUrl}/${key}`).catch((error: Error) => {
          throw new Error(`${error.message}; task stderr: ${stderr.slice(-1000)}`);
        });
        const startup = await waitForStartup(() => stderr);
        totals.push(mediaAt - startedAt);
        out(`  ${seconds(mediaAt - startedAt)}: inputs ready ${startup.inputsReady} ms, ffmpeg spawned ${startup.ffmpegSpawned} ms after the process started`);
      } finally {
        if (child && child.exitCode === null) {
          const exited = new Promise((resolve) => child!.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
      }
    }
  } finally {
    await nginx.stop();
  }
  return totals;
}

// ---- 2. the creator's Start ------------------------------------------------------------------------------------

/** One attempt's time, split into the steps in the order they happen (milliseconds). */
interface ApiStart {
  total: number;
  /** When the API answered the POST (it launches the lifecycle before answering). */
  apiAnswer: number;
  phases: { lifecycle: number; taskStart: number; download: number; probes: number; handshake: number; rtmp: number };
}

const PHASES: Record<keyof ApiStart['phases'], string> = {
  lifecycle: 'request to task process (API, lifecycle, PrepareTask, RunTask, process spawn)',
  taskStart: 'task process to lease (Node start, the lease request while the task loads)',
  download: 'lease to inputs on the disk (the download from S3)',
  probes: 'inputs on the disk to inputs ready (ffprobe, a remux if the sound needs one)',
  handshake: 'inputs to ffmpeg spawned (destination handshake probe)',
  rtmp: "ffmpeg spawned to the player's first packet (input open, RTMP publish, first keyframe)",
};

/** One Start of a new stream of `videoId`, to its own destination, until the stream is stopped again. */
async function creatorStart(stack: LocalStack, token: string, videoId: string, key: string): Promise<ApiStart> {
  const channel = await api(stack, 'POST', '/channels/rtmp', { token, body: { name: key, url: stack.urls.rtmp!, key: `${key}-0123456789` } });
  const stream = await api(stack, 'POST', '/streams', { token, body: { title: key, videoId, channelIds: [channel.body.id] } });
  const streamId = stream.body.id as string;
  let answeredAt = 0;
  const { startedAt, mediaAt } = await startWatched(async () => {
    const answer = await api(stack, 'POST', `/streams/${streamId}/start`, { token });
    if (answer.status !== 200) throw new Error(`start: ${answer.status} ${JSON.stringify(answer.body)}`);
    answeredAt = Date.now();
  }, `${stack.urls.rtmp}/${key}-0123456789`);
  const startup = await waitForStartup(() => readFileSync(join(stack.dataDir, 'logs', `stream-${streamId}.log`), 'utf8'));
  const processStart = Date.parse(startup.processStartedAt);
  const at = (step: StartupStep) => processStart + startup[step]!;
  const result: ApiStart = {
    total: mediaAt - startedAt,
    apiAnswer: answeredAt - startedAt,
    phases: {
      lifecycle: processStart - startedAt,
      taskStart: at('leased') - processStart,
      download: at('inputsFetched') - at('leased'),
      probes: at('inputsReady') - at('inputsFetched'),
      handshake: at('ffmpegSpawned') - at('inputsReady'),
      rtmp: mediaAt - at('ffmpegSpawned'),
    },
  };
  out(
    `    ${seconds(result.total)} (API answered at ${result.apiAnswer} ms): ${Object.entries(result.phases)
      .map(([name, ms]) => `${name} ${Math.round(ms)}`)
      .join(', ')} ms`,
  );
  await api(stack, 'POST', `/streams/${streamId}/stop`, { token });
  await waitForStreamStatus(stack, token, streamId, 'stopped');
  return result;
}

/** First starts of FIRST_STARTS new videos and ATTEMPTS later starts of the first of them, interleaved (F L L F L L
 * F L L L) so that neither group gets the machine's quieter minutes. */
async function creatorsStart(stack: LocalStack, source: string): Promise<{ first: ApiStart[]; later: ApiStart[] }> {
  const user = await signedInUser(stack, 'bench');
  const videoIds: string[] = [];
  for (let video = 0; video < FIRST_STARTS; video += 1) {
    const videoId = await uploadWithTus(stack, user.token, readFileSync(source));
    await waitForItem(stack, user.token, videoId);
    videoIds.push(videoId);
  }
  out(
    `  ${FIRST_STARTS} videos' first starts (their tasks probe them, "first") and ${ATTEMPTS} later starts of the first video ("later": the probe is kept with the item):`,
  );
  const first: ApiStart[] = [];
  const later: ApiStart[] = [];
  const laterPerFirst = Math.floor(ATTEMPTS / FIRST_STARTS);
  for (const [index, videoId] of videoIds.entries()) {
    out('  first:');
    first.push(await creatorStart(stack, user.token, videoId, `api-first-${index}`));
    const laterNow = index === FIRST_STARTS - 1 ? ATTEMPTS - later.length : laterPerFirst;
    for (let attempt = 0; attempt < laterNow; attempt += 1) {
      out('  later:');
      later.push(await creatorStart(stack, user.token, videoIds[0]!, `api-start-${later.length}`));
    }
  }
  return { first, later };
}

// ---- main --------------------------------------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'loopcast-bench-start-'));
out(
  `bench:start, ${ATTEMPTS} attempts each; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (the machine is shared; figures move with it)`,
);
try {
  const source = await makeStreamReadySource(join(dir, 'source-1080p30.mp4'));
  out('source: 10 s 1920x1080 30 fps H.264, 6 Mbit/s, 2 s closed GOP, AAC (the stream-ready format)');

  out('\n1. A stream-task child process started by hand -> first media at a player');
  const alone = await taskAlone(source, dir);

  out("\n2. A creator's POST /api/streams/{id}/start -> first media at a player (local stack)");
  const stack = await startEphemeralStack({ rtmp: true });
  let starts: { first: ApiStart[]; later: ApiStart[] };
  try {
    starts = await creatorsStart(stack, source);
  } finally {
    await stack.stop();
  }

  const phaseMedians = (group: ApiStart[]) =>
    Object.fromEntries(Object.keys(PHASES).map((phase) => [phase, Math.round(median(group.map((s) => s.phases[phase as keyof ApiStart['phases']])))]));
  const [firstPhases, laterPhases] = [phaseMedians(starts.first), phaseMedians(starts.later)];
  out(`\nWhere the time of a Start goes (medians: a video's first start / later starts):`);
  for (const [phase, what] of Object.entries(PHASES) as [keyof ApiStart['phases'], string][]) {
    out(`  ${String(firstPhases[phase]).padStart(5)} / ${String(laterPhases[phase]).padStart(3)} ms  ${what}`);
  }
  out(`  (the API answered after ${Math.round(median(starts.later.map((s) => s.apiAnswer)))} ms)`);
  const [first, later] = [median(starts.first.map((s) => s.total)), median(starts.later.map((s) => s.total))];
  const verdict = (ms: number) => (ms <= 1000 ? 'met' : 'MISSED');
  out('\nFigures (goal):');
  out(`  task alone to first media                    ${seconds(median(alone))} median`);
  out(`  Start to first media, a video's first start  ${seconds(first)} median  (<= 1 s)  ${verdict(first)}`);
  out(`  Start to first media, later starts           ${seconds(later)} median  (<= 1 s)  ${verdict(later)}`);
  const goal = { op: '<=', value: 1 } as const;
  recordResults(
    'start',
    {
      taskAloneToMedia: figure(Number((median(alone) / 1000).toFixed(2)), 's'),
      // A video's first start, as every start was before the probe was kept with the item: comparable with history.
      apiStartToMedia: figure(Number((first / 1000).toFixed(2)), 's', goal),
      apiLaterStartToMedia: figure(Number((later / 1000).toFixed(2)), 's', goal),
      apiAnswer: figure(Math.round(median(starts.later.map((s) => s.apiAnswer))), 'ms'),
      ...Object.fromEntries(Object.entries(firstPhases).map(([phase, ms]) => [phase, figure(ms, 'ms')])),
      ...Object.fromEntries(Object.entries(laterPhases).map(([phase, ms]) => [`${phase}Later`, figure(ms, 'ms')])),
    },
    { attempts: ATTEMPTS, firstStarts: FIRST_STARTS },
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
