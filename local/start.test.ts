// `npm start` as a user runs it (bin/local.ts): the banner, a green health check, data kept across restarts,
// a clear message for a busy port, and no orphaned java or nginx after Ctrl-C. The stand-ins' credentials are the data
// folder's (0600 file, the same at every start), on no process's command line.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { localCredentialsIn } from '../lambdas/contract/local-credentials';
import { localCredentialsFile, readDataFolderCredentials, type LocalCredentials } from './credentials';
import { repoRoot } from './paths';
import { freePort } from './ports';
import { alive, descendants } from '../test/helpers/processes';
import type { StackAccess } from '../test/helpers/accounts';
import { api } from '../test/helpers/accounts';
import { createStream, creatorWithDestination } from '../test/helpers/creators';
import { waitForStreamStatus } from '../test/helpers/media';
import { publishingFfmpegs, streamTaskProcesses } from '../test/helpers/stream-tasks';

interface Started {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
  exited: () => boolean;
}

function startLocal(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bin', 'local.ts')], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => {
    text += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    text += d.toString();
  });
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  return { child, output: () => text, exit, exited: () => exited };
}

async function waitForBanner(run: Started, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.output().includes('Press Ctrl-C')) {
    if (run.exited() || Date.now() > deadline) throw new Error(`no banner; the output was:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Processes of the machine (any user's: /proc/<pid>/cmdline is readable by all) whose command line holds either
 * half of `credentials`. */
function commandLinesWith(credentials: LocalCredentials): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')];
      } catch {
        return [];
      }
    })
    .filter((line) => line.includes(credentials.accessKeyId) || line.includes(credentials.secretAccessKey));
}

const mode = (path: string) => statSync(path).mode & 0o777;

async function portsEnv(dataDir: string): Promise<Record<string, string>> {
  return {
    LOOPCAST_PORT: String(await freePort()),
    LOOPCAST_REALTIME_PORT: String(await freePort()),
    LOOPCAST_DYNAMODB_PORT: String(await freePort()),
    LOOPCAST_S3_PORT: String(await freePort()),
    LOOPCAST_RTMP_PORT: String(await freePort()),
    LOOPCAST_HLS_PORT: String(await freePort()),
    LOOPCAST_DATA_DIR: dataDir,
  };
}

test('starts everything, keeps data across restarts and leaves no process behind on Ctrl-C', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'loopcast-start-'));
  const env = await portsEnv(dataDir);
  const dynamo = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${env.LOOPCAST_DYNAMODB_PORT}`,
    // The stack's, from its data folder once it has started (resolved at the first request, then kept).
    credentials: async () => readDataFolderCredentials(dataDir)!,
  });
  const item = { TableName: 'loopcast-local-app', Item: { pk: { S: 'TEST' }, sk: { S: 'PERSISTED' } } };

  const first = startLocal(env);
  await waitForBanner(first);
  for (const row of ['Web app', 'API', 'RTMP test destination', 'Data folder']) expect(first.output()).toContain(row);
  expect(first.output()).toContain(`http://localhost:${env.LOOPCAST_PORT}`);

  const health = await fetch(`http://localhost:${env.LOOPCAST_PORT}/api/health`);
  expect(await health.json()).toMatchObject({ status: 'ok' });
  const page = await fetch(`http://localhost:${env.LOOPCAST_PORT}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<h1');

  const children = descendants(first.child.pid!);
  expect(children.length).toBeGreaterThanOrEqual(2); // java (DynamoDB Local) and nginx
  const credentials = readDataFolderCredentials(dataDir)!;
  expect({ folder: mode(dataDir), file: mode(localCredentialsFile(dataDir)) }).toEqual({ folder: 0o700, file: 0o600 });
  // Its own, not the test run's that its environment inherited.
  expect(credentials.accessKeyId).not.toBe(localCredentialsIn(process.env)!.accessKeyId);
  expect(commandLinesWith(credentials)).toEqual([]);
  await dynamo.send(new PutItemCommand(item));

  first.child.kill('SIGINT');
  expect(await first.exit).toBe(0);
  expect(children.filter(alive)).toEqual([]);

  const second = startLocal(env);
  await waitForBanner(second);
  // The same credentials at the next start of the same folder: the first start's client still gets in.
  expect(readDataFolderCredentials(dataDir)).toEqual(credentials);
  const kept = await dynamo.send(new GetItemCommand({ TableName: item.TableName, Key: item.Item }));
  expect(kept.Item).toEqual(item.Item);
  const secondChildren = descendants(second.child.pid!);
  second.child.kill('SIGINT');
  expect(await second.exit).toBe(0);
  expect(secondChildren.filter(alive)).toEqual([]);
  dynamo.destroy();
}, 120_000);

test('killed with -9 while a stream runs, the stack takes its children along (no task keeps publishing); the next start takes the loop back with one task', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'loopcast-start-'));
  const env = await portsEnv(dataDir);
  const access: StackAccess = {
    urls: {
      web: `http://localhost:${env.LOOPCAST_PORT}`,
      api: `http://localhost:${env.LOOPCAST_PORT}/api`,
      apiDirect: '',
      realtime: '',
      dynamodb: '',
      s3: '',
      rtmp: `rtmp://127.0.0.1:${env.LOOPCAST_RTMP_PORT}/live`,
    },
    outbox: join(dataDir, 'outbox'),
  };
  const first = startLocal(env);
  await waitForBanner(first);
  const kim = await creatorWithDestination(access, 'kim', 2);
  const streamId = (await createStream(access, kim)).body.id as string;
  expect((await api(access, 'POST', `/streams/${streamId}/start`, { token: kim.token })).status).toBe(200);
  await waitForStreamStatus(access, kim.token, streamId, 'started', 90_000);
  const [task] = streamTaskProcesses(streamId);
  expect(publishingFfmpegs(streamId)).toHaveLength(1);
  // With a stream task and its ffmpeg running too: no process shows the stack's credentials.
  expect(commandLinesWith(readDataFolderCredentials(dataDir)!)).toEqual([]);
  const everything = descendants(first.child.pid!);

  first.child.kill('SIGKILL');
  await first.exit;
  const deadline = Date.now() + 20_000;
  while (everything.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(everything.filter(alive)).toEqual([]);
  expect(streamTaskProcesses(streamId)).toEqual([]);

  const second = startLocal(env);
  await waitForBanner(second);
  await waitForStreamStatus(access, kim.token, streamId, 'started', 90_000);
  const resumed = streamTaskProcesses(streamId);
  expect(resumed).toHaveLength(1);
  expect(resumed[0]!.pid).not.toBe(task!.pid);
  expect(publishingFfmpegs(streamId)).toHaveLength(1);
  const secondChildren = descendants(second.child.pid!);
  second.child.kill('SIGINT');
  expect(await second.exit).toBe(0);
  expect(secondChildren.filter(alive)).toEqual([]);
  expect(streamTaskProcesses(streamId)).toEqual([]);
}, 240_000);

test('a port in use gives a clear message, no stack trace, and starts nothing', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'loopcast-start-'));
  const env = await portsEnv(dataDir);
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(Number(env.LOOPCAST_DYNAMODB_PORT), '127.0.0.1', resolve));
  try {
    const run = startLocal(env);
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain(`Port ${env.LOOPCAST_DYNAMODB_PORT} (DynamoDB Local) is already in use`);
    expect(run.output()).toContain('LOOPCAST_DYNAMODB_PORT=');
    expect(run.output()).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  } finally {
    blocker.close();
  }
}, 60_000);

test('an unknown LOOPCAST_DATA_PLANE is refused with the planes there are, before anything starts', async () => {
  const env = await portsEnv(mkdtempSync(join(tmpdir(), 'loopcast-start-')));
  const run = startLocal({ ...env, LOOPCAST_DATA_PLANE: 'anywhere' });
  expect(await run.exit).toBe(1);
  expect(run.output()).toContain('LOOPCAST_DATA_PLANE=anywhere is not a data plane (fargate, external).');
}, 60_000);
