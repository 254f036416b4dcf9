// The local stack: the real AWS stand-ins plus the same handlers as in AWS, on one machine.
// Used by `npm start` (bin/local.ts, data on disk) and by the tests (test/helpers/stack.ts, data in memory).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeps, type Deps } from '../lambdas/wiring/deps';
import { OutboxMailer } from '../lambdas/adapters/mail/outbox-mailer';
import { StripeProvider, type StripeSettings } from '../lambdas/adapters/stripe/stripe-provider';
import type { GoogleSettings } from '../lambdas/adapters/google/youtube';
import type { TelegramSettings } from '../lambdas/adapters/telegram/bot-api';
import type { RuntimeConfig } from '../lambdas/adapters/config';
import type { DataPlane } from '../lambdas/contract/data-planes';
import type { ScryptCost } from '../lambdas/core/accounts/passwords';
import { appTable } from '../lambdas/contract/tables';
import { mediaBucket } from '../lambdas/contract/buckets';
import { startDynamoDbLocal } from './dynamodb-local';
import { startHttpOrigin } from './http-server';
import { resumeInterruptedWork } from './resume';
import { startNginxRtmp } from './nginx-rtmp';
import { startRealtimeServer } from './realtime-server';
import { uploadsMount } from './uploads-mount';
import { hlsMount, LocalPreviews } from './hls-mount';
import { createUploadServer } from '../lambdas/uploads/tus-server';
import { uploadHooks } from '../lambdas/wiring/uploads';
import { FfmpegTranscoder } from '../lambdas/adapters/transcoder/ffmpeg-transcoder';
import type { FfmpegTuning } from '../lambdas/adapters/transcoder/ffmpeg-args';
import { localSecretBox } from '../lambdas/adapters/crypto/envelope';
import { createLifecycleHandler } from '../lambdas/workflow/lifecycle';
import { createLifecycleFailedHandler } from '../lambdas/events/lifecycle-failed';
import { createStreamUpkeep } from '../lambdas/events/stream-upkeep';
import { createStreamReconciler } from '../lambdas/events/stream-reconciler';
import { LocalStreamRunner } from './stream-runner';
import { startLocalScheduler, type LocalScheduler } from './scheduler';
import { createStreamScheduleHandler } from '../lambdas/events/stream-schedule';
import { EventBridgeStreamWakeups } from '../lambdas/adapters/scheduler/eventbridge-stream-wakeups';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { localCredentials } from '../lambdas/adapters/aws-clients';
import { logger } from '../lambdas/adapters/logger';
import { assertPortFree } from './ports';
import { createBucket, createTable } from './provision';
import { realtimeManagementFile } from './paths';
import { publicDestinationsOnly } from '../lambdas/adapters/net/destination-policy';
import { startS3Server } from './s3-server';
import { dataFolderCredentials, useLocalCredentials } from './credentials';
import { requiredLocalCredentials, type LocalCredentials } from '../lambdas/contract/local-credentials';
import { functionDeps, functionDepsLater } from './table-access';

export interface LocalPorts {
  http: number;
  realtime: number;
  dynamodb: number;
  s3: number;
  rtmp: number;
  /** The RTMPS test destination (TLS in front of the RTMP one); a free port unless given. */
  rtmps?: number;
  hls: number;
}

const UPKEEP_INTERVAL_MS = 5 * 60_000;
/** What the Streaming stack names in AWS: the streams' schedule group, the schedule function and Scheduler's role. */
const LOCAL_SCHEDULES = {
  group: 'loopcast-local-streams',
  targetArn: 'arn:aws:lambda:us-east-1:000000000000:function:loopcast-local-stream-schedule',
  roleArn: 'arn:aws:iam::000000000000:role/loopcast-local-stream-schedules',
} as const;
const RECONCILE_INTERVAL_MS = 60_000;

/** What a stream task's container gets from its task definition: nothing of the stack's own secrets or endpoints
 * (the task reaches Loopcast only through the task API), just what running it needs; locally, the test CA its
 * RTMPS destination's certificate is signed by (in AWS tasks trust the system's store only). */
function taskContainerEnvironment(workDir: string, destinationCaFile: string | undefined): NodeJS.ProcessEnv {
  const passed = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR'].flatMap((name) => (process.env[name] ? [[name, process.env[name]] as const] : []));
  return { ...Object.fromEntries(passed), LOOPCAST_WORK_DIR: workDir, ...(destinationCaFile ? { LOOPCAST_DESTINATION_CA_FILE: destinationCaFile } : {}) };
}

/** The local stand-in for the KMS key: 32 random bytes kept in the data folder (stream keys stay readable across
 * restarts), readable by this user only. */
function localMasterKeyFile(dataDir: string): string {
  const file = join(dataDir, 'secrets.key');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return file;
}

export interface LocalStackOptions {
  /** Where data, logs and nginx's files go. */
  dataDir: string;
  /** DynamoDB on disk (npm start) or in memory (tests). */
  persistent: boolean;
  ports: LocalPorts;
  /** Prefix of table and bucket names, so several stacks can share one DynamoDB Local and s3rver. */
  namePrefix: string;
  /** Stand-ins already running (the test run's global setup starts them once); started here otherwise. */
  dynamodbEndpoint?: string;
  s3Endpoint?: string;
  /** Start nginx-rtmp as a local RTMP destination. */
  rtmp: boolean;
  /** The RTMP chunk size that destination declares (nginx-rtmp's 4096 by default; 128, what a server that declares
   * none leaves, has the stream tasks publish through their chunk-size relay). */
  rtmpChunkSize?: number;
  /** Built web app to serve at `/`. */
  webDir?: string;
  /** Where the local outbox reports each e-mail's link (npm start prints it; tests read the outbox folder). */
  mailLog?: (line: string) => void;
  /** Stripe keys (and, in tests, a fake Stripe's URL); without them the stack runs on the free trial only. */
  stripe?: StripeSettings;
  /** Google OAuth client (and, in tests, a fake Google's endpoints); without it YouTube is off, RTMP keys work. */
  google?: GoogleSettings;
  /** The operator's Telegram bot (and, in tests, a fake Bot API); without it alerts go by e-mail only. */
  telegram?: TelegramSettings;
  /** Which data plane's lifecycle definition runs (default fargate): the stream tasks are child processes either way. */
  dataPlane?: DataPlane;
  /** RTMP destinations on the public internet only, as in AWS (locally any server may be named by default). */
  publicDestinationsOnly?: boolean;
  /** The cost of new password hashes; PASSWORD_COST unless the test suite asks for less (test/helpers/stack.ts). */
  passwordCost?: ScryptCost;
  /** The local transcoder's x264 speed; its default (veryfast) unless the test suite asks for faster. */
  transcodeTuning?: Partial<FfmpegTuning>;
}

export interface LocalStack {
  /** `api` is through the local origin (CloudFront's part included); `apiDirect` is the API's own endpoint, as
   * execute-api is reachable in AWS without CloudFront (no `x-viewer-address`/`x-origin-verify` added). */
  urls: { web: string; api: string; apiDirect: string; realtime: string; dynamodb: string; s3: string; rtmp?: string; rtmps?: string; hls?: string };
  /** What the local origin sends as `x-origin-verify` (random per start, as CloudFront's secret is per stage): for
   * tests that play CloudFront against `apiDirect`. */
  originVerify: string;
  /** The local e-mail outbox (one JSON file per message). */
  outbox: string;
  /** The local Step Functions + Fargate stand-in (tests reach its stream-task children). */
  streamRunner: LocalStreamRunner;
  /** The local EventBridge Scheduler stand-in (streams' schedule wake-ups). */
  scheduler: LocalScheduler;
  dataDir: string;
  /** What DynamoDB Local, s3rver and the Scheduler stand-in take (standInCredentials). */
  credentials: LocalCredentials;
  config: RuntimeConfig;
  deps: Deps;
  /** What the previous run left going and this one took over (running streams, items left encoding). */
  resumed: { streams: number; transcodes: number };
  stop(): Promise<void>;
}

/** The data folder holds live confirmation and reset links (outbox), password hashes (DynamoDB's files), the key
 * that opens stream keys and the logs: this user's only, also when an older version made it readable to all. */
function privateDataFolder(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

/** The credentials DynamoDB Local, s3rver, the Scheduler stand-in and the realtime management API take (nothing else of the machine has them): the data folder's, made on
 * its first start, when the stack starts the stand-ins itself; those of this process's environment, which their
 * starter put there, for stand-ins started elsewhere (the test run's global setup, a benchmark). Either way this
 * process's handlers, and the children that inherit its environment, sign with them (lambdas/adapters/aws-clients.ts). */
function standInCredentials(options: LocalStackOptions): LocalCredentials {
  if (options.dynamodbEndpoint || options.s3Endpoint) return requiredLocalCredentials(process.env);
  const credentials = dataFolderCredentials(options.dataDir);
  useLocalCredentials(credentials);
  return credentials;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  privateDataFolder(options.dataDir);
  const credentials = standInCredentials(options);
  const stoppers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    stoppers.length = 0;
  };
  const logs = join(options.dataDir, 'logs');

  try {
    let dynamodbEndpoint = options.dynamodbEndpoint;
    if (!dynamodbEndpoint) {
      await assertPortFree(options.ports.dynamodb, 'DynamoDB Local', 'LOOPCAST_DYNAMODB_PORT');
      const dynamo = await startDynamoDbLocal({
        port: options.ports.dynamodb,
        logFile: join(logs, 'dynamodb-local.log'),
        credentials,
        ...(options.persistent ? { dataDir: join(options.dataDir, 'dynamodb') } : {}),
      });
      stoppers.push(dynamo.stop);
      dynamodbEndpoint = dynamo.endpoint;
    }

    let s3Endpoint = options.s3Endpoint;
    if (!s3Endpoint) {
      const s3 = await startS3Server({ port: options.ports.s3, directory: join(options.dataDir, 's3'), credentials });
      stoppers.push(s3.stop);
      s3Endpoint = s3.endpoint;
    }

    // The realtime server runs the same handlers as AWS, which need the deps made below: hence the getter.
    let deps: Deps | undefined;
    const realtime = await startRealtimeServer({
      port: options.ports.realtime,
      credentials,
      deps: () => {
        if (!deps) throw new Error('the local stack is still starting');
        return deps;
      },
    });
    stoppers.push(realtime.stop);
    writeFileSync(realtimeManagementFile(options.dataDir), realtime.managementUrl, { mode: 0o600 });

    const config: RuntimeConfig = {
      stage: 'local',
      region: 'us-east-1',
      tables: { app: `${options.namePrefix}${appTable.id}` },
      buckets: { media: `${options.namePrefix}${mediaBucket.id}` },
      endpoints: { dynamodb: dynamodbEndpoint, s3: s3Endpoint },
      publicUrl: `http://localhost:${options.ports.http}`,
      realtime: { url: realtime.url, managementUrl: realtime.managementUrl },
    };
    const signingKey = randomBytes(32).toString('base64url');
    // The stand-in of the Api stack's OriginVerify secret: the local origin adds it to API requests as CloudFront does.
    const originVerify = randomBytes(32).toString('base64url');
    const transcoders: FfmpegTranscoder[] = [];
    const keyFile = localMasterKeyFile(options.dataDir);
    const lifecycleFailedHandler = createLifecycleFailedHandler(functionDepsLater(() => deps!, 'lifecycle-failed'));
    // Known once nginx has started (below); tasks start later.
    let destinationCaFile: string | undefined;
    const streamRunner = new LocalStreamRunner({
      lifecycle: createLifecycleHandler(functionDepsLater(() => deps!, 'lifecycle')),
      onExecutionFailed: (run) =>
        lifecycleFailedHandler({
          detail: {
            name: run.executionName,
            status: 'FAILED',
            input: JSON.stringify({ userId: run.userId, streamId: run.streamId, runId: run.runId, round: 0, taskError: null }),
          },
        }),
      logDir: logs,
      taskEnvironment: () => taskContainerEnvironment(join(options.dataDir, 'streams'), destinationCaFile),
      ...(options.dataPlane ? { dataPlane: options.dataPlane } : {}),
    });
    stoppers.push(() => streamRunner.stopAll());
    // EventBridge Scheduler's stand-in: schedules kept in the data folder (AWS keeps them across anything), each
    // invoking the same schedule function as in AWS.
    const scheduler = await startLocalScheduler({
      groups: [LOCAL_SCHEDULES.group],
      targets: new Map([[LOCAL_SCHEDULES.targetArn, createStreamScheduleHandler(functionDepsLater(() => deps!, 'stream-schedule'))]]),
      ...(options.persistent ? { file: join(options.dataDir, 'scheduler', 'schedules.json') } : {}),
      log: (message, error) => logger.warn(message, error === undefined ? {} : { error }),
      credentials,
    });
    stoppers.push(scheduler.stop);
    deps = createDeps(
      config,
      {
        mailer: new OutboxMailer(join(options.dataDir, 'outbox'), options.mailLog ?? (() => undefined)),
        signingKey: async () => signingKey,
        paymentProvider: async () => (options.stripe ? new StripeProvider(options.stripe) : undefined),
        makeTranscoder: (onUpdate) => {
          const transcoder = new FfmpegTranscoder({
            s3: deps!.s3,
            bucket: config.buckets.media,
            onUpdate,
            workDir: join(options.dataDir, 'transcode'),
            ...(options.transcodeTuning ? { tuning: options.transcodeTuning } : {}),
          });
          transcoders.push(transcoder);
          return transcoder;
        },
        secrets: localSecretBox(readFileSync(keyFile)),
        streamRunner,
        streamWakeups: new EventBridgeStreamWakeups({
          scheduler: new SchedulerClient({ region: config.region, endpoint: scheduler.endpoint, credentials: localCredentials }),
          groupName: LOCAL_SCHEDULES.group,
          targetArn: LOCAL_SCHEDULES.targetArn,
          roleArn: LOCAL_SCHEDULES.roleArn,
        }),
        google: async () => options.google,
        telegram: async () => options.telegram,
        originVerify: async () => [originVerify],
        ...(options.publicDestinationsOnly ? { destinations: publicDestinationsOnly() } : {}),
      },
      options.passwordCost ? { passwordCost: options.passwordCost } : {},
    );
    stoppers.push(async () => {
      await Promise.all(transcoders.map((t) => t.close()));
    });
    await createTable(deps.db, config.tables.app, appTable);
    await createBucket(deps.s3, config.buckets.media);

    let rtmp: { rtmpUrl: string; rtmpsUrl: string; hlsUrl: string } | undefined;
    const previews = new LocalPreviews();
    if (options.rtmp) {
      const nginx = await startNginxRtmp({
        dir: join(options.dataDir, 'nginx'),
        rtmpPort: options.ports.rtmp,
        ...(options.ports.rtmps ? { rtmpsPort: options.ports.rtmps } : {}),
        hlsPort: options.ports.hls,
        logFile: join(logs, 'nginx-rtmp.log'),
        ...(options.rtmpChunkSize ? { chunkSize: options.rtmpChunkSize } : {}),
      });
      stoppers.push(nginx.stop);
      rtmp = nginx;
      destinationCaFile = nginx.caFile;
      config.localPreview = { rtmpUrl: nginx.rtmpUrl };
      deps.localPreviews = previews;
    }

    // What EventBridge's 5-minute schedule does in AWS: billing enforcement and YouTube broadcast checks.
    const streamUpkeep = createStreamUpkeep(functionDepsLater(() => deps!, 'stream-upkeep'));
    const upkeepTimer = setInterval(() => void streamUpkeep().catch(() => undefined), UPKEEP_INTERVAL_MS);
    stoppers.push(async () => clearInterval(upkeepTimer));
    // What EventBridge's 1-minute schedule does in AWS: orphaned tasks ended, lost executions and silent tasks restarted.
    const reconcile = createStreamReconciler(functionDepsLater(() => deps!, 'stream-reconciler'));
    const reconcileTimer = setInterval(() => void reconcile().catch(() => undefined), RECONCILE_INTERVAL_MS);
    stoppers.push(async () => clearInterval(reconcileTimer));

    const uploadsDeps = functionDeps(deps, 'uploads');
    const uploads = createUploadServer({ deps: uploadsDeps, hooks: uploadHooks(uploadsDeps) });
    const origin = await startHttpOrigin({
      port: options.ports.http,
      deps,
      mounts: [uploadsMount(uploads), ...(rtmp ? [hlsMount(rtmp.hlsUrl, previews)] : [])],
      ...(options.webDir ? { webDir: options.webDir } : {}),
      originVerify,
    });
    stoppers.push(origin.stop);
    // The API's own endpoint: the same handlers, reached without the origin's headers (a free port).
    const direct = await startHttpOrigin({ port: 0, deps });
    stoppers.push(direct.stop);
    // With port 0 (tests) the real port is only known now.
    config.publicUrl = origin.url;
    const resumed = await resumeInterruptedWork(deps);

    return {
      resumed,
      urls: {
        web: origin.url,
        api: `${origin.url}/api`,
        apiDirect: `${direct.url}/api`,
        realtime: realtime.url,
        dynamodb: dynamodbEndpoint,
        s3: s3Endpoint,
        ...(rtmp ? { rtmp: rtmp.rtmpUrl, rtmps: rtmp.rtmpsUrl, hls: rtmp.hlsUrl } : {}),
      },
      originVerify,
      dataDir: options.dataDir,
      credentials,
      outbox: join(options.dataDir, 'outbox'),
      streamRunner,
      scheduler,
      config,
      deps,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
