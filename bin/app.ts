// The CDK app: `npx cdk synth` (offline, no credentials, no Docker) or `npx cdk deploy --all -c stage=prod ...`
// (docs/deploy.md). cdk-nag's AWS Solutions checks run on every synth; findings fail it.
import { App, Validations } from 'aws-cdk-lib';
import { LoopcastChecks } from '../lib/constructs/nag';
import { createLoopcastStacks } from '../lib/loopcast-app';
import { dataPlanes, isDataPlane } from '../lambdas/contract/data-planes';
import type { StageConfig } from '../lib/stage';

const app = new App();
const context = (key: string): string | undefined => app.node.tryGetContext(key) ?? undefined;
const domain = context('domain');
const config: StageConfig = {
  stage: context('stage') ?? 'dev',
  domain,
  certificateArn: context('certificateArn'),
  alarmEmail: context('alarmEmail'),
  mailFrom: context('mailFrom') ?? `no-reply@${domain ?? 'loopcast.example.com'}`,
};
if (!/^[a-z][a-z0-9-]{0,15}$/.test(config.stage)) throw new Error(`stage "${config.stage}" must be lower-case letters, digits and dashes`);
const dataPlane = context('dataPlane');
if (dataPlane !== undefined) {
  if (!isDataPlane(dataPlane)) throw new Error(`dataPlane "${dataPlane}" must be one of ${dataPlanes.join(', ')}`);
  config.dataPlane = dataPlane;
}

createLoopcastStacks(app, config, { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });
Validations.of(app).addPlugins(new LoopcastChecks(app));
app.synth();
