import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CfnElement, Environment } from 'aws-cdk-lib';
import { VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { handlerGroups, routes } from '../lambdas/contract/routes';
import { appTable } from '../lambdas/contract/tables';
import { LoopcastChecks } from './constructs/nag';
import { stageConfigFromContext, type StageConfig } from './stage';
import { synthesizeForTest } from './test-app';

/** The part of CDK's validation report (validation-report.json in the assembly) the test reads. */
type ValidationReport = { pluginReports: { pluginName: string; violations: { ruleName: string; description: string }[] }[] };

const { stacks } = synthesizeForTest();
const template = (stack: keyof typeof stacks) => Template.fromStack(stacks[stack]);

describe('CDK app', () => {
  // cdk-nag runs on the synthesized tree, as `cdk synth` runs it: cross-stack references are exports by then, and
  // a deploy's stacks carry their account and region (which end up in the findings' ids). Every deployment option of
  // the streaming stack (docs/deploy.md, "Context keys") is synthesized and checked, by cdk-nag and by CDK's own
  // CloudFormation validation (its rules engine; cdk.json makes its errors fail `cdk synth`), whose report must be
  // empty: no error and no warning.
  test.each([
    ['default options, environment-agnostic', {}, undefined],
    ['default options, deployed to an account and region', {}, { account: '123456789012', region: 'eu-west-1' }],
    ['Fargate Spot, IPv6-only task network', { spot: true, taskNetwork: 'ipv6-only' }, { account: '123456789012', region: 'eu-west-1' }],
    ['the external data plane (ECS Anywhere), amd64 hosts', { dataPlane: 'external' }, undefined],
    ['the external data plane, ARM hosts, deployed', { dataPlane: 'external', hostArchitecture: 'arm64' }, { account: '123456789012', region: 'eu-west-1' }],
  ] as [string, Partial<StageConfig>, Environment | undefined][])('cdk-nag AWS Solutions: no unacknowledged finding in any stack (%s)', (_, config, env) => {
    const synthesized = synthesizeForTest(config, { validate: true, ...(env ? { env } : {}) }).app;
    const assembly = synthesized.synth();
    const report = new LoopcastChecks(synthesized).validateScope(synthesized);
    const findings = report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
    const validation = JSON.parse(readFileSync(join(assembly.directory, VALIDATION_REPORT_FILE), 'utf8')) as ValidationReport;
    expect(validation.pluginReports.map((plugin) => plugin.pluginName)).toEqual(['CloudFormation Validate']);
    expect(validation.pluginReports.flatMap((plugin) => plugin.violations.map((v) => `${v.ruleName}: ${v.description}`))).toEqual([]);
  });

  test('stage options from the CDK context: checked values, Fargate-only and external-only settings refused on the other plane', () => {
    const context = (values: Record<string, unknown>) => (key: string) => values[key];
    expect(stageConfigFromContext(context({}))).toEqual({
      stage: 'dev',
      mailFrom: 'no-reply@loopcast.example.com',
      domain: undefined,
      certificateArn: undefined,
      alarmEmail: undefined,
    });
    expect(stageConfigFromContext(context({ stage: 'prod', spot: 'true', taskNetwork: 'ipv6-only' }))).toMatchObject({
      stage: 'prod',
      spot: true,
      taskNetwork: 'ipv6-only',
    });
    expect(stageConfigFromContext(context({ spot: true }))).toMatchObject({ spot: true }); // a boolean in cdk.json
    expect(stageConfigFromContext(context({ spot: 'false' }))).toMatchObject({ spot: false });
    expect(stageConfigFromContext(context({ dataPlane: 'external', hostArch: 'arm64' }))).toMatchObject({ dataPlane: 'external', hostArchitecture: 'arm64' });
    expect(() => stageConfigFromContext(context({ dataPlane: 'anywhere' }))).toThrow('dataPlane "anywhere" must be one of fargate, external');
    expect(() => stageConfigFromContext(context({ spot: 'yes' }))).toThrow('spot "yes" must be one of true, false');
    expect(() => stageConfigFromContext(context({ taskNetwork: 'ipv6' }))).toThrow('taskNetwork "ipv6" must be one of public-ipv4, ipv6-only');
    expect(() => stageConfigFromContext(context({ dataPlane: 'external', spot: 'true' }))).toThrow('settings of the fargate data plane');
    expect(() => stageConfigFromContext(context({ hostArch: 'arm64' }))).toThrow('setting of the external data plane');
    expect(() => stageConfigFromContext(context({ stage: 'Prod' }))).toThrow('lower-case');
  });

  test('the table follows the shared definition, with PITR and TTL', () => {
    template('data').hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: appTable.partitionKey, KeyType: 'HASH' },
        { AttributeName: appTable.sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: appTable.ttlAttribute, Enabled: true },
      GlobalSecondaryIndexes: appTable.indexes.map((index) => Match.objectLike({ IndexName: index.name })),
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 30 } })],
    });
  });

  test('the media bucket is private, encrypted, TLS-only and aborts abandoned multipart uploads', () => {
    const media = template('media');
    media.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 }, Status: 'Enabled' })]) },
    });
    media.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('every bucket of every stack aborts abandoned multipart uploads', () => {
    const buckets = Object.values(stacks).flatMap((stack) => Object.entries(Template.fromStack(stack).findResources('AWS::S3::Bucket')));
    expect(buckets.length).toBeGreaterThanOrEqual(3);
    for (const [id, bucket] of buckets) {
      const rules = (bucket.Properties?.LifecycleConfiguration?.Rules ?? []) as { AbortIncompleteMultipartUpload?: { DaysAfterInitiation: number } }[];
      expect({ id, aborts: rules.some((rule) => (rule.AbortIncompleteMultipartUpload?.DaysAfterInitiation ?? 0) > 0) }).toEqual({ id, aborts: true });
    }
  });

  test('data is retained in prod and destroyed in other stages', () => {
    const prod = synthesizeForTest({ stage: 'prod' }).stacks;
    Template.fromStack(prod.data).hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain' });
    Template.fromStack(prod.media).hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
    template('data').hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
  });

  test('Node 24 ARM64 functions, one per handler group, one API route per table entry plus $default', () => {
    const api = template('api');
    const functions = Object.values(api.findResources('AWS::Lambda::Function'));
    for (const fn of functions) expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'] });
    for (const group of handlerGroups()) {
      expect(functions.filter((fn) => fn.Properties.Description === `Loopcast test: API ${group} routes`)).toHaveLength(1);
    }
    for (const route of routes) {
      api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} /api${route.path}` });
    }
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
    const httpApiId = stacks.api.getLogicalId(stacks.api.httpApi.node.defaultChild as CfnElement);
    api.resourcePropertiesCountIs('AWS::ApiGatewayV2::Route', { ApiId: { Ref: httpApiId } }, routes.length + 1);
  });

  test('no function loads source maps at run time: Node parsing a 9 MB map cost each cold start 80-100 ms and 40 MiB', () => {
    const functions = (['api', 'streaming'] as const).flatMap((name) => Object.values(template(name).findResources('AWS::Lambda::Function')));
    expect(functions.length).toBeGreaterThan(10);
    for (const fn of functions) expect(String(fn.Properties.Environment?.Variables?.NODE_OPTIONS ?? '')).not.toContain('--enable-source-maps');
  });

  test('the realtime WebSocket API authorizes $connect with the token in the query string', () => {
    const api = template('api');
    api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', { AuthorizerType: 'REQUEST', IdentitySource: ['route.request.querystring.token'] });
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$connect', AuthorizationType: 'CUSTOM' });
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$disconnect' });
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'live', AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }) });
  });

  test('functions use their own role, not the AWS managed basic execution role', () => {
    const roles = template('api').findResources('AWS::IAM::Role');
    for (const role of Object.values(roles)) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  test('stream tasks get a VPC without NAT gateways', () => {
    const streaming = template('streaming');
    streaming.resourceCountIs('AWS::EC2::NatGateway', 0);
    streaming.hasResourceProperties('AWS::ECS::Cluster', { ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }] });
  });

  test('5xx alarms notify the alarm topic, which e-mails the operator when configured', () => {
    const ops = Template.fromStack(synthesizeForTest({ alarmEmail: 'ops@example.com' }).stacks.ops);
    ops.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    ops.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmActions: [Match.anyValue()], Threshold: 5 });
  });
});
