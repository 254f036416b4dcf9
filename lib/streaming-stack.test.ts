import { Match, Template } from 'aws-cdk-lib/assertions';
import { STATES } from '../lambdas/contract/stream-lifecycle';
import { synthesizeForTest } from './test-app';

const { stacks } = synthesizeForTest();
const streaming = Template.fromStack(stacks.streaming);
const api = Template.fromStack(stacks.api);
const media = Template.fromStack(stacks.media);

const definitionOf = (template: Template): Record<string, any> => {
  const machine = Object.values(template.findResources('AWS::StepFunctions::StateMachine'))[0]!;
  // DefinitionString is an Fn::Join of literal parts and tokens; the literal structure is what we check.
  const parts = (machine.Properties.DefinitionString['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : 'TOKEN'));
  return JSON.parse(parts.join(''));
};

describe('streaming stack', () => {
  test('the lifecycle state machine is the shared definition: RunTask .sync, lifecycle decision, backoff, handover', () => {
    const definition = definitionOf(streaming);
    expect(definition.StartAt).toBe(STATES.runTask);
    expect(definition.States[STATES.runTask]).toMatchObject({ Resource: 'arn:aws:states:::ecs:runTask.sync', Next: STATES.taskEnded });
    expect(definition.States[STATES.taskEnded].Resource).toBe('arn:aws:states:::lambda:invoke');
    expect(definition.States[STATES.handOver].Resource).toBe('arn:aws:states:::states:startExecution');
    // By family, so that a restart after a deploy runs the new revision (CloudFormation deregisters the old one).
    expect(definition.States[STATES.runTask].Parameters.TaskDefinition).toBe('loopcast-test-stream-task');
    streaming.hasResourceProperties('AWS::ECS::TaskDefinition', { Family: 'loopcast-test-stream-task' });
    streaming.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({
        Action: 'ecs:RunTask',
        Resource: { 'Fn::Join': ['', Match.arrayWith([':task-definition/loopcast-test-stream-task:*'])] },
      })]) },
    });
    streaming.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: 'loopcast-test-stream-lifecycle',
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: false }),
    });
  });

  test('stream tasks: Fargate ARM64, 0.25 vCPU / 0.5 GB, disk for large videos, no secrets in the environment', () => {
    streaming.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Cpu: '256',
      Memory: '512',
      EphemeralStorage: { SizeInGiB: 64 },
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      ContainerDefinitions: [Match.objectLike({ Name: 'stream-task', StopTimeout: 15 })],
    });
    const task = Object.values(streaming.findResources('AWS::ECS::TaskDefinition'))[0]!;
    const names = task.Properties.ContainerDefinitions[0].Environment.map((e: { Name: string }) => e.Name);
    expect(names.sort()).toEqual(['APP_TABLE', 'GOOGLE_SECRET_ARN', 'MEDIA_BUCKET', 'REALTIME_MANAGEMENT_URL', 'SECRETS_KEY_ARN', 'STAGE']);
  });

  test('no NAT gateway; tasks accept no inbound traffic', () => {
    streaming.resourceCountIs('AWS::EC2::NatGateway', 0);
    const groups = Object.values(streaming.findResources('AWS::EC2::SecurityGroup'));
    for (const group of groups) expect(group.Properties.SecurityGroupIngress).toBeUndefined();
  });

  test('billing enforcement and broadcast checks run every 5 minutes', () => {
    streaming.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)' });
  });
});

describe('media pipeline in AWS', () => {
  test('a MediaConvert queue per stage and job-state events of that queue reach a function, with a dead-letter queue', () => {
    media.hasResourceProperties('AWS::MediaConvert::Queue', { Name: 'loopcast-test-transcode', PricingPlan: 'ON_DEMAND' });
    api.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: Match.objectLike({ source: ['aws.mediaconvert'], 'detail-type': ['MediaConvert Job State Change'] }),
      Targets: [Match.objectLike({ DeadLetterConfig: Match.anyValue(), RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 8 }) })],
    });
  });

  test('uploads have their own function behind a Function URL (bytes never pass API Gateway)', () => {
    api.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'NONE', InvokeMode: 'BUFFERED' });
  });

  test('MediaConvert may only be handed the transcode role', () => {
    const policies = Object.values(api.findResources('AWS::IAM::Policy'));
    const passRoles = policies.flatMap((p) => p.Properties.PolicyDocument.Statement).filter((s: { Action: string }) => s.Action === 'iam:PassRole');
    expect(passRoles.length).toBeGreaterThan(0);
    for (const statement of passRoles) expect(statement.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'mediaconvert.amazonaws.com' } });
  });
});
