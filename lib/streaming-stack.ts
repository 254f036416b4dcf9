import { Stack, type StackProps } from 'aws-cdk-lib';
import { FlowLogDestination, FlowLogTrafficType, SecurityGroup, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Cluster, ContainerInsights } from 'aws-cdk-lib/aws-ecs';
import type { Construct } from 'constructs';
import type { StageConfig } from './stage';

/**
 * Where the 24/7 loops run: Fargate tasks in public subnets with an egress-only security group and no NAT
 * gateway (a NAT would cost more than the loops; tasks only dial out to RTMP, S3 and DynamoDB).
 */
export class StreamingStack extends Stack {
  readonly vpc: Vpc;
  readonly cluster: Cluster;
  readonly taskSecurityGroup: SecurityGroup;

  constructor(scope: Construct, id: string, config: StageConfig, props?: StackProps) {
    super(scope, id, props);
    this.vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 22 }],
      flowLogs: { rejected: { destination: FlowLogDestination.toCloudWatchLogs(), trafficType: FlowLogTrafficType.REJECT } },
    });
    this.cluster = new Cluster(this, 'Cluster', {
      vpc: this.vpc,
      clusterName: `loopcast-${config.stage}-streams`,
      containerInsightsV2: ContainerInsights.ENABLED,
      enableFargateCapacityProviders: true,
    });
    this.taskSecurityGroup = new SecurityGroup(this, 'TaskSecurityGroup', {
      vpc: this.vpc,
      description: 'Stream tasks: no inbound traffic, outbound to RTMP destinations and AWS APIs',
      allowAllOutbound: true,
    });
  }
}
