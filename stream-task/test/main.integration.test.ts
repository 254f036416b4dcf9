// The stream-task as the local stack runs it: a child process (localStreamTaskCommand) with its spec in the
// environment, the video fetched from S3 (s3rver), heartbeats as JSON lines on stdout, logs as JSON lines on
// stderr, stopped by signals.
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseHeartbeatLine } from '../src/heartbeat';
import type { Heartbeat } from '../../lambdas/contract/stream-task';
import { createS3Client } from '../src/inputs';
import { localStreamTaskCommand } from '../src/local-child';
import type { StreamTaskSpecInput } from '../../lambdas/contract/stream-task';
import { childPids, dtsProfile, makeTestVideo, processAlive, readPackets, removeDir, RtmpDestination, tempDir, until } from './integration';

const s3 = await createS3Client({ region: 'us-east-1', endpoint: process.env.LOOPCAST_TEST_S3! });
const bucket = `stream-task-main-${randomBytes(4).toString('hex')}`;
let dir: string;
let destination: RtmpDestination;
const tasks = new Set<StreamTask>();

/** One stream-task child process and what it printed. */
class StreamTask {
  readonly heartbeats: Heartbeat[] = [];
  stderr = '';
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /** Starts the task (its bundle built first if a source changed). */
  static async start(spec: StreamTaskSpecInput | string): Promise<StreamTask> {
    const command = await localStreamTaskCommand(typeof spec === 'string' ? ({} as StreamTaskSpecInput) : spec, {
      ...process.env,
      LOOPCAST_S3_ENDPOINT: process.env.LOOPCAST_TEST_S3,
      LOOPCAST_WORK_DIR: join(dir, 'work'),
      POWERTOOLS_LOG_LEVEL: 'INFO', // the test setup silences loggers; these tests read the child's logs
    });
    if (typeof spec === 'string') command.env.LOOPCAST_STREAM_SPEC = spec;
    return new StreamTask(spawn(command.command, command.args, { cwd: command.cwd, env: command.env, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  private constructor(readonly child: ChildProcess) {
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const heartbeat = parseHeartbeatLine(line);
      if (heartbeat) this.heartbeats.push(heartbeat);
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exit = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    tasks.add(this);
  }

  async waitFor(predicate: (h: Heartbeat) => boolean, timeoutMs: number, what: string): Promise<Heartbeat> {
    await until(() => this.heartbeats.some(predicate), timeoutMs, `${what}; stderr:\n${this.stderr.slice(-2000)}`);
    return this.heartbeats.findLast(predicate)!;
  }

  /** stderr, one JSON object per line (a line that is not JSON fails the test). */
  logs(): Record<string, unknown>[] {
    return this.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  ffmpegPids(): number[] {
    return childPids(this.child.pid!, 'ffmpeg');
  }
}

beforeAll(async () => {
  dir = tempDir('main-it');
  const [rtmp, video] = await Promise.all([RtmpDestination.start(join(dir, 'nginx')), makeTestVideo(join(dir, 'video.mp4'), { seconds: 6 })]);
  destination = rtmp;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'media/u1/v1/stream.mp4', Body: readFileSync(video) }));
}, 60_000);

afterEach(async () => {
  for (const task of tasks) {
    if (task.child.exitCode === null && task.child.signalCode === null) task.child.kill('SIGKILL');
    await task.exit;
  }
  tasks.clear();
});

afterAll(async () => {
  s3.destroy();
  await destination?.stop();
  removeDir(dir);
});

/** Stream keys are `<name>-SECRET`: they must never show up in logs. */
const keyOf = (name: string) => `${name}-SECRET`;

/** A daily restart half a day away, in the spec's zone: one at a fixed hour would restart ffmpeg under a run that
 * happens to reach it, and cut the packets a test reads. */
const restartFarFromNow = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Kyiv' }).format(
  new Date(Date.now() + 12 * 3600_000),
);

const spec = (name: string, video = `s3://${bucket}/media/u1/v1/stream.mp4`): StreamTaskSpecInput => ({
  streamId: `st_${name}`,
  video,
  destinations: [{ id: 'local', url: destination.url(keyOf(name)) }],
  restartTimes: [restartFarFromNow],
  timeZone: 'Europe/Kyiv',
});

test('fetches the video from S3, streams it, reports on stdout, and exits 0 within seconds of SIGTERM', async () => {
  const task = await StreamTask.start(spec('main-sigterm'));
  const started = await task.waitFor((h) => h.actual === 'started', 30_000, 'actual started');
  expect(started).toMatchObject({ streamId: 'st_main-sigterm', desired: 'running', restarts: 0, destinations: [{ id: 'local', state: 'ok' }] });
  expect(Date.parse(started.nextRestartAt!)).toBeGreaterThan(Date.now());
  const packets = await readPackets(destination.url(keyOf('main-sigterm')), 3);
  expect(dtsProfile(packets, 'video').count).toBeGreaterThan(30);
  const [ffmpeg] = task.ffmpegPids();
  expect(ffmpeg).toBeDefined();

  const stopAt = Date.now();
  task.child.kill('SIGTERM');
  expect(await task.exit).toEqual({ code: 0, signal: null });
  expect(Date.now() - stopAt).toBeLessThan(5_000);
  expect(task.heartbeats.at(-1)).toMatchObject({ desired: 'stopped', actual: 'stopped' });
  expect(processAlive(ffmpeg!)).toBe(false);
  expect(readdirSync(join(dir, 'work'))).toEqual([]); // the downloaded video is removed
  expect(task.logs()).toContainEqual(
    expect.objectContaining({
      level: 'INFO',
      service: 'stream-task',
      streamId: 'st_main-sigterm',
      message: expect.stringMatching(/^started \(desired running/),
    }),
  );
  expect(task.stderr).not.toContain('SECRET');
}, 60_000);

test('kill -9 of the stream-task takes its ffmpeg with it: nothing keeps publishing to the key', async () => {
  const task = await StreamTask.start(spec('main-kill9'));
  await task.waitFor((h) => h.actual === 'started', 30_000, 'actual started');
  const [ffmpeg] = task.ffmpegPids();
  task.child.kill('SIGKILL');
  await task.exit;
  await until(() => !processAlive(ffmpeg!), 5_000, 'the orphaned ffmpeg to die');
}, 60_000);

test('an input that is not in S3: a failed heartbeat with the reason, exit code 1', async () => {
  const task = await StreamTask.start(spec('main-missing', `s3://${bucket}/media/u1/gone/stream.mp4`));
  expect(await task.exit).toEqual({ code: 1, signal: null });
  expect(task.heartbeats.at(-1)).toMatchObject({
    actual: 'failed',
    lastError: `inputs not ready: cannot fetch s3://${bucket}/media/u1/gone/stream.mp4: no such object`,
  });
}, 30_000);

test('an invalid spec: exit code 2 and the reason on stderr, without the stream key', async () => {
  const task = await StreamTask.start(JSON.stringify({ ...spec('main-bad'), restartTimes: ['07:00', '7:00'] }));
  expect(await task.exit).toEqual({ code: 2, signal: null });
  const [line] = task.logs().filter((l) => l.level === 'ERROR');
  expect(line).toMatchObject({
    service: 'stream-task',
    message: expect.stringContaining(
      'stream-task cannot run: the stream spec is not valid: restartTimes: You have two restart times scheduled for the same time',
    ),
  });
  expect(task.stderr).not.toContain('SECRET');
  expect(task.heartbeats).toEqual([]);
}, 30_000);
