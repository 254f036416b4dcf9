import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
  TreatMissingData,
  type GraphWidgetProps,
  type IMetric,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { QueryDefinition, QueryString, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { supportEnvironmentParameterName } from '../lambdas/adapters/support-parameter';
import type { DataPlane } from '../lambdas/contract/data-planes';
import { METRICS_NAMESPACE, metricNames, type MetricName } from '../lambdas/contract/metrics';
import { dashboardCostEstimate } from '../lambdas/core/costs/dashboard';
import { appTable } from '../lambdas/contract/tables';
import type { ApiStack } from './api-stack';
import { HandlerFunction } from './constructs/handler-function';
import { dataPlaneOf, type StageConfig } from './stage';
import type { StreamingStack } from './streaming-stack';

export interface OpsStackProps extends StackProps {
  api: ApiStack;
  streaming: StreamingStack;
  table: ITableV2;
}

/** YouTube Data API units one Google project may spend a day. */
export const YOUTUBE_DAILY_QUOTA = 10_000;

/** Stream tasks the lifecycle may restart in an hour, across all streams, before a human looks: one stream whose
 * task dies at once (a crash loop: a minute's backoff plus Fargate's start each time) restarts about 30 times an hour. */
export const STREAM_RESTARTS_PER_HOUR_ALARM = 20;

/** The service dimension Powertools adds to every metric (POWERTOOLS_SERVICE_NAME of lib/constructs/handler-function.ts). */
const METRICS_SERVICE = 'loopcast';

const FIVE_MINUTES = Duration.minutes(5);
const HOUR = Duration.hours(1);

/** Every Loopcast function of a stack, whatever its construct path. */
const handlerFunctionsOf = (stack: Stack): HandlerFunction[] => stack.node.findAll().filter((c): c is HandlerFunction => c instanceof HandlerFunction);

/** A function's dashboard name: its construct id without the suffix (AuthFunction -> Auth). */
const labelOf = (fn: HandlerFunction) => fn.node.id.replace(/Function$/, '');

interface AlarmSpec {
  /** Also the alarm's name after `Loopcast-<stage>-`. */
  id: string;
  /** Section of docs/operations.md. */
  runbook: string;
  what: string;
  metric: IMetric;
  /** Alarms at this value or above, in one period of the metric. */
  threshold: number;
}

/**
 * What support and devops look at (runbook: docs/operations.md): one dashboard, alarms that e-mail a human,
 * saved CloudWatch Logs Insights queries over every function's and the stream task's logs, and the stage's
 * handler environment in SSM for the support tool (bin/support.ts).
 */
export class OpsStack extends Stack {
  readonly alarmTopic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];
  private readonly stage: string;

  constructor(scope: Construct, id: string, config: StageConfig, props: OpsStackProps) {
    super(scope, id, props);
    this.stage = config.stage;
    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      displayName: `Loopcast ${config.stage} alarms`,
      enforceSSL: true,
      // It guards alarm messages only: nothing to keep once the stack is gone, in any stage.
      masterKey: new Key(this, 'AlarmTopicKey', { enableKeyRotation: true, description: 'Loopcast alarm topic', removalPolicy: RemovalPolicy.DESTROY }),
    });
    if (config.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(config.alarmEmail));

    const { api, streaming, table } = props;
    const functions = [...handlerFunctionsOf(api), ...handlerFunctionsOf(streaming)];
    const taskLogs = streaming.taskLogGroup;
    const deadLetters = api.transcodeDeadLetters;
    const business = (name: MetricName, statistic: string, period: Duration, label?: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { service: METRICS_SERVICE, stage: config.stage },
        statistic,
        period,
        ...(label ? { label } : {}),
      });
    /** p50 and p99 of a business metric per hour, labelled `<what> p50` (or just `p50`). */
    const percentiles = (name: MetricName, what?: string) =>
      (['p50', 'p99'] as const).map((stat) => business(name, stat, HOUR, what ? `${what} ${stat}` : stat));

    // ---- What the dashboard and the alarms read ----
    const http = api.httpApi;
    const requests = http.metricCount({ period: FIVE_MINUTES, label: 'Requests' });
    const clientErrors = http.metricClientError({ period: FIVE_MINUTES, label: '4xx' });
    const serverErrors = http.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: '5xx' });
    const latencyP99 = http.metricLatency({ period: FIVE_MINUTES, statistic: 'p99', label: 'p99' });

    const executionsFailed = streaming.stateMachine.metricFailed({ period: FIVE_MINUTES, label: 'Failed' });
    const executionsTimedOut = streaming.stateMachine.metricTimedOut({ period: FIVE_MINUTES, label: 'Timed out' });

    const throttleMetrics = appTable.indexes.reduce<Record<string, IMetric>>(
      (metrics, index, i) => ({
        ...metrics,
        [`gr${i}`]: this.dynamoMetric(table, 'ReadThrottleEvents', `${index.name} reads`, index.name),
        [`gw${i}`]: this.dynamoMetric(table, 'WriteThrottleEvents', `${index.name} writes`, index.name),
      }),
      { r: this.dynamoMetric(table, 'ReadThrottleEvents', 'Table reads'), w: this.dynamoMetric(table, 'WriteThrottleEvents', 'Table writes') },
    );

    // Google's quota day runs from midnight Pacific time; the handlers report the day's total so far as they spend.
    const quotaToday = business(metricNames.youtubeQuotaUsedToday, 'Maximum', FIVE_MINUTES, 'Units today');
    const quotaByHour = business(metricNames.youtubeQuotaUsedToday, 'Maximum', HOUR, 'Units spent that day');
    const webhookFailures = business(metricNames.stripeWebhookFailures, 'Sum', HOUR, 'Failures');
    const transcodesCompletedHourly = business(metricNames.transcodesCompleted, 'Sum', HOUR);
    const transcodesFailedHourly = business(metricNames.transcodesFailed, 'Sum', HOUR);
    const streamTaskRestartsHourly = business(metricNames.streamTaskRestarts, 'Sum', HOUR, 'Stream task restarts');
    // The reconciler's findings: tasks running without a run (or beside the lease holder), runs without an execution.
    const reconciled = {
      orphans: business(metricNames.orphanTasksEnded, 'Sum', FIVE_MINUTES, 'Orphan tasks ended'),
      relaunched: business(metricNames.streamsRelaunched, 'Sum', FIVE_MINUTES, 'Runs relaunched (execution gone)'),
      stale: business(metricNames.staleStreamsRestarted, 'Sum', FIVE_MINUTES, 'Silent tasks restarted'),
    };
    const deadLetterMessages = deadLetters.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label: 'Messages' });

    // What streaming costs, from real egress and running streams priced by the cost model (docs/costs.md).
    const dataPlane = dataPlaneOf(config);
    const costMath = this.costMath(dataPlane, {
      bytes: business(metricNames.streamEgressBytes, 'Sum', HOUR),
      streams: business(metricNames.streamsRunning, 'Average', HOUR),
    });
    const egressGbHourly = costMath.egressGb!.with({ label: 'GB on the wire per hour' });
    const costPerStreamMonth = costMath.cost!.with({ label: `USD per stream-month (${dataPlane})` });

    // ---- Alarms: what needs a human ----
    this.addAlarms([
      { id: 'ApiServerErrors', runbook: 'api-server-errors', what: 'The API answered 5xx', metric: serverErrors, threshold: 5 },
      ...[
        { fn: streaming.lifecycleFunction, threshold: 1 },
        { fn: streaming.lifecycleFailedFunction, threshold: 1 },
        // Three failed minutes in five: the safety net against orphans and lost executions is down.
        { fn: streaming.reconcilerFunction, threshold: 3 },
        { fn: api.functions['billing-webhook']!, threshold: 1 },
        { fn: api.uploadsFunction, threshold: 3 },
        { fn: api.functions['transcode-events']!, threshold: 1 },
      ].map(({ fn, threshold }) => ({
        id: `${labelOf(fn)}Errors`,
        runbook: 'lambda-errors',
        what: `The ${labelOf(fn)} function failed`,
        metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold,
      })),
      {
        id: 'LifecycleExecutionsFailed',
        runbook: 'lifecycle-executions-failed',
        what: 'Stream lifecycle executions failed or timed out',
        metric: new MathExpression({
          expression: 'FILL(failed, 0) + FILL(timedOut, 0)',
          usingMetrics: { failed: executionsFailed, timedOut: executionsTimedOut },
          period: FIVE_MINUTES,
          label: 'Failed or timed out',
        }),
        threshold: 1,
      },
      {
        id: 'OrphanTasks',
        runbook: 'orphan-tasks',
        what: 'The reconciler found stream tasks without a live run, or runs without a lifecycle execution',
        metric: new MathExpression({
          expression: 'FILL(orphans, 0) + FILL(relaunched, 0)',
          usingMetrics: { orphans: reconciled.orphans, relaunched: reconciled.relaunched },
          period: FIVE_MINUTES,
          label: 'Orphans and relaunches',
        }),
        threshold: 1,
      },
      {
        id: 'StreamCrashLoop',
        runbook: 'stream-crash-loop',
        what: `${STREAM_RESTARTS_PER_HOUR_ALARM} or more stream tasks restarted in an hour across all streams (a crash loop)`,
        metric: streamTaskRestartsHourly,
        threshold: STREAM_RESTARTS_PER_HOUR_ALARM,
      },
      {
        id: 'TableThrottles',
        runbook: 'dynamodb-throttles',
        what: 'DynamoDB throttled requests to the app table',
        metric: new MathExpression({
          expression: Object.keys(throttleMetrics)
            .map((name) => `FILL(${name}, 0)`)
            .join(' + '),
          usingMetrics: throttleMetrics,
          period: FIVE_MINUTES,
          label: 'Throttle events',
        }),
        threshold: 10,
      },
      {
        id: 'YouTubeQuota',
        runbook: 'youtube-quota',
        what: 'YouTube API quota over 80 % of the daily 10,000 units',
        metric: quotaToday,
        threshold: 0.8 * YOUTUBE_DAILY_QUOTA,
      },
      {
        id: 'StripeWebhookFailures',
        runbook: 'stripe-webhook-failures',
        what: 'Stripe webhooks were refused or failed',
        metric: webhookFailures,
        threshold: 3,
      },
      {
        id: 'TranscodeFailureRatio',
        runbook: 'transcode-failures',
        what: 'A fifth or more of the transcodes failed (at least 5 finished in the hour)',
        metric: new MathExpression({
          expression: 'IF(FILL(f, 0) + FILL(c, 0) >= 5, FILL(f, 0) / (FILL(f, 0) + FILL(c, 0)), 0)',
          usingMetrics: { f: transcodesFailedHourly, c: transcodesCompletedHourly },
          period: HOUR,
          label: 'Failed share',
        }),
        threshold: 0.2,
      },
      {
        id: 'TranscodeEventsDeadLetters',
        runbook: 'transcode-events-dead-letters',
        what: 'MediaConvert job events could not be applied',
        metric: deadLetterMessages,
        threshold: 1,
      },
    ]);

    // ---- The dashboard ----
    const graph = (title: string, left: IMetric[], width = 8, extra: Partial<GraphWidgetProps> = {}) =>
      new GraphWidget({ title, left, width, height: 6, ...extra });
    const perFunction = (title: string, metricOf: (fn: HandlerFunction) => IMetric) =>
      graph(
        title,
        functions.map((fn) => metricOf(fn)),
        8,
        { height: 8 },
      );
    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown:
            `# Loopcast ${config.stage}\nEvery widget and alarm is explained in **docs/operations.md**, with what to check and how to fix it. ` +
            `Saved Logs Insights queries: *Loopcast-${config.stage}/...*. Support actions: \`npm run support -- --stage ${config.stage} find <email>\`.`,
          width: 24,
          height: 2,
        }),
      ],
      [new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 3 })],
      [
        graph('API requests', [requests], 6),
        graph('API 4xx and 5xx', [clientErrors, serverErrors], 6),
        graph('API latency p99 (ms)', [latencyP99], 6),
        graph('Realtime broadcast to all connections (s)', percentiles(metricNames.realtimeBroadcastSeconds), 6),
      ],
      [
        graph('Running streams', [business(metricNames.streamsRunning, 'Maximum', FIVE_MINUTES, 'Streams')]),
        graph('Restarts and stalls per hour', [
          streamTaskRestartsHourly,
          business(metricNames.ffmpegRestarts, 'Sum', HOUR, 'ffmpeg restarts'),
          business(metricNames.streamStalls, 'Sum', HOUR, 'Stalls detected'),
        ]),
        graph('Recovery time (s)', percentiles(metricNames.recoverySeconds)),
      ],
      [
        graph('Reconciler findings', Object.values(reconciled), 12),
        graph('Lifecycle handovers per hour', [business(metricNames.lifecycleHandovers, 'Sum', HOUR, 'Handovers')], 12),
      ],
      [
        graph('Egress to destinations (GB per hour)', [egressGbHourly], 12),
        graph(`Estimated cost per stream-month (USD, ${dataPlane} data plane)`, [costPerStreamMonth], 12),
      ],
      [
        graph('Uploads and transcodes per hour', [
          business(metricNames.uploadsStarted, 'Sum', HOUR, 'Uploads started'),
          business(metricNames.uploadsCompleted, 'Sum', HOUR, 'Uploads completed'),
          business(metricNames.uploadsFailed, 'Sum', HOUR, 'Uploads failed'),
          business(metricNames.transcodesStarted, 'Sum', HOUR, 'Transcodes started'),
          business(metricNames.transcodesCompleted, 'Sum', HOUR, 'Transcodes completed'),
          business(metricNames.transcodesFailed, 'Sum', HOUR, 'Transcodes failed'),
        ]),
        graph('Upload and transcode duration (s)', [
          ...percentiles(metricNames.uploadSeconds, 'Upload'),
          ...percentiles(metricNames.transcodeSeconds, 'Transcode'),
        ]),
        graph('Transcode events dead letters', [deadLetterMessages]),
      ],
      [
        graph('Lifecycle executions failed', [executionsFailed, executionsTimedOut], 6),
        graph('DynamoDB throttles', Object.values(throttleMetrics), 6),
        new SingleValueWidget({
          title: `YouTube quota used today (of ${YOUTUBE_DAILY_QUOTA.toLocaleString('en')} units)`,
          metrics: [quotaToday],
          width: 3,
          height: 6,
        }),
        graph('YouTube quota per day (Pacific day)', [quotaByHour], 3, {
          leftAnnotations: [
            { value: 0.8 * YOUTUBE_DAILY_QUOTA, label: '80 %' },
            { value: YOUTUBE_DAILY_QUOTA, label: 'quota' },
          ],
        }),
        graph('Stripe webhook failures', [business(metricNames.stripeWebhookFailures, 'Sum', FIVE_MINUTES, 'Failures')], 6),
      ],
      [
        perFunction('Lambda errors by function', (fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: labelOf(fn) })),
        perFunction('Lambda throttles by function', (fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label: labelOf(fn) })),
        perFunction('Lambda duration p99 by function (ms)', (fn) => fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99', label: labelOf(fn) })),
      ],
    ];
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `Loopcast-${config.stage}`, widgets: rows });

    // ---- Saved Logs Insights queries over every function's and the stream task's logs ----
    const logGroups: ILogGroup[] = [...functions.map((fn) => fn.logGroup), taskLogs];
    const query = (id: string, name: string, queryString: QueryString) =>
      new QueryDefinition(this, id, { queryDefinitionName: `Loopcast-${config.stage}/${name}`, queryString, logGroups });
    // Powertools JSON lines (the functions' and the stream task's) carry the fields; anything else (Lambda's own
    // START/END/REPORT lines, a crash's stack) only its text: match both.
    const fields = ['@timestamp', '@log', 'level', 'route', 'userId', 'streamId', 'coalesce(message, @message) as entry'];
    query(
      'UserActivityQuery',
      'User activity (replace USER_ID)',
      new QueryString({
        fields,
        filterStatements: ['userId = "USER_ID" or @message like "USER_ID"'],
        sort: '@timestamp asc',
        limit: 10_000,
      }),
    );
    query(
      'StreamHistoryQuery',
      'Stream history (replace STREAM_ID)',
      new QueryString({
        fields,
        filterStatements: ['streamId = "STREAM_ID" or @message like "STREAM_ID"'],
        sort: '@timestamp asc',
        limit: 10_000,
      }),
    );
    query(
      'ErrorsQuery',
      'Errors (run over the last hour)',
      new QueryString({
        fields: [...fields, 'error.message', 'error.stack'],
        // Logger lines by level, Lambda's own timeouts and crashes by status, other text lines (an uncaught crash) by
        // their words; metric lines (EMF, `_aws`) are left out, their metric names would match.
        filterStatements: [
          'level in ["ERROR", "CRITICAL", "FATAL"] or record.status in ["timeout", "failure", "error"]' +
            ' or (not ispresent(level) and not ispresent(record.status) and not ispresent(_aws.Timestamp) and @message like /(?i)(error|failed|timed out)/)',
        ],
        sort: '@timestamp desc',
        limit: 1_000,
      }),
    );

    // ---- The support tool's settings ----
    new StringParameter(this, 'SupportEnvironment', {
      parameterName: supportEnvironmentParameterName(config.stage),
      description: `Loopcast ${config.stage}: the functions' environment (names and ARNs) and the data plane, read by the support and Stripe prices tools`,
      // DATA_PLANE: the Stripe prices tool checks prices against this data plane's costs.
      stringValue: this.toJsonString({ ...api.environmentForHandlers, DATA_PLANE: dataPlane }),
    });
  }

  /** The cost model's dashboard estimate (lambdas/core/costs/dashboard.ts) as math expressions, by step id; each
   * uses only the inputs and steps its expression names. */
  private costMath(plane: DataPlane, inputs: Record<string, IMetric>): Record<string, MathExpression> {
    const known: Record<string, IMetric> = { ...inputs };
    const steps: Record<string, MathExpression> = {};
    for (const { id, expression } of dashboardCostEstimate(plane).steps) {
      const usingMetrics = Object.fromEntries(Object.entries(known).filter(([name]) => new RegExp(`\\b${name}\\b`).test(expression)));
      known[id] = steps[id] = new MathExpression({ expression, usingMetrics, period: HOUR });
    }
    return steps;
  }

  private dynamoMetric(table: ITableV2, metricName: string, label: string, index?: string): Metric {
    return new Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: { TableName: table.tableName, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
      statistic: 'Sum',
      period: FIVE_MINUTES,
      label,
    });
  }

  /** One alarm per spec, named `Loopcast-<stage>-<id>`, e-mailing the topic when it fires and when it clears. */
  private addAlarms(specs: AlarmSpec[]): void {
    const action = new SnsAction(this.alarmTopic);
    for (const spec of specs) {
      const alarm = new Alarm(this, spec.id, {
        alarmName: `Loopcast-${this.stage}-${spec.id}`,
        alarmDescription: `${spec.what}. Runbook: docs/operations.md#${spec.runbook}`,
        metric: spec.metric,
        threshold: spec.threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms.push(alarm);
    }
  }
}
