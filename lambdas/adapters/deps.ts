import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { createDynamoClient, createS3Client } from './aws-clients';
import { configFromEnv, type RuntimeConfig } from './config';

/** Everything a handler may touch, passed in explicitly (never module globals), so tests and the local stack
 * can build their own. AWS-only and local-only adapters are chosen where Deps are made. */
export interface Deps {
  config: RuntimeConfig;
  db: DynamoDBDocumentClient;
  s3: S3Client;
  /** The current time; tests move it to check expiry without waiting. */
  now: () => Date;
}

export function createDeps(config: RuntimeConfig, overrides: Partial<Omit<Deps, 'config'>> = {}): Deps {
  return {
    config,
    db: overrides.db ?? createDynamoClient(config),
    s3: overrides.s3 ?? createS3Client(config),
    now: overrides.now ?? (() => new Date()),
  };
}

let lambdaDeps: Promise<Deps> | undefined;

/** Deps of a Lambda container: made once from the environment on first use, reused by warm invocations. */
export const depsFromEnvironment = (): Promise<Deps> => (lambdaDeps ??= configFromEnv().then((config) => createDeps(config)));
