import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { FlowLogDestination, FlowLogTrafficType, SecurityGroup, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { Cluster, ContainerImage, ContainerInsights, CpuArchitecture, FargateTaskDefinition, LogDrivers, OperatingSystemFamily } from 'aws-cdk-lib/aws-ecs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { IgnoreMode } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { fargateStreamTask } from '../lambdas/contract/data-planes';
import { STREAM_TASK_CONTAINER, streamLifecycleDefinition } from '../lambdas/contract/stream-lifecycle';
import { streamClusterName, streamLifecycleName, streamTaskFamily, type ApiStack } from './api-stack';
import { repoRoot } from './constructs/handler-function';
import type { HandlerFunction } from './constructs/handler-function';
import { acknowledgeFindings } from './constructs/nag';
import type { StageConfig } from './stage';

export interface StreamingStackProps extends StackProps {
  api: ApiStack;
}

/**
 * Where the 24/7 loops run: the stream lifecycle state machine, which keeps one Fargate task per running stream
 * (ARM64, 0.25 vCPU / 0.5 GB: stream copy needs ~1 % of a core), restarts it when it dies, and stops it on request.
 * Tasks run in public subnets with an egress-only security group and no NAT gateway (a NAT would cost more than
 * the loops; tasks only dial out to RTMP destinations and Loopcast's task API).
 */
export class StreamingStack extends Stack {
  readonly vpc: Vpc;
  readonly cluster: Cluster;
  readonly taskSecurityGroup: SecurityGroup;
  readonly taskDefinition: FargateTaskDefinition;
  readonly stateMachine: StateMachine;
  readonly lifecycleFunction: HandlerFunction;
  readonly lifecycleFailedFunction: HandlerFunction;
  readonly reconcilerFunction: HandlerFunction;
  readonly taskLogGroup: LogGroup;

  constructor(scope: Construct, id: string, config: StageConfig, props: StreamingStackProps) {
    super(scope, id, props);
    const { api } = props;
    this.vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 22 }],
      flowLogs: { rejected: { destination: FlowLogDestination.toCloudWatchLogs(), trafficType: FlowLogTrafficType.REJECT } },
    });
    this.cluster = new Cluster(this, 'Cluster', {
      vpc: this.vpc,
      clusterName: streamClusterName(config),
      containerInsightsV2: ContainerInsights.ENABLED,
      enableFargateCapacityProviders: true,
    });
    this.taskSecurityGroup = new SecurityGroup(this, 'TaskSecurityGroup', {
      vpc: this.vpc,
      description: 'Stream tasks: no inbound traffic, outbound to RTMP destinations and AWS APIs',
      allowAllOutbound: true,
    });

    this.taskDefinition = new FargateTaskDefinition(this, 'StreamTask', {
      family: streamTaskFamily(config),
      cpu: fargateStreamTask.cpuUnits,
      memoryLimitMiB: fargateStreamTask.memoryMiB,
      ephemeralStorageGiB: fargateStreamTask.ephemeralStorageGiB,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    this.taskLogGroup = new LogGroup(this, 'StreamTaskLogs', { retention: RetentionDays.ONE_MONTH });
    this.taskDefinition.addContainer(STREAM_TASK_CONTAINER, {
      image: ContainerImage.fromAsset(repoRoot, {
        file: 'stream-task/Dockerfile',
        platform: Platform.LINUX_ARM64,
        ignoreMode: IgnoreMode.DOCKER,
        // Only what the image build reads; everything else (node_modules, cdk.out, .data) stays out of the asset.
        exclude: ['*', '!package.json', '!package-lock.json', '!tsconfig.json', '!lambdas', '!stream-task'],
      }),
      logging: LogDrivers.awsLogs({ streamPrefix: 'stream', logGroup: this.taskLogGroup }),
      // Nothing else: the lifecycle gives each task its run, its run token and the task API's URL
      // (lambdas/contract/stream-lifecycle.ts), and the task reaches Loopcast only through that API.
      environment: { POWERTOOLS_LOG_LEVEL: 'INFO' },
      // The supervisor stops ffmpeg and exits within seconds of SIGTERM, even when ffmpeg is blocked.
      stopTimeout: Duration.seconds(15),
    });
    // The task role gets no permission at all: no table, no key, no bucket, no secret. A compromised task (ffmpeg
    // talks to servers creators choose) holds only its own run token, which the task API honours for its own run's
    // lease, spec, heartbeat and preview frame while it holds the lease (docs/security.md).
    acknowledgeFindings(this.taskDefinition, 'AwsSolutions-IAM5', 'The execution role pulls this task\'s image and writes its log group (CDK grants).');
    Validations.of(this.taskDefinition).acknowledge({ id: 'AwsSolutions-ECS2', reason: 'The only variable is the log level; the run token comes per task from the lifecycle.' });

    // PrepareTask waits up to 30 s for an earlier task to stop (ECS stopTimeout 15 s); its state allows 120 s.
    const lifecycle = this.lifecycleFunction = api.handlerFunction(this, 'LifecycleFunction', 'workflow/lifecycle.ts', 'stream lifecycle decisions', Duration.seconds(90));
    api.grantRealtimePublish(lifecycle);
    api.grantStreamTasks(lifecycle);
    acknowledgeFindings(lifecycle.role!, 'AwsSolutions-IAM5', 'Realtime connection ids are created at connect time; X-Ray has no resource-level permissions.');

    const capacityProvider = this.node.tryGetContext('spot') === 'true' ? 'FARGATE_SPOT' : 'FARGATE';
    this.stateMachine = new StateMachine(this, 'StreamLifecycle', {
      stateMachineName: streamLifecycleName(config),
      definitionBody: DefinitionBody.fromString(Stack.of(this).toJsonString(streamLifecycleDefinition({
        clusterArn: this.cluster.clusterArn,
        taskDefinitionFamily: this.taskDefinition.family,
        subnets: this.vpc.publicSubnets.map((subnet) => subnet.subnetId),
        securityGroups: [this.taskSecurityGroup.securityGroupId],
        capacityProvider,
        lifecycleFunctionArn: lifecycle.functionArn,
      }))),
      tracingEnabled: true,
      logs: { destination: new LogGroup(this, 'StreamLifecycleLogs', { retention: RetentionDays.THREE_MONTHS }), level: LogLevel.ALL, includeExecutionData: false },
    });
    this.grantLifecycle(lifecycle.functionArn, api.streamLifecycleArn);

    // A failed execution (not a failed task) would leave its stream `pending`: stop it with the reason.
    const failed = this.lifecycleFailedFunction = api.handlerFunction(this, 'LifecycleFailedFunction', 'events/lifecycle-failed.ts', 'stops streams whose lifecycle failed', Duration.seconds(60));
    api.grantRealtimePublish(failed);
    api.grantStreamTasks(failed);
    api.grantYouTube(failed);
    acknowledgeFindings(failed.role!, 'AwsSolutions-IAM5', 'Realtime connection ids are created at connect time; X-Ray has no resource-level permissions.');
    new Rule(this, 'LifecycleFailedRule', {
      description: 'Stream lifecycle executions that failed or timed out',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [api.streamLifecycleArn], status: ['FAILED', 'TIMED_OUT'] },
      },
      targets: [new LambdaFunction(failed, { retryAttempts: 8 })],
    });

    // Every 5 minutes: streams stop when the plan ended or a failed payment outlived its grace; YouTube broadcasts
    // that YouTube ended are made again.
    const upkeep = api.handlerFunction(this, 'StreamUpkeepFunction', 'events/stream-upkeep.ts', 'billing enforcement and broadcast checks', Duration.minutes(4));
    api.grantRealtimePublish(upkeep);
    api.grantStreamLifecycle(upkeep, ['states:StopExecution']);
    api.grantStreamTasks(upkeep);
    api.grantYouTube(upkeep);
    api.grantAlerts(upkeep);
    acknowledgeFindings(upkeep.role!, 'AwsSolutions-IAM5', 'It stops any running execution of this stage\'s lifecycle; realtime connection ids are dynamic.');
    new Rule(this, 'StreamUpkeepSchedule', { schedule: Schedule.rate(Duration.minutes(5)), targets: [new LambdaFunction(upkeep)] });

    // Every minute: orphaned tasks ended, runs whose execution is gone relaunched, silent tasks restarted, cut-short
    // stops finished (lambdas/core/streams/reconcile.ts). One at a time: a run is moved by a conditional write anyway.
    const reconciler = this.reconcilerFunction = api.handlerFunction(this, 'StreamReconcilerFunction', 'events/stream-reconciler.ts', 'desired vs actual stream tasks', Duration.seconds(55));
    api.grantRealtimePublish(reconciler);
    api.grantStreamLifecycle(reconciler, ['states:StartExecution', 'states:StopExecution']);
    api.grantStreamTasks(reconciler, { list: true });
    api.grantYouTube(reconciler);
    api.grantAlerts(reconciler);
    new Rule(this, 'StreamReconcilerSchedule', { schedule: Schedule.rate(Duration.minutes(1)), targets: [new LambdaFunction(reconciler)] });
  }

  /** What the state machine itself may do: run and stop the stream task, call the lifecycle function, and start a
   * fresh execution of itself (handover). CDK cannot infer these from a definition given as JSON. */
  private grantLifecycle(lifecycleFunctionArn: string, ownArn: string): void {
    const role = this.stateMachine.role;
    // By family (the latest active revision, see LifecycleResources): any revision of this task definition.
    role.addToPrincipalPolicy(new PolicyStatement({
      actions: ['ecs:RunTask'],
      resources: [this.formatArn({ service: 'ecs', resource: 'task-definition', resourceName: `${this.taskDefinition.family}:*` })],
    }));
    role.addToPrincipalPolicy(new PolicyStatement({
      actions: ['ecs:StopTask', 'ecs:DescribeTasks'],
      resources: [this.formatArn({ service: 'ecs', resource: 'task', resourceName: `${this.cluster.clusterName}/*` })],
    }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['iam:PassRole'], resources: [this.taskDefinition.taskRole.roleArn, this.taskDefinition.executionRole!.roleArn] }));
    // The .sync integration waits for the task through this managed EventBridge rule.
    role.addToPrincipalPolicy(new PolicyStatement({
      actions: ['events:PutTargets', 'events:PutRule', 'events:DescribeRule'],
      resources: [this.formatArn({ service: 'events', resource: 'rule', resourceName: 'StepFunctionsGetEventsForECSTaskRule' })],
    }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [lifecycleFunctionArn] }));
    // Its own ARN by name: a reference to the machine from its own role's policy would be circular.
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [ownArn] }));
    acknowledgeFindings(role, 'AwsSolutions-IAM5', 'Task ids exist only once a task runs (StopTask/DescribeTasks on this cluster\'s tasks); RunTask takes any revision of this one task definition family; X-Ray and log delivery have no resource-level permissions.');
  }
}
