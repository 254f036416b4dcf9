// Builds the whole CDK app for tests, without bundling Lambdas (fast) unless asked.
import { App, type Environment } from 'aws-cdk-lib';
import { createLoopcastStacks, type LoopcastStacks } from './loopcast-app';
import type { StageConfig } from './stage';

export function synthesizeForTest(
  config: Partial<StageConfig> = {},
  options: { bundle?: boolean; env?: Environment } = {},
): { app: App; stacks: LoopcastStacks } {
  const app = new App({
    context: {
      '@aws-cdk/core:defaultCrossStackReferences': 'strong',
      ...(options.bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] }),
    },
  });
  const stacks = createLoopcastStacks(app, { stage: 'test', mailFrom: 'no-reply@loopcast.test', ...config }, options.env);
  return { app, stacks };
}
