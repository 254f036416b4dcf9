// Managed mode: the task of a run that the lifecycle started (ECS in AWS, the local runner locally). Given only
// the run's ids (LOOPCAST_USER_ID, LOOPCAST_STREAM_ID, LOOPCAST_RUN_ID), it reads what to stream from DynamoDB
// (stream keys opened here and nowhere else: they are in no execution history, no task definition, no command
// line), and reports every heartbeat to the stream item and the user's browsers.
import { readFile } from 'node:fs/promises';
import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { streamPreviewKey } from '../../lambdas/core/media/media-urls';
import { countMetric, flushMetrics, secondsMetric } from '../../lambdas/adapters/metrics';
import { metricNames } from '../../lambdas/contract/metrics';
import { KMSClient } from '@aws-sdk/client-kms';
import { createDynamoClient, createS3Client, localCredentials } from '../../lambdas/adapters/aws-clients';
import { googleFromSecret } from '../../lambdas/adapters/deps';
import type { GoogleSettings } from '../../lambdas/adapters/google/youtube';
import { broadcastKeeper } from '../../lambdas/wiring/youtube';
import { kmsSecretBox, localSecretBox } from '../../lambdas/adapters/crypto/envelope';
import { ConnectionsStore } from '../../lambdas/adapters/dynamo/connections-store';
import { DynamoChannelStore } from '../../lambdas/adapters/dynamo/channel-store';
import { DynamoStreamStore } from '../../lambdas/adapters/dynamo/stream-store';
import { DynamoVideoStore } from '../../lambdas/adapters/dynamo/video-store';
import { ManagementApiPublisher } from '../../lambdas/adapters/realtime/management-api-publisher';
import type { StreamHealth } from '../../lambdas/core/streams/stream';
import { applyHeartbeat, taskSpec } from '../../lambdas/core/streams/streams';
import type { Heartbeat, HeartbeatSink } from './heartbeat';
import { bytesMetric } from '../../lambdas/adapters/metrics';
import { egressMeter } from './egress';
import type { StreamTaskSpecInput } from './spec';

export interface ManagedRun {
  userId: string;
  streamId: string;
  runId: string;
}

export function managedRunFromEnv(env: NodeJS.ProcessEnv): ManagedRun | undefined {
  const { LOOPCAST_USER_ID: userId, LOOPCAST_STREAM_ID: streamId, LOOPCAST_RUN_ID: runId } = env;
  return userId && streamId && runId ? { userId, streamId, runId } : undefined;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

/** The heartbeat as the stream item keeps it. */
export function healthOf(heartbeat: Heartbeat): StreamHealth {
  return {
    actual: heartbeat.actual,
    uptimeSeconds: heartbeat.uptimeSeconds,
    bitrateKbps: heartbeat.bitrateKbps,
    fps: heartbeat.fps,
    speed: heartbeat.speed,
    loops: heartbeat.loops,
    taskRestarts: heartbeat.restarts,
    scheduledRestarts: heartbeat.scheduledRestarts,
    ...(heartbeat.nextRestartAt ? { nextRestartAt: heartbeat.nextRestartAt } : {}),
    ...(heartbeat.lastError ? { lastError: heartbeat.lastError } : {}),
    destinations: heartbeat.destinations,
    at: heartbeat.at,
  };
}

/** ffmpeg restarts and stalls (from the heartbeats' counters) and the time from losing media to media again. */
function recoveryMeter(): (heartbeat: Heartbeat) => void {
  let restarts = 0;
  let lostAt: number | undefined;
  let wasStarted = false;
  return (heartbeat) => {
    if (heartbeat.restarts > restarts) {
      countMetric(metricNames.ffmpegRestarts, heartbeat.restarts - restarts);
      if (heartbeat.lastError?.startsWith('stalled')) countMetric(metricNames.streamStalls);
      restarts = heartbeat.restarts;
    }
    const started = heartbeat.actual === 'started';
    if (wasStarted && !started) lostAt ??= Date.parse(heartbeat.since);
    if (started && lostAt !== undefined) {
      secondsMetric(metricNames.recoverySeconds, (Date.parse(heartbeat.since) - lostAt) / 1000);
      lostAt = undefined;
    }
    wasStarted = started;
  };
}

export interface ManagedTask {
  spec: StreamTaskSpecInput;
  sink: HeartbeatSink;
  /** Stores the stream's latest preview frame; the next heartbeat says when. */
  publishPreview(jpeg: Buffer): Promise<void>;
  close(): void;
}

export async function managedTask(run: ManagedRun, env: NodeJS.ProcessEnv): Promise<ManagedTask> {
  const region = env.AWS_REGION ?? 'us-east-1';
  const table = required(env, 'APP_TABLE');
  const local = env.LOOPCAST_DYNAMODB_ENDPOINT !== undefined;
  const db = createDynamoClient({ region, endpoints: local ? { dynamodb: env.LOOPCAST_DYNAMODB_ENDPOINT } : {} });
  const secrets = env.LOOPCAST_LOCAL_KEY_FILE
    ? localSecretBox(await readFile(env.LOOPCAST_LOCAL_KEY_FILE))
    : kmsSecretBox(new KMSClient({ region }), required(env, 'SECRETS_KEY_ARN'));
  const management = new ApiGatewayManagementApiClient({ region, endpoint: required(env, 'REALTIME_MANAGEMENT_URL'), ...(local ? { credentials: localCredentials } : {}) });
  const now = () => new Date();
  const s3 = createS3Client({ region, endpoints: env.LOOPCAST_S3_ENDPOINT ? { s3: env.LOOPCAST_S3_ENDPOINT } : {} });
  // Scheduled restarts rotate YouTube broadcasts from here, where the restart happens.
  const broadcasts = broadcastKeeper({
    db,
    s3,
    secrets,
    table,
    bucket: required(env, 'MEDIA_BUCKET'),
    now,
    google: env.LOOPCAST_GOOGLE_SETTINGS ? async () => JSON.parse(env.LOOPCAST_GOOGLE_SETTINGS!) as GoogleSettings : googleFromSecret(region, env.GOOGLE_SECRET_ARN),
  });
  const context = {
    broadcasts,
    streams: new DynamoStreamStore(db, table),
    channels: new DynamoChannelStore(db, table),
    videos: new DynamoVideoStore(db, table),
    secrets,
    mediaBucket: required(env, 'MEDIA_BUCKET'),
    realtime: new ManagementApiPublisher(management, new ConnectionsStore(db, table), now),
    now,
  };
  const bucket = required(env, 'MEDIA_BUCKET');
  let previewAt: string | undefined;
  const measure = recoveryMeter();
  // Egress for the ops dashboard's cost estimate (stream-task/src/egress.ts).
  const meterEgress = egressMeter((bytes) => bytesMetric(metricNames.streamEgressBytes, bytes));
  return {
    spec: await taskSpec(context, run.userId, run.streamId),
    sink: {
      async send(heartbeat) {
        await applyHeartbeat(context, run, { ...healthOf(heartbeat), ...(previewAt ? { previewAt } : {}) });
        measure(heartbeat);
        meterEgress(heartbeat);
        flushMetrics();
      },
    },
    async publishPreview(jpeg) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: streamPreviewKey(run.userId, run.streamId), Body: jpeg, ContentType: 'image/jpeg' }));
      previewAt = new Date().toISOString();
    },
    close: () => {
      db.destroy();
      s3.destroy();
      management.destroy();
    },
  };
}
