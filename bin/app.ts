// The CDK app: `npx cdk synth` (offline, no credentials, no Docker) or `npx cdk deploy --all -c stage=prod ...`
// (docs/deploy.md). cdk-nag's AWS Solutions checks run on every synth; findings fail it.
import { App, Validations } from 'aws-cdk-lib';
import { LoopcastChecks } from '../lib/constructs/nag';
import { createLoopcastStacks } from '../lib/loopcast-app';
import { stageConfigFromContext } from '../lib/stage';

const app = new App();
const config = stageConfigFromContext((key) => app.node.tryGetContext(key));

createLoopcastStacks(app, config, { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });
Validations.of(app).addPlugins(new LoopcastChecks(app));
app.synth();
