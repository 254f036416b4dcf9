// Once per test run: check every real component is there (fail loudly, never skip), then start the shared
// stand-ins: DynamoDB Local in memory and s3rver in a temporary folder, taking the run's own random credentials
// (in the environment, which every test process inherits, as the local stack's processes do). Each test file makes
// its own tables and bucket (unique name prefix) on them, so files run in parallel without seeing each other's data. Everything the run
// writes to temporary files (stacks' data folders, clips, CDK's synth output, ffmpeg's and Chromium's files) goes
// into the run's own folder, through TMPDIR, and the global teardown removes it.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomLocalCredentials, useLocalCredentials } from '../../local/credentials';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { freePort } from '../../local/ports';
import { startS3Server } from '../../local/s3-server';
import { missingComponents } from './components';

export default async function globalSetup(): Promise<void> {
  const missing = missingComponents();
  if (missing.length) {
    throw new Error(
      `The test suite needs real components that are missing:\n  - ${missing.join('\n  - ')}\nRun "npm test", which installs them (as root), or install them by hand.`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-test-'));
  // Set first: the ports handed out below are claimed there too (local/ports.ts).
  const runTemporaryFiles = join(dir, 'tmp');
  mkdirSync(runTemporaryFiles);
  process.env.TMPDIR = runTemporaryFiles;
  const credentials = randomLocalCredentials();
  useLocalCredentials(credentials);
  const dynamo = await startDynamoDbLocal({ port: await freePort(), logFile: join(dir, 'dynamodb-local.log'), credentials });
  const s3 = await startS3Server({ port: await freePort(), directory: join(dir, 's3'), credentials });
  process.env.LOOPCAST_TEST_DYNAMODB = dynamo.endpoint;
  process.env.LOOPCAST_TEST_S3 = s3.endpoint;
  process.env.LOOPCAST_TEST_DIR = dir;
  (globalThis as { loopcastTestStandIns?: unknown }).loopcastTestStandIns = [dynamo, s3];
}
