import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { RealtimePublisher } from '../contract/realtime-events';
import type { PaymentProvider } from '../core/billing/ports';
import { MediaConvertClient } from '@aws-sdk/client-mediaconvert';
import { MediaConvertTranscoder } from '../adapters/transcoder/mediaconvert-transcoder';
import type { TranscodeListener, Transcoder } from '../core/media/transcoder';
import { KMSClient } from '@aws-sdk/client-kms';
import { SFNClient } from '@aws-sdk/client-sfn';
import { ECSClient } from '@aws-sdk/client-ecs';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { StreamWakeups } from '../core/streams/scheduled-runs';
import { EventBridgeStreamWakeups } from '../adapters/scheduler/eventbridge-stream-wakeups';
import type { SecretBox } from '../core/secret-box';
import type { StreamRunner } from '../core/streams/ports';
import { kmsSecretBox } from '../adapters/crypto/envelope';
import { AwsStreamRunner } from '../adapters/workflow/aws-stream-runner';
import type { GoogleSettings } from '../adapters/google/youtube';
import type { TelegramSettings } from '../adapters/telegram/bot-api';
import type { Mailer } from '../core/accounts/ports';
import { createDynamoClient, createS3Client, localCredentials } from '../adapters/aws-clients';
import { ConnectionsStore } from '../adapters/dynamo/connections-store';
import { ManagementApiPublisher, POSTS_IN_FLIGHT } from '../adapters/realtime/management-api-publisher';
import { ConnectionPoster } from '../adapters/realtime/connection-poster';
import { secondsMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import { ManagementApiConnectionCloser } from '../adapters/realtime/connection-closer';
import type { OpenConnections } from '../core/accounts/ports';
import { PASSWORD_COST, type ScryptCost } from '../core/accounts/passwords';
import { configFromEnv, type RuntimeConfig } from '../adapters/config';
import { SesMailer } from '../adapters/mail/ses-mailer';
import { traced } from '../adapters/observability';
import { noOriginVerify, originVerifyFromSecret, type OriginVerifyValues } from '../adapters/origin-verify';
import type { DestinationPolicy } from '../core/channels/channels';
import { anyDestination, publicDestinationsOnly } from '../adapters/net/destination-policy';

/** Everything a handler may touch, passed in explicitly (never module globals), so tests and the local stack
 * can build their own. AWS-only and local-only adapters are chosen where Deps are made. */
export interface Deps {
  config: RuntimeConfig;
  db: DynamoDBDocumentClient;
  s3: S3Client;
  mailer: Mailer;
  realtime: RealtimePublisher;
  /** Closes users' realtime WebSockets when their sessions end (the same management API as `realtime`). */
  connections: OpenConnections;
  /** The HMAC key of realtime tokens and media URLs (Secrets Manager in AWS, random per start locally). */
  signingKey: () => Promise<string>;
  /** Stripe, when configured (Secrets Manager in AWS, environment locally); undefined: trial only. */
  paymentProvider: () => Promise<PaymentProvider | undefined>;
  /** MediaConvert in AWS, ffmpeg locally; made once per Deps by lambdas/wiring/media.ts with its listener. */
  makeTranscoder: (onUpdate: TranscodeListener) => Transcoder;
  /** Stream keys and OAuth tokens at rest: KMS envelope encryption in AWS, a local key locally. */
  secrets: SecretBox;
  /** Stream lifecycles and their tasks: Step Functions and ECS in AWS, aws-local-stepfunctions with child processes
   * locally. */
  streamRunner: StreamRunner;
  /** Streams' schedule wake-ups: EventBridge Scheduler in AWS, its stand-in in the local stack (the same adapter);
   * absent where nothing sets schedules (the support tool). */
  streamWakeups?: StreamWakeups;
  /** Google OAuth client settings (Secrets Manager in AWS, environment locally); undefined: YouTube off. */
  google: () => Promise<GoogleSettings | undefined>;
  /** The operator's Telegram bot (Secrets Manager in AWS, environment locally); undefined: e-mail alerts only. */
  telegram: () => Promise<TelegramSettings | undefined>;
  /** The values of CloudFront's `x-origin-verify` header, beside which the HTTP handlers believe `x-viewer-address`
   * (Secrets Manager in AWS, random per start locally; lambdas/adapters/origin-verify.ts). Never logged. */
  originVerify: OriginVerifyValues;
  /** Which servers RTMP destinations may name: the public internet only, except in the local stack (where its own
   * test destination is on 127.0.0.1) unless it asks for the rule too. */
  destinations: DestinationPolicy;
  /** Local stack only, with its RTMP test destination: the opaque id a stream key's HLS preview is served by
   * (local/hls-mount.ts), so the API never hands out a key. */
  localPreviews?: { idFor(streamKey: string): string };
  /** The current time; tests move it to check expiry without waiting (contexts read it at call time: per-deps.ts). */
  now: () => Date;
  /** The cost of new password hashes: PASSWORD_COST everywhere but in the test suite's stacks. */
  passwordCost: ScryptCost;
}

/** The adapters that differ between AWS and the local stack. Without `originVerify` no request is believed to come
 * through CloudFront (Deps that serve no HTTP, like the support tool's). */
export type EnvironmentAdapters = Pick<
  Deps,
  'mailer' | 'signingKey' | 'paymentProvider' | 'makeTranscoder' | 'secrets' | 'streamRunner' | 'google' | 'telegram'
> &
  Partial<Pick<Deps, 'originVerify' | 'destinations' | 'streamWakeups'>>;

export function createDeps(
  config: RuntimeConfig,
  adapters: EnvironmentAdapters,
  overrides: Partial<Pick<Deps, 'db' | 's3' | 'now' | 'passwordCost'>> = {},
): Deps {
  const db = overrides.db ?? createDynamoClient(config);
  const management = traced(
    new ApiGatewayManagementApiClient({
      region: config.region,
      endpoint: config.realtime.managementUrl,
      // A keep-alive socket for each PostToConnection a publish has in flight (connection-poster.ts sends them
      // through this client's handler, signer settings and retry strategy).
      requestHandler: {
        httpAgent: new HttpAgent({ keepAlive: true, maxSockets: POSTS_IN_FLIGHT }),
        httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: POSTS_IN_FLIGHT }),
      },
      ...(config.endpoints.dynamodb ? { credentials: localCredentials } : {}),
    }),
  );
  const connections = new ConnectionsStore(db, config.tables.app);
  const deps: Deps = {
    config,
    db,
    s3: overrides.s3 ?? createS3Client(config),
    now: overrides.now ?? (() => new Date()),
    passwordCost: overrides.passwordCost ?? PASSWORD_COST,
    ...adapters,
    originVerify: adapters.originVerify ?? noOriginVerify,
    destinations: adapters.destinations ?? (config.stage === 'local' ? anyDestination : publicDestinationsOnly()),
    realtime: new ManagementApiPublisher(
      new ConnectionPoster(management, config.realtime.managementUrl),
      connections,
      () => deps.now(),
      (seconds) => secondsMetric(metricNames.realtimeBroadcastSeconds, seconds),
    ),
    connections: new ManagementApiConnectionCloser(management, connections, () => deps.now()),
  };
  return deps;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

let lambdaDeps: Promise<Deps> | undefined;

/** Deps of a Lambda container: made once from the environment on first use, reused by warm invocations. */
export const depsFromEnvironment = (): Promise<Deps> =>
  (lambdaDeps ??= configFromEnv().then((config) =>
    createDeps(config, {
      mailer: new SesMailer(traced(new SESv2Client({ region: config.region })), required('MAIL_FROM')),
      signingKey: secretValue(config.region, required('SIGNING_KEY_ARN')),
      paymentProvider: stripeFromSecret(config.region, process.env.STRIPE_SECRET_ARN),
      makeTranscoder: (onUpdate) =>
        new MediaConvertTranscoder({
          mediaConvert: traced(new MediaConvertClient({ region: config.region })),
          s3: createS3Client(config),
          bucket: config.buckets.media,
          roleArn: required('MEDIACONVERT_ROLE_ARN'),
          queueArn: required('MEDIACONVERT_QUEUE_ARN'),
          onUpdate,
        }),
      secrets: kmsSecretBox(traced(new KMSClient({ region: config.region })), required('SECRETS_KEY_ARN')),
      streamRunner: new AwsStreamRunner({
        sfn: traced(new SFNClient({ region: config.region })),
        ecs: traced(new ECSClient({ region: config.region })),
        stateMachineArn: required('STREAM_LIFECYCLE_ARN'),
        cluster: required('STREAM_CLUSTER'),
        taskFamily: required('STREAM_TASK_FAMILY'),
      }),
      streamWakeups: new EventBridgeStreamWakeups({
        scheduler: traced(new SchedulerClient({ region: config.region })),
        groupName: required('STREAM_SCHEDULE_GROUP'),
        targetArn: required('STREAM_SCHEDULE_TARGET_ARN'),
        roleArn: required('STREAM_SCHEDULE_ROLE_ARN'),
      }),
      google: googleFromSecret(config.region, process.env.GOOGLE_SECRET_ARN),
      telegram: telegramFromSecret(config.region, process.env.TELEGRAM_SECRET_ARN),
      originVerify: originVerifyFromSecret(config.region, required('ORIGIN_VERIFY_SECRET_ARN')),
    }),
  ));

/** The operator stores `{ "clientId": "...", "clientSecret": "..." }` (docs/youtube.md); empty: YouTube is off. */
export function googleFromSecret(region: string, secretArn: string | undefined): () => Promise<GoogleSettings | undefined> {
  if (!secretArn) return async () => undefined;
  const read = secretValue(region, secretArn);
  return async () => {
    const { clientId, clientSecret } = JSON.parse(await read()) as { clientId?: string; clientSecret?: string };
    return clientId && clientSecret ? { clientId, clientSecret } : undefined;
  };
}

/** The operator stores `{ "botToken": "...", "botUsername": "...", "webhookSecret": "..." }` (docs/deploy.md); an
 * empty or absent secret means Telegram alerts are off. */
function telegramFromSecret(region: string, secretArn: string | undefined): () => Promise<TelegramSettings | undefined> {
  if (!secretArn) return async () => undefined;
  const read = secretValue(region, secretArn);
  return async () => {
    const { botToken, botUsername, webhookSecret } = JSON.parse(await read()) as Partial<TelegramSettings>;
    return botToken && botUsername && webhookSecret ? { botToken, botUsername, webhookSecret } : undefined;
  };
}

/** The operator stores `{ "secretKey": "sk_...", "webhookSecret": "whsec_..." }` (docs/deploy.md); an empty
 * or absent secret means payments are not configured yet. */
function stripeFromSecret(region: string, secretArn: string | undefined): () => Promise<PaymentProvider | undefined> {
  if (!secretArn) return async () => undefined;
  const read = secretValue(region, secretArn);
  let provider: Promise<PaymentProvider | undefined> | undefined;
  return () =>
    (provider ??= read().then(async (text) => {
      const { secretKey, webhookSecret } = JSON.parse(text) as { secretKey?: string; webhookSecret?: string };
      if (!secretKey || !webhookSecret) return undefined;
      // Loaded on first use: most functions never take a payment, and Stripe's SDK costs each one's cold start.
      const { StripeProvider } = await import('../adapters/stripe/stripe-provider');
      return new StripeProvider({ secretKey, webhookSecret });
    }));
}

/** A Secrets Manager value, fetched on first use and kept for the container's life. */
function secretValue(region: string, secretId: string): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () =>
    (value ??= traced(new SecretsManagerClient({ region }))
      .send(new GetSecretValueCommand({ SecretId: secretId }))
      .then((result) => {
        if (!result.SecretString) throw new Error(`secret ${secretId} has no string value`);
        return result.SecretString;
      }));
}
