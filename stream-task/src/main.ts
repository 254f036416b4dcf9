// The stream-task's entry point (the container's command; a child process in the local stack). Reads the spec
// (spec.ts), streams until SIGTERM, exits 0. Heartbeats go to stdout as JSON lines, logs to stderr.
// Exit codes: 0 stopped on request, 1 the inputs cannot be streamed (a 'failed' heartbeat says why), 2 bad spec.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactSecrets } from './ffmpeg';
import { JsonLinesHeartbeatSink } from './heartbeat';
import { createS3Client, LocalFileFetcher, S3InputFetcher } from './inputs';
import { prepareMedia } from './media';
import { readStreamTaskSpec } from './spec';
import { StreamSupervisor } from './supervisor';

const log = (message: string) => process.stderr.write(`${new Date().toISOString()} ${message}\n`);

async function main(): Promise<number> {
  const spec = readStreamTaskSpec(process.argv.slice(2), process.env);
  const workBase = process.env.LOOPCAST_WORK_DIR ?? tmpdir();
  await mkdir(workBase, { recursive: true });
  const workDir = await mkdtemp(join(workBase, 'loopcast-stream-'));
  const s3 = createS3Client({ region: process.env.AWS_REGION ?? 'us-east-1', endpoint: process.env.LOOPCAST_S3_ENDPOINT });
  const supervisor = new StreamSupervisor({
    streamId: spec.streamId,
    destinations: spec.destinations,
    restartTimes: spec.restartTimes,
    timeZone: spec.timeZone,
    prepare: (signal) => prepareMedia(spec, [new S3InputFetcher(s3), new LocalFileFetcher()], workDir, signal),
    sink: new JsonLinesHeartbeatSink(process.stdout),
    log: (message) => log(`[stream ${spec.streamId}] ${message}`),
  });
  // ECS stops a task with SIGTERM (then SIGKILL after its stopTimeout); Ctrl-C locally.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => supervisor.stop());
  try {
    return await supervisor.run();
  } finally {
    s3.destroy();
    await rm(workDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    log(`stream-task cannot run: ${redactSecrets(error.message)}`);
    process.exit(2);
  },
);
