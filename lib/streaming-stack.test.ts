import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { LIFECYCLE_TIMEOUTS, STATES } from '../lambdas/contract/stream-lifecycle';
import { UPLOADS_FUNCTION_ENVIRONMENT } from '../lambdas/uploads/process-environment';
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
    expect(definition.States[STATES.prepareTask]).toMatchObject({
      Resource: 'arn:aws:states:::lambda:invoke',
      TimeoutSeconds: LIFECYCLE_TIMEOUTS.prepareSeconds,
    });
    expect(definition.States[STATES.runTask]).toMatchObject({
      Resource: 'arn:aws:states:::ecs:runTask.sync',
      Next: STATES.taskEnded,
      TimeoutSeconds: LIFECYCLE_TIMEOUTS.taskSeconds,
    });
    for (const state of Object.values(definition.States) as { Type: string; TimeoutSeconds?: number }[]) {
      if (state.Type === 'Task') expect(state.TimeoutSeconds).toEqual(expect.any(Number));
    }
    // The run token reaches the task only through its container's environment, from PrepareTask's decision; on
    // Fargate the disk PrepareTask decided is merged in.
    expect(definition.States[STATES.taskOverrides].Parameters.overrides.ContainerOverrides[0].Environment).toContainEqual({
      Name: 'LOOPCAST_TASK_TOKEN',
      'Value.$': '$.prepared.decision.token',
    });
    expect(definition.States[STATES.runTask].Parameters).toMatchObject({
      'Overrides.$': 'States.JsonMerge($.task.overrides, $.prepared.decision.fargateOverrides, false)',
      CapacityProviderStrategy: [{ CapacityProvider: 'FARGATE', Weight: 1 }],
      NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: 'ENABLED' } },
    });
    expect(definition.States[STATES.runTask].Parameters.LaunchType).toBeUndefined();
    expect(definition.States[STATES.taskEnded].Resource).toBe('arn:aws:states:::lambda:invoke');
    expect(definition.States[STATES.handOver].Resource).toBe('arn:aws:states:::states:startExecution');
    // By family, so that a restart after a deploy runs the new revision (CloudFormation deregisters the old one).
    expect(definition.States[STATES.runTask].Parameters.TaskDefinition).toBe('loopcast-test-stream-task');
    streaming.hasResourceProperties('AWS::ECS::TaskDefinition', { Family: 'loopcast-test-stream-task' });
    streaming.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 'ecs:RunTask',
            Resource: { 'Fn::Join': ['', Match.arrayWith([':task-definition/loopcast-test-stream-task:*'])] },
          }),
        ]),
      },
    });
    streaming.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: 'loopcast-test-stream-lifecycle',
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: false }),
    });
  });

  test('stream tasks: Fargate ARM64, 0.25 vCPU / 0.5 GB, the free 20 GiB disk (PrepareTask asks for more per task), nothing but the log level in the environment', () => {
    streaming.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Cpu: '256',
      Memory: '512',
      RequiresCompatibilities: ['FARGATE'],
      NetworkMode: 'awsvpc',
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      ContainerDefinitions: [Match.objectLike({ Name: 'stream-task', StopTimeout: 15 })],
    });
    const task = Object.values(streaming.findResources('AWS::ECS::TaskDefinition'))[0]!;
    expect(task.Properties.EphemeralStorage).toBeUndefined();
    const names = task.Properties.ContainerDefinitions[0].Environment.map((e: { Name: string }) => e.Name);
    expect(names).toEqual(['POWERTOOLS_LOG_LEVEL']);
  });

  test('the task role has no permission at all: a compromised task reaches no table, key, bucket or secret', () => {
    const task = Object.values(streaming.findResources('AWS::ECS::TaskDefinition'))[0]!;
    const taskRoleId = task.Properties.TaskRoleArn['Fn::GetAtt'][0] as string;
    const role = streaming.findResources('AWS::IAM::Role')[taskRoleId]!;
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toBeUndefined();
    const attached = Object.values(streaming.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.Roles).includes(taskRoleId),
    );
    expect(attached).toEqual([]);
  });

  test('the task API has its own function with what tasks need through it, and the lifecycle may end tasks of this cluster only', () => {
    const taskApi = Object.entries(api.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('StreamTasksFunction'));
    expect(taskApi).toBeDefined();
    streaming.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['ecs:StopTask', 'ecs:DescribeTasks'],
            Resource: { 'Fn::Join': ['', Match.arrayWith([':task/loopcast-test-streams/*'])] },
          }),
        ]),
      },
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

  test("the reconciler may list this cluster's tasks (ListTasks conditioned on the cluster) and this lifecycle's executions", () => {
    streaming.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 'ecs:ListTasks', Resource: '*', Condition: { ArnEquals: { 'ecs:cluster': Match.anyValue() } } }),
          Match.objectLike({ Action: 'states:ListExecutions' }),
        ]),
      },
    });
  });
});

test("streams' schedules: one EventBridge Scheduler group per stage, a role Scheduler alone may assume (this account, this group) to invoke the schedule function only; no polling rule", () => {
  streaming.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'loopcast-test-streams' });
  streaming.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'loopcast-test-stream-schedule', Timeout: 240 });
  streaming.hasResourceProperties('AWS::IAM::Role', {
    RoleName: 'loopcast-test-stream-schedules',
    AssumeRolePolicyDocument: {
      Statement: [
        Match.objectLike({
          Principal: { Service: 'scheduler.amazonaws.com' },
          Condition: { StringEquals: { 'aws:SourceAccount': Match.anyValue() }, ArnLike: { 'aws:SourceArn': Match.anyValue() } },
        }),
      ],
    },
  });
  const roles = streaming.findResources('AWS::IAM::Role', { Properties: { RoleName: 'loopcast-test-stream-schedules' } });
  const [roleId] = Object.keys(roles);
  const policies = Object.values(streaming.findResources('AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy.Properties.Roles).includes(roleId!));
  expect(policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement.map((statement: { Action: unknown }) => statement.Action))).toEqual([
    'lambda:InvokeFunction',
  ]);
  // The schedule function and the streams routes set schedules of this stage's group only, passing that role only.
  for (const template of [streaming, api]) {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
            Resource: { 'Fn::Join': ['', Match.arrayWith([':schedule/loopcast-test-streams/*'])] },
          }),
          Match.objectLike({ Action: 'iam:PassRole', Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } }),
        ]),
      },
    });
  }
  expect(Object.keys(streaming.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: 'rate(1 minute)' } }))).toHaveLength(1);
});

describe('Fargate options', () => {
  test('-c spot=true: every task on Fargate Spot', () => {
    const definition = definitionOf(Template.fromStack(synthesizeForTest({ spot: true }).stacks.streaming));
    expect(definition.States[STATES.runTask].Parameters.CapacityProviderStrategy).toEqual([{ CapacityProvider: 'FARGATE_SPOT', Weight: 1 }]);
  });

  test('-c taskNetwork=ipv6-only: IPv6-only subnets, no public IPv4 for any task, outbound IPv6 allowed, still no NAT gateway', () => {
    const template = Template.fromStack(synthesizeForTest({ taskNetwork: 'ipv6-only' }).stacks.streaming);
    const subnets = Object.values(template.findResources('AWS::EC2::Subnet'));
    expect(subnets).toHaveLength(2);
    for (const subnet of subnets) {
      expect(subnet.Properties).toMatchObject({
        Ipv6Native: true,
        AssignIpv6AddressOnCreation: true,
        EnableDns64: false,
        MapPublicIpOnLaunch: false,
        Ipv6CidrBlock: expect.anything(),
      });
      expect(subnet.Properties.CidrBlock).toBeUndefined();
    }
    template.hasResourceProperties('AWS::EC2::VPCCidrBlock', { AmazonProvidedIpv6CidrBlock: true });
    template.hasResourceProperties('AWS::EC2::Route', { DestinationIpv6CidrBlock: '::/0', GatewayId: Match.anyValue() });
    template.hasResourceProperties('AWS::EC2::SecurityGroup', { SecurityGroupEgress: Match.arrayWith([Match.objectLike({ CidrIpv6: '::/0' })]) });
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::EIP', 0);
    const definition = definitionOf(template);
    expect(definition.States[STATES.runTask].Parameters.NetworkConfiguration.AwsvpcConfiguration.AssignPublicIp).toBe('DISABLED');
    // The image through ECR's dual-stack registry endpoint, which ECS requires of IPv6-only tasks.
    const task = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!;
    const joined = (value: { 'Fn::Join': [string, unknown[]] }) =>
      value['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('');
    expect(joined(task.Properties.ContainerDefinitions[0].Image)).toMatch(
      /^\{"Ref":"AWS::AccountId"\}\.dkr-ecr\.\{"Ref":"AWS::Region"\}\.on\.aws\/\{"Fn::Sub":"cdk-[a-z0-9]+-container-assets-/,
    );
    const defaults = Object.values(streaming.findResources('AWS::ECS::TaskDefinition'))[0]!;
    expect(JSON.stringify(defaults.Properties.ContainerDefinitions[0].Image)).toContain('.dkr.ecr.');
  });
});

/** The platforms the stack's container images are built for, from its asset manifest (what `cdk deploy` builds). */
function imagePlatforms(synthesized: ReturnType<typeof synthesizeForTest>): string[] {
  const assembly = synthesized.app.synth();
  const manifest = JSON.parse(readFileSync(join(assembly.directory, `${synthesized.stacks.streaming.artifactId}.assets.json`), 'utf8')) as {
    dockerImages: Record<string, { source: { platform?: string } }>;
  };
  return Object.values(manifest.dockerImages).map((image) => image.source.platform ?? 'none');
}

describe('external data plane (ECS Anywhere)', () => {
  const synthesized = synthesizeForTest({ dataPlane: 'external' });
  const template = Template.fromStack(synthesized.stacks.streaming);

  test('the lifecycle runs the same task with LaunchType EXTERNAL: no capacity provider, no awsvpc networking, no disk override, spread over the hosts', () => {
    const definition = definitionOf(template);
    expect(definition.States[STATES.runTask].Resource).toBe('arn:aws:states:::ecs:runTask.sync');
    const parameters = definition.States[STATES.runTask].Parameters;
    expect(parameters).toMatchObject({
      LaunchType: 'EXTERNAL',
      TaskDefinition: 'loopcast-test-stream-task',
      PlacementStrategy: [{ Type: 'spread', Field: 'instanceId' }],
      'Overrides.$': '$.task.overrides',
    });
    expect(parameters.CapacityProviderStrategy).toBeUndefined();
    expect(parameters.NetworkConfiguration).toBeUndefined();
    expect(definition.States[STATES.taskOverrides].Parameters.overrides.ContainerOverrides[0].Environment).toContainEqual({
      Name: 'LOOPCAST_TASK_TOKEN',
      'Value.$': '$.prepared.decision.token',
    });
  });

  test('an external task definition whose reservations pack copy loops: 20 CPU units and 192 MiB reserved, 512 MiB at most, bridge networking, amd64 image', () => {
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Family: 'loopcast-test-stream-task',
      RequiresCompatibilities: ['EXTERNAL'],
      NetworkMode: 'bridge',
      ContainerDefinitions: [
        Match.objectLike({
          Name: 'stream-task',
          Cpu: 20,
          MemoryReservation: 192,
          Memory: 512,
          StopTimeout: 15,
          LogConfiguration: Match.objectLike({ LogDriver: 'awslogs' }),
        }),
      ],
    });
    const task = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!;
    expect(task.Properties.Cpu).toBeUndefined();
    expect(task.Properties.EphemeralStorage).toBeUndefined();
  });

  test('a stage switching planes keeps its cluster and task definition family: the same logical ids', () => {
    const ids = (t: Template, type: string) => Object.keys(t.findResources(type));
    expect(ids(template, 'AWS::ECS::Cluster')).toEqual(ids(streaming, 'AWS::ECS::Cluster'));
    expect(ids(template, 'AWS::ECS::TaskDefinition')).toEqual(ids(streaming, 'AWS::ECS::TaskDefinition'));
  });

  test('no VPC, no subnet, no security group, no NAT: hosts join the cluster from anywhere; the cluster has Container Insights', () => {
    for (const type of ['AWS::EC2::VPC', 'AWS::EC2::Subnet', 'AWS::EC2::SecurityGroup', 'AWS::EC2::NatGateway']) template.resourceCountIs(type, 0);
    template.hasResourceProperties('AWS::ECS::Cluster', {
      ClusterName: 'loopcast-test-streams',
      ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }],
    });
    template.resourceCountIs('AWS::ECS::ClusterCapacityProviderAssociations', 0);
  });

  test("the hosts' role, as AWS documents for ECS Anywhere: trusted by SSM of this account, the SSM and ECS agents' managed policies; an output makes the activation", () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      RoleName: 'loopcast-test-stream-hosts',
      AssumeRolePolicyDocument: {
        Statement: [
          Match.objectLike({
            Principal: { Service: 'ssm.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': Match.anyValue() }, ArnLike: { 'aws:SourceArn': Match.anyValue() } },
          }),
        ],
      },
      ManagedPolicyArns: [
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/AmazonSSMManagedInstanceCore']] },
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/service-role/AmazonEC2ContainerServiceforEC2Role']] },
      ],
    });
    const outputs = template.findOutputs('*');
    expect(JSON.stringify(outputs.StreamHostActivation!.Value)).toContain('aws ssm create-activation');
    expect(JSON.stringify(outputs.StreamHostActivation!.Value)).toContain('--iam-role loopcast-test-stream-hosts');
    expect(JSON.stringify(outputs.StreamHostInstall!.Value)).toContain('--cluster loopcast-test-streams');
  });

  test('the task role has no permission at all on this plane either', () => {
    const task = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!;
    const taskRoleId = task.Properties.TaskRoleArn['Fn::GetAtt'][0] as string;
    expect(template.findResources('AWS::IAM::Role')[taskRoleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    const attached = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy.Properties.Roles).includes(taskRoleId));
    expect(attached).toEqual([]);
  });

  test('the image is built for amd64 hosts, or ARM ones with -c hostArch=arm64 (Fargate tasks are ARM64)', () => {
    expect(imagePlatforms(synthesized)).toEqual(['linux/amd64']);
    expect(imagePlatforms(synthesizeForTest({ dataPlane: 'external', hostArchitecture: 'arm64' }))).toEqual(['linux/arm64']);
    expect(imagePlatforms(synthesizeForTest())).toEqual(['linux/arm64']);
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

  test("the uploads function runs with its process settings: V8's generations and glibc's allocator, as bench:upload measured them", () => {
    api.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('tus uploads'),
      Environment: { Variables: Match.objectLike(UPLOADS_FUNCTION_ENVIRONMENT) },
    });
  });

  test("MediaConvert may only be handed the transcode role, Scheduler only the stream schedules' role", () => {
    const policies = Object.values(api.findResources('AWS::IAM::Policy'));
    const passRoles = policies.flatMap((p) => p.Properties.PolicyDocument.Statement).filter((s: { Action: string }) => s.Action === 'iam:PassRole');
    const byService = (service: string) => passRoles.filter((statement) => statement.Condition?.StringEquals?.['iam:PassedToService'] === service);
    expect(byService('mediaconvert.amazonaws.com').length).toBeGreaterThan(0);
    expect(byService('scheduler.amazonaws.com').length).toBeGreaterThan(0);
    expect(byService('mediaconvert.amazonaws.com').length + byService('scheduler.amazonaws.com').length).toBe(passRoles.length);
    for (const statement of byService('scheduler.amazonaws.com')) expect(JSON.stringify(statement.Resource)).toContain(':role/loopcast-test-stream-schedules');
    for (const statement of byService('mediaconvert.amazonaws.com')) expect(JSON.stringify(statement.Resource)).not.toContain('stream-schedules');
  });
});
