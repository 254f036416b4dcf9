import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../core/accounts/ports';
import { createDynamoClient, createS3Client } from './aws-clients';
import { configFromEnv, type RuntimeConfig } from './config';
import { SesMailer } from './mail/ses-mailer';

/** Everything a handler may touch, passed in explicitly (never module globals), so tests and the local stack
 * can build their own. AWS-only and local-only adapters are chosen where Deps are made. */
export interface Deps {
  config: RuntimeConfig;
  db: DynamoDBDocumentClient;
  s3: S3Client;
  mailer: Mailer;
  /** The current time; tests move it to check expiry without waiting. */
  now: () => Date;
}

/** The adapters that differ between AWS and the local stack. */
export type EnvironmentAdapters = Pick<Deps, 'mailer'>;

export function createDeps(config: RuntimeConfig, adapters: EnvironmentAdapters, overrides: Partial<Pick<Deps, 'db' | 's3' | 'now'>> = {}): Deps {
  return {
    config,
    db: overrides.db ?? createDynamoClient(config),
    s3: overrides.s3 ?? createS3Client(config),
    now: overrides.now ?? (() => new Date()),
    ...adapters,
  };
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
    createDeps(config, { mailer: new SesMailer(new SESv2Client({ region: config.region }), required('MAIL_FROM')) }),
  ));
