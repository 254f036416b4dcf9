// Deps for the support tool (bin/support.ts): a deployed stage's, built exactly as its functions build theirs,
// or the local stack's (its data folder, table and bucket), built as local/stack.ts builds them.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import type { SubscriptionControl } from '../core/support/ports';
import type { RuntimeConfig } from '../adapters/config';
import { localSecretBox } from '../adapters/crypto/envelope';
import { createDeps, depsFromEnvironment, type Deps } from './deps';
import type { GoogleSettings } from '../adapters/google/youtube';
import { OutboxMailer } from '../adapters/mail/outbox-mailer';
import { StripeProvider } from '../adapters/stripe/stripe-provider';
import { StripeSubscriptionControl } from '../adapters/stripe/support-subscriptions';
import { supportEnvironmentParameterName } from '../adapters/support-parameter';
import { FfmpegTranscoder } from '../adapters/transcoder/ffmpeg-transcoder';
import { LocalStreamTaskStopper } from '../adapters/workflow/support-local-tasks';

export interface SupportRuntime {
  deps: Deps;
  /** Absent when no payment provider is configured. */
  subscriptions?: SubscriptionControl;
  /** What the audit log records as the credentials used. */
  credentials: string;
}

/** A deployed stage's handler environment, from the SSM parameter its Ops stack writes, and the region it is in. */
export async function stageEnvironment(stage: string, region: string | undefined): Promise<{ environment: Record<string, string>; region: string }> {
  const ssm = new SSMClient(region ? { region } : {});
  const resolvedRegion = await ssm.config.region();
  const name = supportEnvironmentParameterName(stage);
  let value: string | undefined;
  try {
    value = (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
  } catch (error) {
    if (!(error instanceof ParameterNotFound)) throw error;
  }
  if (!value)
    throw new Error(
      `the SSM parameter ${name} does not exist in ${resolvedRegion}: is the stage "${stage}" deployed there (its Ops stack included)? Pass --region otherwise.`,
    );
  return { environment: JSON.parse(value) as Record<string, string>, region: resolvedRegion };
}

/** Stripe's secret key from a stage's StripeKeys secret (docs/deploy.md); undefined until the operator set it. */
export async function stageStripeSecretKey(region: string, secretArn: string): Promise<string | undefined> {
  const { SecretString } = await new SecretsManagerClient({ region }).send(new GetSecretValueCommand({ SecretId: secretArn }));
  try {
    return (JSON.parse(SecretString ?? '{}') as { secretKey?: string }).secretKey || undefined;
  } catch {
    throw new Error(`the StripeKeys secret ${secretArn} is not JSON: docs/deploy.md, Stripe step 4`);
  }
}

/** A deployed stage: its handler environment from SSM (written by the ops stack), the caller's AWS credentials. */
export async function stageSupportRuntime(stage: string, region: string | undefined): Promise<SupportRuntime> {
  const { environment, region: resolvedRegion } = await stageEnvironment(stage, region);
  // The functions' own environment: from here on the tool makes its Deps exactly as a function does.
  Object.assign(process.env, environment, { AWS_REGION: resolvedRegion });
  const deps = await depsFromEnvironment();
  const { accessKeyId } = await deps.s3.config.credentials();
  const secretKey = environment.STRIPE_SECRET_ARN ? await stageStripeSecretKey(resolvedRegion, environment.STRIPE_SECRET_ARN) : undefined;
  return { deps, ...(secretKey ? { subscriptions: new StripeSubscriptionControl({ secretKey }) } : {}), credentials: `aws:${accessKeyId}` };
}

export interface LocalSupportTarget {
  /** The local stack's data folder (its stream-key master key is there). */
  dataDir: string;
  table: string;
  bucket: string;
  endpoints: { dynamodb: string; s3: string };
  /** The local realtime server's management API, so stopped streams show in open browsers. */
  realtimeManagementUrl: string;
  publicUrl: string;
  /** Test-mode Stripe keys, as `npm start` takes them (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET). */
  stripe?: { secretKey: string; webhookSecret: string };
  /** The Google OAuth client, as `npm start` takes it: stopping a YouTube stream ends its broadcast. */
  google?: GoogleSettings;
}

/** The local stack's data, as local/stack.ts wires it; stream tasks are stopped by signal (they are `npm start`'s
 * children, not ours). */
export function localSupportRuntime(target: LocalSupportTarget): SupportRuntime {
  const keyFile = join(target.dataDir, 'secrets.key');
  if (!existsSync(keyFile)) throw new Error(`no local stack data in ${target.dataDir}: run "npm start" once, or set LOOPCAST_DATA_DIR`);
  const config: RuntimeConfig = {
    stage: 'local',
    region: 'us-east-1',
    tables: { app: target.table },
    buckets: { media: target.bucket },
    endpoints: target.endpoints,
    publicUrl: target.publicUrl,
    realtime: { url: target.realtimeManagementUrl.replace(/^http/, 'ws'), managementUrl: target.realtimeManagementUrl },
  };
  const signingKey = randomBytes(32).toString('base64url');
  const { stripe, google } = target;
  const deps: Deps = createDeps(config, {
    mailer: new OutboxMailer(join(target.dataDir, 'outbox'), () => undefined),
    signingKey: async () => signingKey,
    paymentProvider: async () => (stripe ? new StripeProvider(stripe) : undefined),
    makeTranscoder: (onUpdate) => new FfmpegTranscoder({ s3: deps.s3, bucket: config.buckets.media, onUpdate, workDir: join(target.dataDir, 'transcode') }),
    secrets: localSecretBox(readFileSync(keyFile)),
    streamRunner: new LocalStreamTaskStopper(),
    google: async () => google,
    // The support tool tells users nothing by Telegram; its actions are written to the audit trail.
    telegram: async () => undefined,
  });
  return { deps, ...(stripe ? { subscriptions: new StripeSubscriptionControl({ secretKey: stripe.secretKey }) } : {}), credentials: 'local' };
}
