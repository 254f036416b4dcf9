import { Match, Template } from 'aws-cdk-lib/assertions';
import { LIFECYCLE_TIMEOUTS, STATES } from '../lambdas/contract/stream-lifecycle';
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
  test('the lifecycle state machine is the shared definition: PrepareTask, RunTask .sync, lifecycle decision, backoff, handover, every timer explicit', () => {
    const definition = definitionOf(streaming);
    expect(definition.StartAt).toBe(STATES.prepareTask);
    expect(definition.TimeoutSeconds).toBe(LIFECYCLE_TIMEOUTS.executionSeconds);
    expect(definition.States[STATES.prepareTask]).toMatchObject({ Resource: 'arn:aws:states:::lambda:invoke', TimeoutSeconds: LIFECYCLE_TIMEOUTS.prepareSeconds });
    expect(definition.States[STATES.runTask]).toMatchObject({ Resource: 'arn:aws:states:::ecs:runTask.sync', Next: STATES.taskEnded, TimeoutSeconds: LIFECYCLE_TIMEOUTS.taskSeconds });
    for (const state of Object.values(definition.States) as { Type: string; TimeoutSeconds?: number }[]) {
      if (state.Type === 'Task') expect(state.TimeoutSeconds).toEqual(expect.any(Number));
    }
    // The run token reaches the task only through its container's environment, from PrepareTask's decision.
    expect(definition.States[STATES.runTask].Parameters.Overrides.ContainerOverrides[0].Environment).toContainEqual({ Name: 'LOOPCAST_TASK_TOKEN', 'Value.$': '$.prepared.decision.token' });
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

  test('stream tasks: Fargate ARM64, 0.25 vCPU / 0.5 GB, disk for large videos, nothing but the log level in the environment', () => {
    streaming.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Cpu: '256',
      Memory: '512',
      EphemeralStorage: { SizeInGiB: 64 },
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      ContainerDefinitions: [Match.objectLike({ Name: 'stream-task', StopTimeout: 15 })],
    });
    const task = Object.values(streaming.findResources('AWS::ECS::TaskDefinition'))[0]!;
    const names = task.Properties.ContainerDefinitions[0].Environment.map((e: { Name: string }) => e.Name);
    expect(names).toEqual(['POWERTOOLS_LOG_LEVEL']);
  });

  test('the task role has no permission at all: a compromised task reaches no table, key, bucket or secret', () => {
    const task = Object.values(streaming.findResources('AWS::ECS::TaskDefinition'))[0]!;
    const taskRoleId = task.Properties.TaskRoleArn['Fn::GetAtt'][0] as string;
    const role = streaming.findResources('AWS::IAM::Role')[taskRoleId]!;
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toBeUndefined();
    const attached = Object.values(streaming.findResources('AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy.Properties.Roles).includes(taskRoleId));
    expect(attached).toEqual([]);
  });

  test('the task API has its own function with what tasks need through it, and the lifecycle may end tasks of this cluster only', () => {
    const taskApi = Object.entries(api.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('StreamTasksFunction'));
    expect(taskApi).toBeDefined();
    streaming.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({
        Action: ['ecs:StopTask', 'ecs:DescribeTasks'],
        Resource: { 'Fn::Join': ['', Match.arrayWith([':task/loopcast-test-streams/*'])] },
      })]) },
    });
  });

  test('no NAT gateway; tasks accept no inbound traffic', () => {
    streaming.resourceCountIs('AWS::EC2::NatGateway', 0);
    const groups = Object.values(streaming.findResources('AWS::EC2::SecurityGroup'));
    for (const group of groups) expect(group.Properties.SecurityGroupIngress).toBeUndefined();
  });

  test('billing enforcement and broadcast checks run every 5 minutes, the reconciler every minute', () => {
    streaming.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)' });
    streaming.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
  });

  test('the reconciler may list this cluster\'s tasks (ListTasks conditioned on the cluster) and this lifecycle\'s executions', () => {
    streaming.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([
        Match.objectLike({ Action: 'ecs:ListTasks', Resource: '*', Condition: { ArnEquals: { 'ecs:cluster': Match.anyValue() } } }),
        Match.objectLike({ Action: 'states:ListExecutions' }),
      ]) },
    });
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
