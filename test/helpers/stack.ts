// A local stack for one test file: its own tables and bucket on the run's shared DynamoDB Local and s3rver,
// its own HTTP origin on a free port, and optionally its own nginx-rtmp and the built web app.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StripeSettings } from '../../lambdas/adapters/stripe/stripe-provider';
import type { GoogleSettings } from '../../lambdas/adapters/google/youtube';
import type { TelegramSettings } from '../../lambdas/adapters/telegram/bot-api';
import type { DataPlane } from '../../lambdas/contract/data-planes';
import type { ScryptCost } from '../../lambdas/core/accounts/passwords';
import { appTable } from '../../lambdas/contract/tables';
import { webBuildDir } from '../../local/paths';
import { freePort } from '../../local/ports';
import { startLocalStack, type LocalStack } from '../../local/stack';

export interface TestStackOptions {
  rtmp?: boolean;
  web?: boolean;
  stripe?: StripeSettings;
  google?: GoogleSettings;
  telegram?: TelegramSettings;
  /** A stopped stack whose tables, bucket, data folder and RTMP ports to use again: `npm start` run a second time. */
  continueFrom?: LocalStack;
  /** The data plane whose lifecycle definition the stack runs (default fargate). */
  dataPlane?: DataPlane;
  /** A data folder of the test's own (a fresh temporary one otherwise). */
  dataDir?: string;
  /** RTMP destinations on the public internet only, as in AWS. */
  publicDestinationsOnly?: boolean;
}

/** The test stacks hash passwords at 1/32 of the product's scrypt cost (1 MiB, a few ms): nearly every test signs a
 * user up, and at the product's cost (32 MiB, 100-200 ms each) test/api/account.test.ts spent 69 CPU-s where it now
 * spends 49. The code is the product's; a stored hash names its cost, and lambdas/core/accounts/passwords.test.ts
 * checks the product's. */
const TEST_PASSWORD_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/** The test stacks' transcoder runs x264 at `superfast` instead of the local stack's `veryfast`: transcodes were a
 * fifth of the suite's CPU (about 450 CPU-s of a clean run), and superfast takes a quarter less. The output is the
 * same stream-ready format (High profile, B-frames, the profile's GOP, size, rate and constant bitrate), at a lower
 * picture quality for the bits; lambdas/adapters/transcoder/ffmpeg-transcoder.test.ts checks the default preset. */
const TEST_TRANSCODE_TUNING = { preset: 'superfast' };

const portOf = (url: string | undefined) => (url ? Number(new URL(url).port) : undefined);

export async function startTestStack(options: TestStackOptions = {}): Promise<LocalStack> {
  const dynamodbEndpoint = process.env.LOOPCAST_TEST_DYNAMODB;
  const s3Endpoint = process.env.LOOPCAST_TEST_S3;
  if (!dynamodbEndpoint || !s3Endpoint) throw new Error('the global test setup did not run (LOOPCAST_TEST_DYNAMODB is unset)');
  const previous = options.continueFrom;
  return startLocalStack({
    dataDir: previous?.dataDir ?? options.dataDir ?? mkdtempSync(join(tmpdir(), 'loopcast-stack-')),
    persistent: false,
    namePrefix: previous ? previous.config.tables.app.slice(0, -appTable.id.length) : `t${randomBytes(4).toString('hex')}-`,
    ports: {
      http: 0,
      realtime: 0,
      dynamodb: 0,
      s3: 0,
      rtmp: options.rtmp ? (portOf(previous?.urls.rtmp) ?? (await freePort())) : 0,
      rtmps: options.rtmp ? (portOf(previous?.urls.rtmps) ?? (await freePort())) : 0,
      hls: options.rtmp ? (portOf(previous?.urls.hls) ?? (await freePort())) : 0,
    },
    dynamodbEndpoint,
    s3Endpoint,
    rtmp: options.rtmp ?? false,
    ...(options.web ? { webDir: webBuildDir } : {}),
    ...(options.stripe ? { stripe: options.stripe } : {}),
    ...(options.google ? { google: options.google } : {}),
    ...(options.telegram ? { telegram: options.telegram } : {}),
    ...(options.dataPlane ? { dataPlane: options.dataPlane } : {}),
    ...(options.publicDestinationsOnly ? { publicDestinationsOnly: true } : {}),
    passwordCost: TEST_PASSWORD_COST,
    transcodeTuning: TEST_TRANSCODE_TUNING,
  });
}
