import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, Dashboard, GraphWidget, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { StageConfig } from './stage';

export interface OpsStackProps extends StackProps {
  httpApi: HttpApi;
}

/** What support and devops look at: the dashboard, and alarms that e-mail a human (runbook: docs/operations.md). */
export class OpsStack extends Stack {
  readonly alarmTopic: Topic;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, config: StageConfig, props: OpsStackProps) {
    super(scope, id, props);
    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      displayName: `Loopcast ${config.stage} alarms`,
      enforceSSL: true,
      masterKey: new Key(this, 'AlarmTopicKey', { enableKeyRotation: true, description: 'Loopcast alarm topic' }),
    });
    if (config.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(config.alarmEmail));

    const api = props.httpApi;
    const period = Duration.minutes(5);
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `Loopcast-${config.stage}` });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [api.metricCount({ period })],
        right: [api.metricClientError({ period }), api.metricServerError({ period })],
      }),
      new GraphWidget({ title: 'API latency p99 (ms)', left: [api.metricLatency({ period, statistic: 'p99' })] }),
    );

    const serverErrors = new Alarm(this, 'ApiServerErrors', {
      alarmDescription: 'The API answered 5xx: see docs/operations.md#api-server-errors',
      metric: api.metricServerError({ period, statistic: 'Sum' }),
      threshold: 5,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    serverErrors.addAlarmAction(new SnsAction(this.alarmTopic));
  }
}
