// The origin-verify values a request from CloudFront may carry (lambdas/contract/edge-headers.ts): Secrets Manager's
// current and previous version of the Api stack's OriginVerify secret in AWS, a random value per start locally.
import { createHash, timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { logger } from './logger';
import { traced } from './observability';

/** The accepted values; never logged. */
export type OriginVerifyValues = () => Promise<readonly string[]>;

/** No CloudFront in front: for Deps that never serve HTTP through it (the support tool, unit tests). No request
 * is believed to come through CloudFront, and none is refused for not doing so. */
export const noOriginVerify: OriginVerifyValues = async () => [];

/**
 * Whether a request may be served (security audit L11): the HTTP API's execute-api endpoint and the uploads
 * Function URL are reachable without CloudFront, and so without its WAF. Where CloudFront is in front (values
 * configured), a request must carry its origin-verify value. `verified` is whether it did. When the values cannot
 * be read (Secrets Manager failing), requests are served and counted as their peer: an outage of the secret must
 * not take the site down, and no client can cause one.
 */
export async function edgeCheck(presented: string | undefined, values: OriginVerifyValues | undefined): Promise<{ allowed: boolean; verified: boolean }> {
  let accepted: readonly string[];
  try {
    accepted = values ? await values() : [];
  } catch (error) {
    logger.error('origin-verify values unavailable: requests are served, counted as their peer', error as Error);
    return { allowed: true, verified: false };
  }
  if (!accepted.length) return { allowed: true, verified: false };
  const verified = matchesOriginVerify(presented ?? '', accepted);
  return { allowed: verified, verified };
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Whether `presented` is one of `accepted`, in a time that tells nothing about how much of it matched: equal-length
 * SHA-256 digests compared with timingSafeEqual, every accepted value compared. Empty values never match. */
export function matchesOriginVerify(presented: string, accepted: readonly string[]): boolean {
  if (!presented) return false;
  const given = digest(presented);
  let matched = false;
  for (const value of accepted) {
    if (value && timingSafeEqual(given, digest(value))) matched = true;
  }
  return matched;
}

/** How long a container keeps the values before reading them again, so a rotation (docs/deploy.md) reaches warm
 * containers without a redeploy of the functions. */
export const ORIGIN_VERIFY_REFRESH_MS = 10 * 60_000;

export interface OriginVerifyFromSecretOptions {
  client?: Pick<SecretsManagerClient, 'send'>;
  refreshMs?: number;
  now?: () => number;
}

/**
 * AWSCURRENT and, during a rotation, AWSPREVIOUS: CloudFront sends the value it read when its distribution was last
 * deployed, which is the previous one between `put-secret-value` and the Web stack's deploy. Read on first use and
 * again every `refreshMs`; a failed refresh keeps the values read before, a failed first read is retried by the next
 * request.
 */
export function originVerifyFromSecret(region: string, secretId: string, options: OriginVerifyFromSecretOptions = {}): OriginVerifyValues {
  const client = options.client ?? traced(new SecretsManagerClient({ region }));
  const refreshMs = options.refreshMs ?? ORIGIN_VERIFY_REFRESH_MS;
  const now = options.now ?? Date.now;
  const read = async (stage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<string | undefined> => {
    try {
      return (await client.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: stage }))).SecretString;
    } catch (error) {
      // A secret never rotated has no previous version.
      if (stage === 'AWSPREVIOUS' && (error as Error).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  };
  let cached: { values: Promise<readonly string[]>; readAt: number } | undefined;
  return () => {
    const at = now();
    if (!cached || at - cached.readAt >= refreshMs) {
      const before = cached;
      const values = Promise.all([read('AWSCURRENT'), read('AWSPREVIOUS')]).then((found) => found.filter((v): v is string => !!v));
      const entry = { values: before ? values.catch(() => before.values) : values, readAt: at };
      if (!before)
        values.catch(() => {
          if (cached === entry) cached = undefined;
        });
      cached = entry;
    }
    return cached.values;
  };
}
