// Builds the whole CDK app for tests, with cdk.json's feature flags, without bundling Lambdas (fast) unless asked.
// CDK's own CloudFormation validation (a WASM rules engine, 3-4 s of CPU a synth, 60 % of one) runs only where a test
// asks for it: app.test.ts runs it once for every deployment option, as `cdk synth` does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type Environment } from 'aws-cdk-lib';
import { createLoopcastStacks, type LoopcastStacks } from './loopcast-app';
import type { StageConfig } from './stage';

/** cdk.json's context without the stage, which each test chooses. */
function cdkJsonFlags(): Record<string, unknown> {
  const { stage: _stage, ...flags } = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'cdk.json'), 'utf8')) as { context: Record<string, unknown> })
    .context;
  return flags;
}

export function synthesizeForTest(
  config: Partial<StageConfig> = {},
  options: { bundle?: boolean; env?: Environment; validate?: boolean; context?: Record<string, unknown> } = {},
): { app: App; stacks: LoopcastStacks } {
  const app = new App({
    builtinCloudFormationValidation: options.validate ?? false,
    context: {
      ...cdkJsonFlags(),
      ...(options.bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] }),
      ...options.context,
    },
  });
  const stacks = createLoopcastStacks(app, { stage: 'test', mailFrom: 'no-reply@loopcast.test', ...config }, options.env);
  return { app, stacks };
}
