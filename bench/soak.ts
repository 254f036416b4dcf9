// npm run bench:soak
//   BENCH_SOAK_SEAMS (default 1000), BENCH_SOAK_CLIP_SECONDS (2), BENCH_SOAK_CHECK_SECONDS (60),
//   BENCH_SOAK_CHUNK_SIZE (the RTMP chunk size the destination declares: nginx-rtmp's 4096 by default; 128 has the
//   stream published through the task's chunk-size relay, docs/stream-task.md)
//
// One stream of a short clip through the whole local stack (API, lifecycle, task API, a real stream-task and its
// ffmpeg) for BENCH_SOAK_SEAMS loop seams (about 35 minutes with a 2 s clip), read continuously by a player at a
// real nginx-rtmp, as test/api/long-run.test.ts does for 100 seams. Every check reads the API, the processes and the
// destination's publishers. Figures, with their goals (docs/stream-task.md):
//   decode-timestamp regressions at the player (goal 0), media gaps over 100 ms (goal 0), the longest time with no
//   packet arriving, restarts (goal 0), stream tasks and publishers at once (goal: 1 each at every check),
//   supervisor (Node) and ffmpeg resident memory at the first check and the last (goal: flat within 10 %), with the
//   supervisor's anonymous memory apart (what a leak grows; RSS also counts Node's binary as it is paged in), CPU
//   per minute of each.
// The machine is shared: the load average is printed with the figures.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { api } from '../test/helpers/accounts';
import { createStream, creatorWithDestination } from '../test/helpers/creators';
import { waitForStreamStatus } from '../test/helpers/media';
import { noMediaWithin } from '../test/helpers/player';
import { soak, type SoakCheck } from '../test/helpers/soak';
import { streamTaskProcesses } from '../test/helpers/stream-tasks';
import { startEphemeralStack } from './ephemeral-stack';
import { figure, recordResults } from './results';

const seams = Number(process.env.BENCH_SOAK_SEAMS ?? 1000);
const clipSeconds = Number(process.env.BENCH_SOAK_CLIP_SECONDS ?? 2);
const checkSeconds = Number(process.env.BENCH_SOAK_CHECK_SECONDS ?? 60);
const chunkSize = Number(process.env.BENCH_SOAK_CHUNK_SIZE ?? 4096);

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const change = (from: number, to: number) => `${(((to - from) / from) * 100).toFixed(1)} %`;

/** CPU % of one core between consecutive checks, for the process `pick` reads. */
function cpuPerMinute(checks: SoakCheck[], pick: (check: SoakCheck) => { cpuSeconds: number } | undefined): { mean: number; max: number } {
  const rates: number[] = [];
  for (let i = 1; i < checks.length; i++) {
    const [before, after] = [pick(checks[i - 1]!), pick(checks[i]!)];
    if (before && after) rates.push(((after.cpuSeconds - before.cpuSeconds) / (checks[i]!.at - checks[i - 1]!.at)) * 100);
  }
  return { mean: rates.reduce((sum, rate) => sum + rate, 0) / Math.max(1, rates.length), max: Math.max(0, ...rates) };
}

async function main(): Promise<void> {
  const stack = await startEphemeralStack({ rtmp: true, rtmpChunkSize: chunkSize });
  try {
    const creator = await creatorWithDestination(stack, 'soak', clipSeconds);
    const streamId = (await createStream(stack, creator)).body.id as string;
    await api(stack, 'POST', `/streams/${streamId}/start`, { token: creator.token });
    await waitForStreamStatus(stack, creator.token, streamId, 'started', 90_000);
    // Whether the task publishes through its chunk-size relay, as its log says; a soak of the relay that is not one fails.
    const logsDir = join(stack.dataDir, 'logs');
    const taskLogs = readdirSync(logsDir)
      .filter((file) => file.startsWith('stream-'))
      .map((file) => readFileSync(join(logsDir, file), 'utf8'))
      .join('\n');
    const relayed = taskLogs.includes('published through a relay');
    if (relayed !== chunkSize < 4096) throw new Error(`the destination declares ${chunkSize} and the task ${relayed ? 'relays' : 'does not relay'} it`);
    const seconds = seams * clipSeconds;
    console.log(
      `soak: ${seams} seams of a ${clipSeconds} s clip, ${(seconds / 60).toFixed(1)} minutes, a check every ${checkSeconds} s, the destination declaring ${chunkSize}-byte chunks (load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
    );
    const figures = await soak({
      stack,
      token: creator.token,
      streamId,
      key: creator.key,
      seconds,
      checkEveryMs: checkSeconds * 1000,
      onCheck: (check) =>
        console.log(
          `  ${String(check.at).padStart(5)} s  ${check.status}  loops ${check.loops}  restarts ${check.restarts}  tasks ${check.taskPids.length}  ffmpeg ${check.ffmpegPids.length}  publishers ${check.publishers}  supervisor ${mib(check.supervisor?.rss ?? 0)} MiB (anonymous ${mib(check.supervisor?.anonymous ?? 0)})  ffmpeg ${mib(check.ffmpeg?.rss ?? 0)} MiB`,
        ),
    });
    const [first, last] = [figures.checks[0]!, figures.checks.at(-1)!];
    const stoppedAt = Date.now();
    await api(stack, 'POST', `/streams/${streamId}/stop`, { token: creator.token });
    const stopSeconds = (Date.now() - stoppedAt) / 1000;
    const quietAfterStop = await noMediaWithin(`${stack.urls.rtmp}/${creator.key}`, 5);
    const { video, audio, longestSilenceSeconds } = figures.player;
    const result = {
      seams: last.loops - first.loops,
      minutes: Number((last.at / 60).toFixed(1)),
      dtsRegressions: video.dtsRegressions + audio.dtsRegressions,
      gapsOver100ms: video.gaps + audio.gaps,
      longestSilenceSeconds,
      maxStepSeconds: { video: video.maxStepSeconds, audio: audio.maxStepSeconds },
      restarts: last.restarts,
      checksNotStarted: figures.checks.filter((check) => check.status !== 'started').length,
      mostTasksAtOnce: Math.max(...figures.checks.map((check) => check.taskPids.length)),
      mostPublishersAtOnce: Math.max(...figures.checks.map((check) => check.publishers)),
      supervisorRssMiB: {
        first: Number(mib(first.supervisor!.rss)),
        last: Number(mib(last.supervisor!.rss)),
        change: change(first.supervisor!.rss, last.supervisor!.rss),
      },
      supervisorAnonymousMiB: {
        first: Number(mib(first.supervisor!.anonymous)),
        last: Number(mib(last.supervisor!.anonymous)),
        change: change(first.supervisor!.anonymous, last.supervisor!.anonymous),
      },
      ffmpegRssMiB: { first: Number(mib(first.ffmpeg!.rss)), last: Number(mib(last.ffmpeg!.rss)), change: change(first.ffmpeg!.rss, last.ffmpeg!.rss) },
      supervisorCpuPercent: cpuPerMinute(figures.checks, (check) => check.supervisor),
      ffmpegCpuPercent: cpuPerMinute(figures.checks, (check) => check.ffmpeg),
      noMediaFiveSecondsAfterStop: quietAfterStop,
      tasksLeftAfterStop: streamTaskProcesses(streamId).length,
      stopSeconds,
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
    };
    console.log(JSON.stringify(result, null, 2));
    const percentChange = (from: number, to: number) => Number((((to - from) / from) * 100).toFixed(1));
    recordResults(
      'soak',
      {
        seams: figure(result.seams, 'seams'),
        dtsRegressions: figure(result.dtsRegressions, 'count', { op: '<=', value: 0 }),
        gapsOver100ms: figure(result.gapsOver100ms, 'count', { op: '<=', value: 0 }),
        restarts: figure(result.restarts, 'count', { op: '<=', value: 0 }),
        mostTasksAtOnce: figure(result.mostTasksAtOnce, 'tasks', { op: '<=', value: 1 }),
        mostPublishersAtOnce: figure(result.mostPublishersAtOnce, 'publishers', { op: '<=', value: 1 }),
        supervisorRssChange: figure(percentChange(first.supervisor!.rss, last.supervisor!.rss), '%', { op: '<=', value: 10 }),
        supervisorAnonymousChange: figure(percentChange(first.supervisor!.anonymous, last.supervisor!.anonymous), '%'),
        ffmpegRssChange: figure(percentChange(first.ffmpeg!.rss, last.ffmpeg!.rss), '%', { op: '<=', value: 10 }),
        supervisorCpu: figure(Number(result.supervisorCpuPercent.mean.toFixed(2)), '% core'),
        ffmpegCpu: figure(Number(result.ffmpegCpuPercent.mean.toFixed(2)), '% core'),
        tasksLeftAfterStop: figure(result.tasksLeftAfterStop, 'tasks', { op: '<=', value: 0 }),
      },
      {
        minutes: result.minutes,
        noMediaFiveSecondsAfterStop: result.noMediaFiveSecondsAfterStop,
        stopSeconds: result.stopSeconds,
        destinationChunkSize: chunkSize,
        relayed,
      },
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
