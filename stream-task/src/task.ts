// The stream task itself, loaded by its entry (main.ts) while the run's lease is on its way. Streams until SIGTERM,
// exits 0. Two ways to be told what to stream:
// - managed (how Loopcast runs it): the lifecycle gives the run's ids, a run token and the task API's URL
//   (TASK_ENVIRONMENT); the task takes the run's lease there, gets its spec, and reports heartbeats that renew the
//   lease (task-api.ts). It stops when the lease is refused or cannot be renewed;
// - standalone: the spec as JSON (spec.ts); heartbeats go to stdout as JSON lines.
// Logs go to stderr in both modes, one JSON object per line (log.ts), stream keys redacted.
// Exit codes: 0 stopped on request, 1 the inputs cannot be streamed (a 'failed' heartbeat says why), 2 bad spec or
// the task cannot start, 3 (LEASE_LOST_EXIT_CODE) this task does not or no longer carry its run.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEASE_LOST_EXIT_CODE } from '../../lambdas/contract/stream-lifecycle';
import { redactSecrets } from './ffmpeg';
import { JsonLinesHeartbeatSink, type HeartbeatSink } from './heartbeat';
import { HttpInputFetcher, LocalFileFetcher, S3InputFetcher } from './inputs';
import { streamTaskLog } from './log';
import { playingPosition, prepareMedia } from './media';
import { PlaylistEdits } from './playlist-edits';
import { PreviewTaker } from './preview';
import { systemClock } from './runtime';
import { readStreamTaskSpec, validStreamTaskSpec } from './spec';
import { StartupTimeline } from './startup';
import { StreamSupervisor } from './supervisor';
import { LeaseKeeper, LeaseLost, managedRunFromEnv, type LeasedRun } from './task-api';

const { log, tag, logger } = streamTaskLog();

/** `leasing`: the run's lease, asked for by the entry (undefined standalone). */
async function main(leasing: Promise<LeasedRun | undefined>): Promise<number> {
  const startup = new StartupTimeline(performance.timeOrigin);
  const run = managedRunFromEnv(process.env);
  if (run) tag({ streamId: run.streamId, userId: run.userId, runId: run.runId });
  const managed = await leasing;
  if (managed) startup.mark('leased');
  const spec = managed ? validStreamTaskSpec(managed.grant.spec) : readStreamTaskSpec(process.argv.slice(2), process.env);
  if (!managed) tag({ streamId: spec.streamId });
  const workBase = process.env.LOOPCAST_WORK_DIR ?? tmpdir();
  await mkdir(workBase, { recursive: true });
  const workDir = await mkdtemp(join(workBase, 'loopcast-stream-'));
  const s3 = new S3InputFetcher({ region: process.env.AWS_REGION ?? 'us-east-1', endpoint: process.env.LOOPCAST_S3_ENDPOINT });
  const fetchers = [new HttpInputFetcher(), s3, new LocalFileFetcher()];
  const playlistEdits = new PlaylistEdits(fetchers, workDir, log);
  const previews =
    managed &&
    new PreviewTaker(
      (jpeg) => managed.api.preview(jpeg),
      (error) => log(`preview not stored: ${redactSecrets(error.message)}`, 'warn'),
    );
  let supervisor: StreamSupervisor | undefined;
  const lease =
    managed &&
    new LeaseKeeper(managed.grant.lease, (reason) => {
      log(`stopping: ${reason}`, 'warn');
      supervisor?.stop();
    });
  const sink: HeartbeatSink = managed
    ? {
        async send(heartbeat) {
          try {
            const answer = await managed.api.heartbeat(heartbeat);
            lease!.renewed();
            previews!.wanted(answer.previews);
            if (answer.playlist) void playlistEdits.receive(answer.playlist);
          } catch (error) {
            if (error instanceof LeaseLost) lease!.refused(error.message);
            throw error;
          }
        },
      }
    : new JsonLinesHeartbeatSink(process.stdout);
  supervisor = new StreamSupervisor({
    streamId: spec.streamId,
    destinations: spec.destinations,
    restartTimes: spec.restartTimes,
    timeZone: spec.timeZone,
    prepare: async (signal) => {
      const media = await prepareMedia(spec, fetchers, workDir, signal, {
        onFetched: () => startup.mark('inputsFetched'),
        ...(managed && {
          onProbed: (input, probe) =>
            void managed.api.probe(input, probe).catch((error: Error) => log(`probe not kept: ${redactSecrets(error.message)}`, 'warn')),
        }),
      });
      startup.mark('inputsReady');
      playlistEdits.ready(media.playlist);
      previews?.ready(playingPosition(media, Date.now()));
      return media;
    },
    sink,
    ...(managed ? { heartbeatIntervalMs: managed.grant.lease.renewSeconds * 1000 } : {}),
    log,
    startup,
  });
  // ECS stops a task with SIGTERM (then SIGKILL after its stopTimeout); Ctrl-C locally. A task told to stop exits 0
  // even though its last heartbeats then find the lease gone.
  let signalled = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      signalled = true;
      supervisor?.stop();
    });
  }
  lease?.start(systemClock.every);
  try {
    const code = await supervisor.run();
    return lease?.lost && !signalled ? LEASE_LOST_EXIT_CODE : code;
  } finally {
    lease?.close();
    previews?.close();
    await s3.destroy();
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Runs the task to its end and exits with its code. */
export function runTask(leasing: Promise<LeasedRun | undefined>): Promise<never> {
  return main(leasing).then(
    (code) => process.exit(code),
    (error: Error) => {
      if (error instanceof LeaseLost) {
        logger.info(`not started: ${error.message}`);
        process.exit(LEASE_LOST_EXIT_CODE);
      }
      logger.error(`stream-task cannot run: ${redactSecrets(error.message)}`, { error });
      process.exit(2);
    },
  );
}
