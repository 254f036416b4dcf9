// The Lambda bundles CDK builds with the local esbuild must run as they are: this synthesizes the API stack with
// bundling on and invokes the bundled system handler in a separate Node process against the local stand-ins.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalStack } from '../local/stack';
import { apiEvent, testContext } from '../test/helpers/api-event';
import { startTestStack } from '../test/helpers/stack';
import { synthesizeForTest } from './test-app';

let stack: LocalStack;
beforeAll(async () => { stack = await startTestStack(); });
afterAll(() => stack.stop());

function bundledHandlerDir(outdir: string, functionDescription: string): string {
  const template = JSON.parse(readFileSync(join(outdir, 'Loopcast-test-Api.template.json'), 'utf8'));
  const fn = Object.values<{ Type: string; Properties: { Description?: string }; Metadata?: Record<string, string> }>(template.Resources)
    .find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description?.includes(functionDescription));
  const assetPath = fn?.Metadata?.['aws:asset:path'];
  if (!assetPath) throw new Error('no bundled asset for the function');
  return join(outdir, assetPath);
}

// Asynchronous on purpose: s3rver may live in this very process (jest in band), a sync child would deadlock it.
test('the bundled system handler (ESM, Node 24) answers GET /api/health', async () => {
  const { app } = synthesizeForTest({}, { bundle: true });
  const outdir = app.synth().directory;
  const dir = bundledHandlerDir(outdir, 'system routes');
  expect(readdirSync(dir)).toContain('index.mjs');
  expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);

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
      LOOPCAST_DYNAMODB_ENDPOINT: stack.urls.dynamodb,
      LOOPCAST_S3_ENDPOINT: stack.urls.s3,
      AWS_REGION: 'us-east-1',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    },
  });
  const result = JSON.parse(stdout);
  expect(result.statusCode).toBe(200);
  expect(JSON.parse(result.body)).toMatchObject({ status: 'ok', dependencies: { dynamodb: { status: 'up' }, s3: { status: 'up' } } });
}, 120_000);
