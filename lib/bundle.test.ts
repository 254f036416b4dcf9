// The Lambda bundles CDK builds with the local esbuild must run as they are: one function is bundled exactly as the
// stacks bundle every function (HandlerFunction), then invoked in a separate Node process against the stand-ins.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import { localCredentialsEnvironment } from '../lambdas/contract/local-credentials';
import type { LocalStack } from '../local/stack';
import { apiEvent, testContext } from '../test/helpers/api-event';
import { startTestStack } from '../test/helpers/stack';
import { HandlerFunction, SHIPPED_PACKAGES } from './constructs/handler-function';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

/** The asset CDK builds for the function of `entry` (below lambdas/), as the stacks bundle it. */
function bundleHandler(entry: string): string {
  const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:enable-asset-metadata': true } });
  const bundled = new Stack(app, 'Bundle');
  new HandlerFunction(bundled, 'Handler', { entry, description: 'bundle test', environment: {} });
  const outdir = app.synth().directory;
  const template = JSON.parse(readFileSync(join(outdir, 'Bundle.template.json'), 'utf8'));
  const fn = Object.values<{ Type: string; Metadata?: Record<string, string> }>(template.Resources).find((r) => r.Type === 'AWS::Lambda::Function');
  const assetPath = fn?.Metadata?.['aws:asset:path'];
  if (!assetPath) throw new Error('no bundled asset for the function');
  return join(outdir, assetPath);
}

// Asynchronous on purpose: s3rver may live in this very process (jest in band), a sync child would deadlock it.
test('the bundled system handler (ESM, Node 24) answers GET /api/health', async () => {
  const dir = bundleHandler('http/system.ts');
  // It imports none of the shipped packages, so it carries none; the build's metafile is not shipped.
  expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'index.mjs.map']);

  const script = `const { handler } = await import(${JSON.stringify(join(dir, 'index.mjs'))});
    const result = await handler(${JSON.stringify(apiEvent('GET /api/health'))}, ${JSON.stringify(testContext())});
    process.stdout.write(JSON.stringify(result), () => process.exit(0));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      STAGE: 'test',
      APP_TABLE: stack.config.tables.app,
      MEDIA_BUCKET: stack.config.buckets.media,
      PUBLIC_URL: 'https://example.test',
      MAIL_FROM: 'no-reply@example.test',
      REALTIME_URL: stack.urls.realtime,
      REALTIME_MANAGEMENT_URL: stack.config.realtime.managementUrl,
      SIGNING_KEY_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:unused',
      ORIGIN_VERIFY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:unused',
      SECRETS_KEY_ARN: 'arn:aws:kms:us-east-1:000000000000:key/unused',
      STREAM_LIFECYCLE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:unused',
      STREAM_CLUSTER: 'unused',
      STREAM_TASK_FAMILY: 'unused',
      STREAM_SCHEDULE_GROUP: 'unused',
      STREAM_SCHEDULE_TARGET_ARN: 'arn:aws:lambda:us-east-1:000000000000:function:unused',
      STREAM_SCHEDULE_ROLE_ARN: 'arn:aws:iam::000000000000:role/unused',
      LOOPCAST_DYNAMODB_ENDPOINT: stack.urls.dynamodb,
      LOOPCAST_S3_ENDPOINT: stack.urls.s3,
      // The local stand-ins' credentials, as the stack hands them to its processes.
      ...localCredentialsEnvironment(stack.credentials),
      AWS_REGION: 'us-east-1',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    },
  });
  const result = JSON.parse(stdout);
  expect({ status: result.statusCode, body: JSON.parse(result.body) }).toMatchObject({ status: 200 });
  expect(JSON.parse(result.body)).toMatchObject({ status: 'ok', dependencies: { dynamodb: { status: 'up' }, s3: { status: 'up' } } });
}, 120_000);

test('the lists a few routes read on first use ship beside the bundle, not in it, and load from there', async () => {
  const dir = bundleHandler('http/account.ts');
  expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'index.mjs.map', 'node_modules']);
  const bundle = readFileSync(join(dir, 'index.mjs'), 'utf8');
  expect(bundle).not.toContain('mailinator.com');
  // What the routes do on first use (lambdas/core/accounts: email-address.ts, passwords.ts), resolved from the asset.
  const script = `const { default: MailChecker } = await import('mailchecker');
    const { dictionary } = await import('@zxcvbn-ts/language-common');
    process.stdout.write(JSON.stringify({ throwaway: !MailChecker.isValid('a@mailinator.com'), common: dictionary['passwords-common'].includes('password') }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, timeout: 60_000 });
  expect(JSON.parse(stdout)).toEqual({ throwaway: true, common: true });
  expect(SHIPPED_PACKAGES.map((name) => existsSync(join(dir, 'node_modules', name, 'package.json')))).toEqual([true, true]);
  // With what they depend on (the password list is stored compressed).
  expect(existsSync(join(dir, 'node_modules', '@zxcvbn-ts', 'dictionary-compression', 'package.json'))).toBe(true);
}, 120_000);
