// The stream-task's entry point (the container's command; a child process in the local stack). Streams until
// SIGTERM, exits 0. Two ways to be told what to stream:
// - managed (how Loopcast runs it): LOOPCAST_USER_ID, LOOPCAST_STREAM_ID and LOOPCAST_RUN_ID name a run; the spec
//   is read from DynamoDB and heartbeats go to the stream item and the user's browsers (managed.ts);
// - standalone: the spec as JSON (spec.ts); heartbeats go to stdout as JSON lines.
// Logs go to stderr in both modes, one JSON object per line (log.ts), stream keys redacted.
// Exit codes: 0 stopped on request, 1 the inputs cannot be streamed (a 'failed' heartbeat says why), 2 bad spec.
import './tracing-off'; // first: before any module builds the Lambdas' Tracer
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactSecrets } from './ffmpeg';
import { JsonLinesHeartbeatSink } from './heartbeat';
import { createS3Client, LocalFileFetcher, S3InputFetcher } from './inputs';
import { prepareMedia } from './media';
import { grabFrame, loopPosition, PREVIEW_INTERVAL_MS } from './preview';
import { managedRunFromEnv, managedTask } from './managed';
import { parseStreamTaskSpec, readStreamTaskSpec } from './spec';
import { StreamSupervisor } from './supervisor';
import { streamTaskLog } from './log';
import { logger as lambdaLogger } from '../../lambdas/adapters/logger';

const { log, tag, logger } = streamTaskLog();

/** The run's keys on every line, also on the few lines of Lambda code that runs here (YouTube broadcasts,
 * realtime delivery), which log through the Lambdas' logger. */
function tagLogs(keys: Record<string, string>): void {
  tag(keys);
  lambdaLogger.appendPersistentKeys(keys);
}

/** A frame of where the loop is, stored every minute (the first a few seconds in); a failed grab is logged only. */
function startPreviews(videoPath: string, loopDurationUs: number, publish: (jpeg: Buffer) => Promise<void>): () => void {
  const started = Date.now();
  const grab = () =>
    grabFrame(videoPath, loopPosition(Date.now() - started, loopDurationUs))
      .then(publish)
      .catch((error: Error) => log(`preview not stored: ${redactSecrets(error.message)}`, 'warn'));
  const first = setTimeout(grab, 5000);
  const timer = setInterval(grab, PREVIEW_INTERVAL_MS);
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

async function main(): Promise<number> {
  const run = managedRunFromEnv(process.env);
  if (run) tagLogs({ streamId: run.streamId, userId: run.userId, runId: run.runId });
  const managed = run ? await managedTask(run, process.env) : undefined;
  const spec = managed ? parseStreamTaskSpec(JSON.stringify(managed.spec)) : readStreamTaskSpec(process.argv.slice(2), process.env);
  if (!run) tagLogs({ streamId: spec.streamId });
  const workBase = process.env.LOOPCAST_WORK_DIR ?? tmpdir();
  await mkdir(workBase, { recursive: true });
  const workDir = await mkdtemp(join(workBase, 'loopcast-stream-'));
  const s3 = createS3Client({ region: process.env.AWS_REGION ?? 'us-east-1', endpoint: process.env.LOOPCAST_S3_ENDPOINT });
  let stopPreviews = () => {};
  const supervisor = new StreamSupervisor({
    streamId: spec.streamId,
    destinations: spec.destinations,
    restartTimes: spec.restartTimes,
    timeZone: spec.timeZone,
    prepare: async (signal) => {
      const media = await prepareMedia(spec, [new S3InputFetcher(s3), new LocalFileFetcher()], workDir, signal);
      if (managed) stopPreviews = startPreviews(media.files.videoPath, media.loopDurationUs, managed.publishPreview);
      return media;
    },
    sink: managed?.sink ?? new JsonLinesHeartbeatSink(process.stdout),
    log,
  });
  // ECS stops a task with SIGTERM (then SIGKILL after its stopTimeout); Ctrl-C locally.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => supervisor.stop());
  try {
    return await supervisor.run();
  } finally {
    stopPreviews();
    s3.destroy();
    managed?.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    logger.error(`stream-task cannot run: ${redactSecrets(error.message)}`, { error });
    process.exit(2);
  },
);
