// Runtime configuration of the handlers. In AWS it comes from the Lambda environment that CDK sets
// (lib/api-stack.ts); the local stack builds it directly (local/stack.ts), so several stacks can run in one
// process (tests) without sharing globals.
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';

export interface RuntimeConfig {
  /** `local`, or the deployed stage (`dev`, `prod`, ...). */
  stage: string;
  region: string;
  tables: { app: string };
  buckets: { media: string };
  /** Endpoints of the local stand-ins; absent in AWS. */
  endpoints: { dynamodb?: string; s3?: string };
  /** Where users open the app, for links in e-mails and redirects (e.g. https://loopcast.app). */
  publicUrl: string;
  /** The realtime WebSocket API: `url` for browsers (wss://...), `managementUrl` for PostToConnection. */
  realtime: { url: string; managementUrl: string };
  /** Local stack only: its RTMP test destination, whose HLS output the origin serves at /hls for previews. */
  localPreview?: { rtmpUrl: string };
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

/** Without a custom domain the public URL is CloudFront's, known only after the web stack deployed: it writes
 * it to SSM and the handlers read it once per container. */
async function publicUrlFrom(env: NodeJS.ProcessEnv, region: string): Promise<string> {
  if (env.PUBLIC_URL) return env.PUBLIC_URL;
  const name = required(env, 'PUBLIC_URL_PARAMETER');
  const result = await new SSMClient({ region }).send(new GetParameterCommand({ Name: name }));
  if (!result.Parameter?.Value) throw new Error(`SSM parameter ${name} is empty`);
  return result.Parameter.Value;
}

export async function configFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<RuntimeConfig> {
  const region = env.AWS_REGION ?? 'us-east-1';
  return {
    stage: required(env, 'STAGE'),
    region,
    tables: { app: required(env, 'APP_TABLE') },
    buckets: { media: required(env, 'MEDIA_BUCKET') },
    // Set only to run bundled handlers against the local stand-ins (lib/bundle.test.ts); never in AWS.
    endpoints: {
      ...(env.LOOPCAST_DYNAMODB_ENDPOINT ? { dynamodb: env.LOOPCAST_DYNAMODB_ENDPOINT } : {}),
      ...(env.LOOPCAST_S3_ENDPOINT ? { s3: env.LOOPCAST_S3_ENDPOINT } : {}),
    },
    publicUrl: await publicUrlFrom(env, region),
    realtime: { url: required(env, 'REALTIME_URL'), managementUrl: required(env, 'REALTIME_MANAGEMENT_URL') },
  };
}

/** The Lambda environment CDK gives every function (besides the public URL): the inverse of configFromEnv. */
export function envFromConfig(config: Pick<RuntimeConfig, 'stage' | 'tables' | 'buckets'>): Record<string, string> {
  return {
    STAGE: config.stage,
    APP_TABLE: config.tables.app,
    MEDIA_BUCKET: config.buckets.media,
  };
}
