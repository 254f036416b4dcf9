import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { localCredentialsEnvironment, type LocalCredentials } from '../lambdas/contract/local-credentials';
import { processLocalCredentials } from './credentials';
import { ManagedProcess } from './managed-process';
import { dynamoDbLocalDir, repoRoot } from './paths';
import { waitForPort } from './ports';

export interface DynamoDbLocal {
  endpoint: string;
  /** The java process, for benchmarks that account its CPU. */
  pid: number;
  stop(): Promise<void>;
}

/** DynamoDB Local's own server, bound to 127.0.0.1, refusing non-loopback Host names (its own launcher listens on
 * every interface and has no option for it) and requests not signed with the stack's credentials: see the file. */
export const loopbackLauncher = join(repoRoot, 'local', 'LoopbackDynamoDbLocal.java');

/**
 * AWS's DynamoDB Local (Java), started as our direct child: on disk under `dataDir` for `npm start`, in memory
 * for tests. Real conditions, transactions and TTL semantics (TTL deletion itself is not run by DynamoDB Local,
 * so readers also check expiry). Reachable from this machine only, signed with `credentials` only (by default this
 * process's, local/credentials.ts; loopbackLauncher). They go to the JVM in its environment, never on its command
 * line, which every user of the machine can read.
 */
export async function startDynamoDbLocal(options: { port: number; dataDir?: string; logFile: string; credentials?: LocalCredentials }): Promise<DynamoDbLocal> {
  const jar = join(dynamoDbLocalDir, 'DynamoDBLocal.jar');
  if (!existsSync(jar)) {
    throw new Error(`DynamoDB Local is missing (${jar}). Run "npm run setup" (npm start and npm test do it for you).`);
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  const credentials = options.credentials ?? processLocalCredentials();
  const proc = new ManagedProcess({
    name: 'dynamodb-local',
    command: 'java',
    args: [
      // Fast start on small machines: no C2 compiler warm-up, the single-threaded collector, a modest heap.
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-Xmx512m',
      `-Djava.library.path=${join(dynamoDbLocalDir, 'DynamoDBLocal_lib')}`,
      '-cp',
      `${jar}${delimiter}${join(dynamoDbLocalDir, 'DynamoDBLocal_lib', '*')}`,
      loopbackLauncher,
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(options.port),
      ...storage,
    ],
    cwd: dynamoDbLocalDir,
    env: { ...process.env, ...localCredentialsEnvironment(credentials) },
    logFile: options.logFile,
  });
  try {
    await waitForPort(options.port, 30_000, () => proc.alive);
  } catch (error) {
    await proc.stop();
    throw new Error(`DynamoDB Local did not start: ${(error as Error).message}\n${proc.lastOutput()}`);
  }
  return { endpoint: `http://127.0.0.1:${options.port}`, pid: proc.child.pid!, stop: () => proc.stop() };
}
