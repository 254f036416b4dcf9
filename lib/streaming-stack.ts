import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnSubnet, FlowLogDestination, FlowLogTrafficType, IpProtocol, Peer, Port, SecurityGroup, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { DESTINATION_PORTS } from '../lambdas/core/channels/destination-address';
import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  CfnCluster,
  Cluster,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  ExternalTaskDefinition,
  FargateTaskDefinition,
  LogDrivers,
  NetworkMode,
  OperatingSystemFamily,
  type ContainerDefinitionOptions,
  type TaskDefinition,
} from 'aws-cdk-lib/aws-ecs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { IgnoreMode } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { externalStreamTask, fargateStreamTask } from '../lambdas/contract/data-planes';
import { STREAM_TASK_CONTAINER, streamLifecycleDefinition, type TaskLaunch } from '../lambdas/contract/stream-lifecycle';
import {
  streamClusterName,
  streamLifecycleName,
  streamScheduleFunctionName,
  streamScheduleGroupName,
  streamSchedulerRoleName,
  streamTaskFamily,
  type ApiStack,
} from './api-stack';
import { repoRoot } from './constructs/handler-function';
import type { HandlerFunction } from './constructs/handler-function';
import { acknowledgeFindings } from './constructs/nag';
import { dataPlaneOf, hostArchitectureOf, taskNetworkOf, type StageConfig } from './stage';

export interface StreamingStackProps extends StackProps {
  api: ApiStack;
}

/** The role ECS Anywhere hosts of a stage register with (SSM activation, docs/deploy.md): named, so the activation
 * command can name it. */
export const streamHostRoleName = (config: StageConfig) => `loopcast-${config.stage}-stream-hosts`;

/**
 * Where the 24/7 loops run: the stream lifecycle state machine, which keeps one stream task per running stream,
 * restarts it when it dies, and stops it on request; the task runs on the stage's data plane
 * (lambdas/contract/data-planes.ts):
 * - fargate (default): one Fargate task per stream (ARM64, 0.25 vCPU / 0.5 GB: stream copy needs ~1 % of a core, the
 *   free 20 GiB disk unless the stream's media needs more), in public subnets with an egress-only security group
 *   and no NAT gateway (a NAT would cost more than the loops); `-c spot=true` on Fargate Spot, `-c
 *   taskNetwork=ipv6-only` without any IPv4 address;
 * - external: the same task packed on ECS Anywhere hosts (servers whose traffic is included), registered into the
 *   cluster with an SSM activation for the hosts' role; no VPC at all.
 */
export class StreamingStack extends Stack {
  readonly clusterName: string;
  /** Fargate only: the tasks' VPC and security group. */
  readonly vpc?: Vpc;
  readonly taskSecurityGroup?: SecurityGroup;
  readonly taskDefinition: TaskDefinition;
  /** External only: the role the stage's ECS Anywhere hosts register with. */
  readonly hostRole?: Role;
  readonly stateMachine: StateMachine;
  readonly lifecycleFunction: HandlerFunction;
  readonly lifecycleFailedFunction: HandlerFunction;
  readonly reconcilerFunction: HandlerFunction;
  /** Starts and stops streams at their schedules' transitions (one EventBridge Scheduler schedule per stream). */
  readonly scheduleFunction: HandlerFunction;
  readonly scheduleGroup: ScheduleGroup;
  readonly schedulerRole: Role;
  readonly taskLogGroup: LogGroup;

  constructor(scope: Construct, id: string, config: StageConfig, props: StreamingStackProps) {
    super(scope, id, props);
    const { api } = props;
    this.clusterName = streamClusterName(config);
    this.taskLogGroup = new LogGroup(this, 'StreamTaskLogs', { retention: RetentionDays.ONE_MONTH });
    const plane = dataPlaneOf(config) === 'external' ? this.externalPlane(config) : this.fargatePlane(config);
    this.taskDefinition = plane.taskDefinition;
    this.vpc = plane.vpc;
    this.taskSecurityGroup = plane.securityGroup;
    this.hostRole = plane.hostRole;
    // The task role gets no permission at all: no table, no key, no bucket, no secret. A compromised task (ffmpeg
    // talks to servers creators choose) holds only its own run token, which the task API honours for its own run's
    // lease, spec, heartbeat and preview frame while it holds the lease (docs/security.md).
    acknowledgeFindings(this.taskDefinition, 'AwsSolutions-IAM5', "The execution role pulls this task's image and writes its log group (CDK grants).");
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason: 'The only variable is the log level; the run token comes per task from the lifecycle.',
    });

    // PrepareTask waits up to 30 s for an earlier task to stop (ECS stopTimeout 15 s); its state allows 120 s.
    const lifecycle = (this.lifecycleFunction = api.handlerFunction(
      this,
      'LifecycleFunction',
      'workflow/lifecycle.ts',
      'stream lifecycle decisions',
      Duration.seconds(90),
    ));
    api.grantTableData(lifecycle, 'lifecycle');
    api.grantRealtimePublish(lifecycle);
    api.grantStreamTasks(lifecycle);
    acknowledgeFindings(lifecycle.role!, 'AwsSolutions-IAM5', 'Realtime connection ids are created at connect time; X-Ray has no resource-level permissions.');

    this.stateMachine = new StateMachine(this, 'StreamLifecycle', {
      stateMachineName: streamLifecycleName(config),
      definitionBody: DefinitionBody.fromString(
        Stack.of(this).toJsonString(
          streamLifecycleDefinition({
            clusterArn: plane.clusterArn,
            taskDefinitionFamily: this.taskDefinition.family,
            launch: plane.launch,
            lifecycleFunctionArn: lifecycle.functionArn,
          }),
        ),
      ),
      tracingEnabled: true,
      logs: {
        destination: new LogGroup(this, 'StreamLifecycleLogs', { retention: RetentionDays.THREE_MONTHS }),
        level: LogLevel.ALL,
        includeExecutionData: false,
      },
    });
    this.grantLifecycle(lifecycle.functionArn, api.streamLifecycleArn);

    // A failed execution (not a failed task) would leave its stream `pending`: stop it with the reason.
    const failed = (this.lifecycleFailedFunction = api.handlerFunction(
      this,
      'LifecycleFailedFunction',
      'events/lifecycle-failed.ts',
      'stops streams whose lifecycle failed',
      Duration.seconds(60),
    ));
    api.grantTableData(failed, 'lifecycle-failed');
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
    const upkeep = api.handlerFunction(
      this,
      'StreamUpkeepFunction',
      'events/stream-upkeep.ts',
      'billing enforcement and broadcast checks',
      Duration.minutes(4),
    );
    api.grantTableData(upkeep, 'stream-upkeep');
    api.grantRealtimePublish(upkeep);
    api.grantStreamLifecycle(upkeep, ['states:StopExecution']);
    api.grantStreamTasks(upkeep);
    api.grantYouTube(upkeep);
    api.grantAlerts(upkeep);
    acknowledgeFindings(upkeep.role!, 'AwsSolutions-IAM5', "It stops any running execution of this stage's lifecycle; realtime connection ids are dynamic.");
    new Rule(this, 'StreamUpkeepSchedule', { schedule: Schedule.rate(Duration.minutes(5)), targets: [new LambdaFunction(upkeep)] });

    // Every minute: orphaned tasks ended, runs whose execution is gone relaunched, silent tasks restarted (a task
    // that hangs, or whose host died), cut-short stops finished (lambdas/core/streams/reconcile.ts). One at a time: a
    // run is moved by a conditional write anyway.
    const reconciler = (this.reconcilerFunction = api.handlerFunction(
      this,
      'StreamReconcilerFunction',
      'events/stream-reconciler.ts',
      'desired vs actual stream tasks',
      Duration.seconds(55),
    ));
    api.grantTableData(reconciler, 'stream-reconciler');
    api.grantRealtimePublish(reconciler);
    api.grantStreamLifecycle(reconciler, ['states:StartExecution', 'states:StopExecution']);
    api.grantStreamTasks(reconciler, { list: true });
    api.grantYouTube(reconciler);
    api.grantAlerts(reconciler);
    new Rule(this, 'StreamReconcilerSchedule', { schedule: Schedule.rate(Duration.minutes(1)), targets: [new LambdaFunction(reconciler)] });

    [this.scheduleGroup, this.schedulerRole, this.scheduleFunction] = this.streamSchedules(config, api);
  }

  /**
   * Scheduled launch and stop (docs/streams.md, Schedules): the streams routes and this function keep one EventBridge Scheduler
   * schedule per stream in this stage's group, holding its next transition; Scheduler invokes this function with it,
   * through a role that may invoke this function and nothing else. The function waits for the transition's second
   * (a wake-up comes a minute ahead), starts or stops the stream as the API does, and sets the next transition. Names
   * are fixed (lib/api-stack.ts), since the API's streams routes set schedules and deploy first.
   */
  private streamSchedules(config: StageConfig, api: ApiStack): [ScheduleGroup, Role, HandlerFunction] {
    const group = new ScheduleGroup(this, 'StreamSchedules', { scheduleGroupName: streamScheduleGroupName(config), removalPolicy: RemovalPolicy.DESTROY });
    const fn = api.handlerFunction(
      this,
      'StreamScheduleFunction',
      'events/stream-schedule.ts',
      'starts and stops streams by their schedules',
      Duration.minutes(4),
      streamScheduleFunctionName(config),
    );
    api.grantTableData(fn, 'stream-schedule');
    api.grantRealtimePublish(fn);
    api.grantStreamLifecycle(fn, ['states:StartExecution', 'states:StopExecution']);
    api.grantStreamTasks(fn);
    api.grantYouTube(fn);
    api.grantAlerts(fn);
    api.grantStreamSchedules(fn);
    acknowledgeFindings(fn.role!, 'AwsSolutions-IAM5', 'Realtime connection ids are created at connect time; X-Ray has no resource-level permissions.');
    // Only this account's schedules of this group may have Scheduler act with the role (confused deputy).
    const role = new Role(this, 'StreamSchedulerRole', {
      roleName: streamSchedulerRoleName(config),
      description: `Loopcast ${config.stage}: EventBridge Scheduler invokes the stream schedule function`,
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: { 'aws:SourceArn': this.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${streamScheduleGroupName(config)}/*` }) },
        },
      }),
    });
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
    return [group, role, fn];
  }

  /** What the stream task's container is, on either plane: its image, logs and stop behaviour. A task without IPv4
   * pulls its image through ECR's dual-stack registry endpoint (`<account>.dkr-ecr.<region>.on.aws`), which ECS
   * requires of IPv6-only tasks; the image is the same asset. */
  private streamTaskContainer(taskDefinition: TaskDefinition, platform: Platform, options: { dualStackRegistry?: boolean } = {}): ContainerDefinitionOptions {
    const asset = new DockerImageAsset(this, 'StreamTaskImage', {
      directory: repoRoot,
      file: 'stream-task/Dockerfile',
      platform,
      ignoreMode: IgnoreMode.DOCKER,
      // Only what the image build reads; everything else (node_modules, cdk.out, .data) stays out of the asset.
      exclude: ['*', '!package.json', '!package-lock.json', '!tsconfig.json', '!lambdas', '!stream-task'],
    });
    let image = ContainerImage.fromDockerImageAsset(asset);
    if (options.dualStackRegistry) {
      asset.repository.grantPull(taskDefinition.obtainExecutionRole());
      image = ContainerImage.fromRegistry(`${this.account}.dkr-ecr.${this.region}.on.aws/${asset.repository.repositoryName}:${asset.imageTag}`);
    }
    return {
      image,
      logging: LogDrivers.awsLogs({ streamPrefix: 'stream', logGroup: this.taskLogGroup }),
      // Nothing else: the lifecycle gives each task its run, its run token and the task API's URL
      // (lambdas/contract/stream-lifecycle.ts), and the task reaches Loopcast only through that API.
      environment: { POWERTOOLS_LOG_LEVEL: 'INFO' },
      // The supervisor stops ffmpeg and exits within seconds of SIGTERM, even when ffmpeg is blocked.
      stopTimeout: Duration.seconds(15),
    };
  }

  private fargatePlane(config: StageConfig): Plane {
    const ipv6Only = taskNetworkOf(config) === 'ipv6-only';
    const vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      ...(ipv6Only ? { ipProtocol: IpProtocol.DUAL_STACK } : {}),
      subnetConfiguration: [{ name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 22, ...(ipv6Only ? { mapPublicIpOnLaunch: false } : {}) }],
      flowLogs: { rejected: { destination: FlowLogDestination.toCloudWatchLogs(), trafficType: FlowLogTrafficType.REJECT } },
    });
    // IPv6-only subnets (no IPv4 range at all): ECS then runs the task IPv6-only, reaching ECR (its dual-stack
    // registry endpoint), CloudWatch Logs, the task API and S3 over IPv6 (docs/decisions.md, "No public IPv4?"). The
    // VPC keeps its IPv4 range: AWS requires one.
    if (ipv6Only) {
      for (const subnet of vpc.publicSubnets) {
        const cfn = subnet.node.defaultChild as CfnSubnet;
        cfn.ipv6Native = true;
        cfn.addPropertyDeletionOverride('CidrBlock');
        cfn.assignIpv6AddressOnCreation = true;
        cfn.enableDns64 = false;
        cfn.privateDnsNameOptionsOnLaunch = { HostnameType: 'resource-name', EnableResourceNameDnsAAAARecord: true, EnableResourceNameDnsARecord: false };
      }
    }
    const cluster = new Cluster(this, 'Cluster', {
      vpc,
      clusterName: this.clusterName,
      containerInsightsV2: ContainerInsights.ENABLED,
      enableFargateCapacityProviders: true,
    });
    // Egress only to RTMP (1935) and TLS (443: RTMPS destinations, the task API and the AWS APIs): a user-chosen
    // destination cannot reach metadata, credentials or anything else on another port (security audit L3). The VPC's
    // DNS resolver and link-local services are not subject to security groups.
    const securityGroup = new SecurityGroup(this, 'TaskSecurityGroup', {
      vpc,
      description: 'Stream tasks: no inbound traffic, outbound TCP 1935 and 443 only',
      allowAllOutbound: false,
    });
    for (const port of DESTINATION_PORTS) {
      securityGroup.addEgressRule(Peer.anyIpv4(), Port.tcp(port), `RTMP destinations and AWS APIs, TCP ${port}`);
      securityGroup.addEgressRule(Peer.anyIpv6(), Port.tcp(port), `RTMP destinations and AWS APIs, TCP ${port} (IPv6)`);
    }
    const taskDefinition = new FargateTaskDefinition(this, 'StreamTask', {
      family: streamTaskFamily(config),
      cpu: fargateStreamTask.cpuUnits,
      memoryLimitMiB: fargateStreamTask.memoryMiB,
      // No ephemeral storage: the free 20 GiB; PrepareTask asks for more per task when a stream's media needs it.
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    taskDefinition.addContainer(STREAM_TASK_CONTAINER, this.streamTaskContainer(taskDefinition, Platform.LINUX_ARM64, { dualStackRegistry: ipv6Only }));
    const launch: TaskLaunch = {
      dataPlane: 'fargate',
      capacityProvider: config.spot ? 'FARGATE_SPOT' : 'FARGATE',
      subnets: vpc.publicSubnets.map((subnet) => subnet.subnetId),
      securityGroups: [securityGroup.securityGroupId],
      publicIpv4: !ipv6Only,
    };
    return { clusterArn: cluster.clusterArn, taskDefinition, launch, vpc, securityGroup };
  }

  private externalPlane(config: StageConfig): Plane {
    // A cluster without a VPC (CDK's Cluster would make one, with NAT gateways): hosts join it from anywhere. At the
    // path of the Fargate plane's cluster, so a stage that switches planes keeps its cluster (same logical id).
    const cluster = new CfnCluster(new Construct(this, 'Cluster'), 'Resource', {
      clusterName: this.clusterName,
      clusterSettings: [{ name: 'containerInsights', value: 'enabled' }],
    });
    // Bridge networking on the host; the task only dials out (RTMP destinations, the task API, S3 download URLs).
    const taskDefinition = new ExternalTaskDefinition(this, 'StreamTask', { family: streamTaskFamily(config), networkMode: NetworkMode.BRIDGE });
    taskDefinition.addContainer(STREAM_TASK_CONTAINER, {
      ...this.streamTaskContainer(taskDefinition, hostArchitectureOf(config) === 'arm64' ? Platform.LINUX_ARM64 : Platform.LINUX_AMD64),
      cpu: externalStreamTask.cpuUnits,
      memoryReservationMiB: externalStreamTask.memoryReservationMiB,
      memoryLimitMiB: externalStreamTask.memoryLimitMiB,
    });

    // What a host runs as once registered (SSM agent, ECS agent, Docker pulling the image and shipping its logs), as
    // AWS documents for ECS Anywhere: trusted by SSM of this account only.
    const hostRole = new Role(this, 'StreamHostRole', {
      roleName: streamHostRoleName(config),
      description: `Loopcast ${config.stage}: ECS Anywhere hosts of the streams cluster`,
      assumedBy: new ServicePrincipal('ssm.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: { 'aws:SourceArn': this.formatArn({ service: 'ssm', resource: '*' }) },
        },
      }),
      managedPolicies: [
        ManagedPolicy.fromAwsManagedPolicyName('AmazonSSMManagedInstanceCore'),
        ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonEC2ContainerServiceforEC2Role'),
      ],
    });
    acknowledgeFindings(
      hostRole,
      'AwsSolutions-IAM4',
      'ECS Anywhere hosts take exactly these two AWS managed policies, as AWS documents for external instances: the SSM agent (AmazonSSMManagedInstanceCore) and the ECS agent (AmazonEC2ContainerServiceforEC2Role); they follow the agents as AWS changes them.',
    );
    // CloudFormation has no SSM activation: an activation expires (30 days at most) and its code is a credential, so
    // one is made per host when it is installed, for this role (docs/deploy.md, "Stream hosts").
    new CfnOutput(this, 'StreamHostActivation', {
      description: 'Makes the activation a new stream host registers with (docs/deploy.md, "Stream hosts")',
      value: `aws ssm create-activation --region ${this.region} --iam-role ${streamHostRoleName(config)} --registration-limit 1 --default-instance-name ${this.clusterName}-host --tags Key=project,Value=loopcast Key=stage,Value=${config.stage}`,
    });
    new CfnOutput(this, 'StreamHostInstall', {
      description: "Run on the host as root with the activation's id and code (stream-task/host/install.sh)",
      value: `./install.sh --region ${this.region} --cluster ${this.clusterName} --activation-id <id> --activation-code <code> --max-streams <n>`,
    });
    const launch: TaskLaunch = { dataPlane: 'external' };
    return { clusterArn: cluster.attrArn, taskDefinition, launch, hostRole };
  }

  /** What the state machine itself may do: run and stop the stream task, call the lifecycle function, and start a
   * fresh execution of itself (handover). CDK cannot infer these from a definition given as JSON. */
  private grantLifecycle(lifecycleFunctionArn: string, ownArn: string): void {
    const role = this.stateMachine.role;
    // By family (the latest active revision, see LifecycleResources): any revision of this task definition.
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ecs:RunTask'],
        resources: [this.formatArn({ service: 'ecs', resource: 'task-definition', resourceName: `${this.taskDefinition.family}:*` })],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ecs:StopTask', 'ecs:DescribeTasks'],
        resources: [this.formatArn({ service: 'ecs', resource: 'task', resourceName: `${this.clusterName}/*` })],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['iam:PassRole'], resources: [this.taskDefinition.taskRole.roleArn, this.taskDefinition.executionRole!.roleArn] }),
    );
    // The .sync integration waits for the task through this managed EventBridge rule.
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['events:PutTargets', 'events:PutRule', 'events:DescribeRule'],
        resources: [this.formatArn({ service: 'events', resource: 'rule', resourceName: 'StepFunctionsGetEventsForECSTaskRule' })],
      }),
    );
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [lifecycleFunctionArn] }));
    // Its own ARN by name: a reference to the machine from its own role's policy would be circular.
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [ownArn] }));
    acknowledgeFindings(
      role,
      'AwsSolutions-IAM5',
      "Task ids exist only once a task runs (StopTask/DescribeTasks on this cluster's tasks); RunTask takes any revision of this one task definition family; X-Ray and log delivery have no resource-level permissions.",
    );
  }
}

interface Plane {
  clusterArn: string;
  taskDefinition: TaskDefinition;
  launch: TaskLaunch;
  vpc?: Vpc;
  securityGroup?: SecurityGroup;
  hostRole?: Role;
}
