// Runtime configuration of the handlers. In AWS it comes from the Lambda environment that CDK sets
// (lib/api-stack.ts); the local stack builds it directly (local/stack.ts), so several stacks can run in one
// process (tests) without sharing globals.

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
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  return {
    stage: required(env, 'STAGE'),
    region: env.AWS_REGION ?? 'us-east-1',
    tables: { app: required(env, 'APP_TABLE') },
    buckets: { media: required(env, 'MEDIA_BUCKET') },
    endpoints: {},
    publicUrl: required(env, 'PUBLIC_URL'),
  };
}

/** The Lambda environment CDK gives every function: the inverse of configFromEnv. */
export function envFromConfig(config: Omit<RuntimeConfig, 'endpoints' | 'region'>): Record<string, string> {
  return {
    STAGE: config.stage,
    APP_TABLE: config.tables.app,
    MEDIA_BUCKET: config.buckets.media,
    PUBLIC_URL: config.publicUrl,
  };
}
