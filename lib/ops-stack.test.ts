import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { METRICS_NAMESPACE, metricNames } from '../lambdas/contract/metrics';
import { fleetFixed } from '../lambdas/core/costs/assumptions';
import { dashboardCostEstimate } from '../lambdas/core/costs/dashboard';
import { HandlerFunction } from './constructs/handler-function';
import { STREAM_RESTARTS_PER_HOUR_ALARM, YOUTUBE_DAILY_QUOTA } from './ops-stack';
import { synthesizeForTest } from './test-app';

const { stacks } = synthesizeForTest({ alarmEmail: 'ops@example.com' });
const ops = Template.fromStack(stacks.ops);
const resources = (type: string) => Object.values(ops.findResources(type));

/** The Loopcast functions the ops stack must cover, by construct id, with their stack's logical ids. */
const functions = [stacks.api, stacks.streaming].flatMap((stack) =>
  stack.node
    .findAll()
    .filter((c): c is HandlerFunction => c instanceof HandlerFunction)
    .map((fn) => ({ fn, stack })),
);
const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);

/** The dashboard body: an Fn::Join of literal JSON and references; a reference becomes the name of what it imports. */
function dashboardBody(): { widgets: { type: string; width: number; properties: Record<string, any> }[] } {
  const [dashboard] = resources('AWS::CloudWatch::Dashboard');
  const parts = dashboard!.Properties.DashboardBody['Fn::Join'][1] as unknown[];
  return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : `REF:${JSON.stringify(part).replace(/"/g, "'")}`)).join(''));
}

const widget = (title: string) => {
  const found = dashboardBody().widgets.find((w) => w.properties.title === title);
  if (!found) throw new Error(`no widget "${title}"`);
  return found;
};

/** Metric arrays of a widget as [namespace, name, ...dimension pairs, options]. */
const metricsOf = (title: string) => widget(title).properties.metrics as unknown[][];

describe('ops dashboard', () => {
  test('one dashboard per stage with the widgets support and devops read', () => {
    ops.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'Loopcast-test' });
    expect(dashboardBody().widgets.map((w) => w.properties.title ?? w.type)).toEqual([
      'text',
      'Alarms',
      'API requests',
      'API 4xx and 5xx',
      'API latency p99 (ms)',
      'Realtime broadcast to all connections (s)',
      'Running streams',
      'Restarts and stalls per hour',
      'Recovery time (s)',
      'Reconciler findings',
      'Lifecycle handovers per hour',
      'Egress to destinations (GB per hour)',
      'Estimated cost per stream-month (USD, fargate data plane)',
      'Uploads and transcodes per hour',
      'Upload and transcode duration (s)',
      'Transcode events dead letters',
      'Lifecycle executions failed',
      'DynamoDB throttles',
      `YouTube quota used today (of ${YOUTUBE_DAILY_QUOTA.toLocaleString('en')} units)`,
      'YouTube quota per day (Pacific day)',
      'Stripe webhook failures',
      'Lambda errors by function',
      'Lambda throttles by function',
      'Lambda duration p99 by function (ms)',
    ]);
    // Rows of 24 columns.
    expect(dashboardBody().widgets.reduce((sum, w) => sum + w.width, 0) % 24).toBe(0);
  });

  test('errors, throttles and p99 duration of every function of the API and streaming stacks', () => {
    expect(functions.length).toBeGreaterThanOrEqual(12);
    for (const [title, metricName, stat] of [
      ['Lambda errors by function', 'Errors', 'Sum'],
      ['Lambda throttles by function', 'Throttles', 'Sum'],
      ['Lambda duration p99 by function (ms)', 'Duration', 'p99'],
    ] as const) {
      const metrics = metricsOf(title);
      expect(metrics).toHaveLength(functions.length);
      for (const { fn, stack } of functions) {
        const line = metrics.find((m) => String(m[3]).includes(logicalId(stack, fn)));
        expect(line).toBeDefined();
        expect(line!.slice(0, 3)).toEqual(['AWS/Lambda', metricName, 'FunctionName']);
        expect(line![4]).toMatchObject({ stat, label: fn.node.id.replace(/Function$/, '') });
      }
    }
  });

  test('business metrics come from the shared contract, per stage, with the statistics each widget needs', () => {
    const business = (name: string) => [METRICS_NAMESPACE, name, 'service', 'loopcast', 'stage', 'test'];
    expect(metricsOf('Running streams')[0]).toEqual([...business(metricNames.streamsRunning), expect.objectContaining({ stat: 'Maximum' })]);
    expect(metricsOf('Restarts and stalls per hour').map((m) => m[1])).toEqual([
      metricNames.streamTaskRestarts,
      metricNames.ffmpegRestarts,
      metricNames.streamStalls,
    ]);
    expect(widget('Restarts and stalls per hour').properties.metrics.every((m: unknown[]) => (m.at(-1) as { period?: number }).period === 3600)).toBe(true);
    expect(metricsOf('Recovery time (s)').map((m) => (m.at(-1) as { stat: string }).stat)).toEqual(['p50', 'p99']);
    expect(metricsOf('Realtime broadcast to all connections (s)').map((m) => [...m.slice(0, 6), (m.at(-1) as { stat: string }).stat])).toEqual([
      [...business(metricNames.realtimeBroadcastSeconds), 'p50'],
      [...business(metricNames.realtimeBroadcastSeconds), 'p99'],
    ]);
    const uploadsAndTranscodes = metricsOf('Uploads and transcodes per hour');
    expect(uploadsAndTranscodes.map((m) => [m[1], (m.at(-1) as { label: string }).label])).toEqual([
      [metricNames.uploadsStarted, 'Uploads started'],
      [metricNames.uploadsCompleted, 'Uploads completed'],
      [metricNames.uploadsFailed, 'Uploads failed'],
      [metricNames.transcodesStarted, 'Transcodes started'],
      [metricNames.transcodesCompleted, 'Transcodes completed'],
      [metricNames.transcodesFailed, 'Transcodes failed'],
    ]);
    for (const m of uploadsAndTranscodes) {
      expect(m.slice(0, 6)).toEqual(business(m[1] as string));
      expect(m.at(-1)).toMatchObject({ stat: 'Sum', period: 3600 });
    }
    const durations = metricsOf('Upload and transcode duration (s)');
    expect(durations.map((m) => [m[1], (m.at(-1) as { stat: string }).stat, (m.at(-1) as { label: string }).label])).toEqual([
      [metricNames.uploadSeconds, 'p50', 'Upload p50'],
      [metricNames.uploadSeconds, 'p99', 'Upload p99'],
      [metricNames.transcodeSeconds, 'p50', 'Transcode p50'],
      [metricNames.transcodeSeconds, 'p99', 'Transcode p99'],
    ]);
    for (const m of durations) expect(m.slice(0, 6)).toEqual(business(m[1] as string));
    expect(metricsOf('Stripe webhook failures')[0]!.slice(0, 6)).toEqual(business(metricNames.stripeWebhookFailures));
    const quota = metricsOf(`YouTube quota used today (of ${YOUTUBE_DAILY_QUOTA.toLocaleString('en')} units)`)[0]!;
    expect(quota.slice(0, 6)).toEqual(business(metricNames.youtubeQuotaUsedToday));
    // The day's running total as last reported: its maximum over five minutes (the default period, left out).
    expect(quota.at(-1)).toEqual({ stat: 'Maximum', label: 'Units today' });
    expect(widget('YouTube quota per day (Pacific day)').properties.annotations.horizontal.map((a: { value: number }) => a.value)).toEqual([8_000, 10_000]);
  });

  test('API, state machine, table (and its index) and dead-letter queue widgets read their AWS metrics', () => {
    expect(metricsOf('API 4xx and 5xx').map((m) => m.slice(0, 2))).toEqual([
      ['AWS/ApiGateway', '4xx'],
      ['AWS/ApiGateway', '5xx'],
    ]);
    expect(metricsOf('API latency p99 (ms)')[0]!.at(-1)).toMatchObject({ stat: 'p99' });
    expect(metricsOf('Lifecycle executions failed').map((m) => m.slice(0, 2))).toEqual([
      ['AWS/States', 'ExecutionsFailed'],
      ['AWS/States', 'ExecutionsTimedOut'],
    ]);
    const throttles = metricsOf('DynamoDB throttles');
    expect(throttles.map((m) => [m[1], m.includes('GlobalSecondaryIndexName') ? m[m.indexOf('GlobalSecondaryIndexName') + 1] : 'table'])).toEqual([
      ['ReadThrottleEvents', 'table'],
      ['WriteThrottleEvents', 'table'],
      ['ReadThrottleEvents', 'gsi1'],
      ['WriteThrottleEvents', 'gsi1'],
    ]);
    expect(metricsOf('Transcode events dead letters')[0]!.slice(0, 2)).toEqual(['AWS/SQS', 'ApproximateNumberOfMessagesVisible']);
  });
});

describe('the cost widgets', () => {
  /** A widget's metrics by id (the one shown has none): math expressions as their options, metrics as their array. */
  const byId = (metrics: unknown[][]) =>
    Object.fromEntries(
      metrics.map((m) => {
        const options = m.at(-1) as { id?: string; expression?: string };
        return [options.id ?? 'shown', options.expression !== undefined ? options : m];
      }),
    );
  const business = (name: string, stat: Record<string, unknown>) => [
    METRICS_NAMESPACE,
    name,
    'service',
    'loopcast',
    'stage',
    'test',
    { id: expect.any(String), visible: false, period: 3600, ...stat },
  ];
  const step = (id: string) => dashboardCostEstimate('fargate').steps.find((each) => each.id === id)!.expression;

  test('egress GB and the estimated cost per stream-month come from the egress and running-streams metrics, hourly', () => {
    const egress = byId(metricsOf('Egress to destinations (GB per hour)'));
    expect(egress).toEqual({
      shown: { label: 'GB on the wire per hour', expression: step('egressGb'), period: 3600 },
      bytes: business(metricNames.streamEgressBytes, { stat: 'Sum' }),
    });

    const cost = byId(metricsOf('Estimated cost per stream-month (USD, fargate data plane)'));
    expect(cost).toEqual({
      shown: { label: 'USD per stream-month (fargate)', expression: step('cost'), period: 3600 },
      // The hour's average of the 5-minute gauge (Average is CloudWatch's default, left out).
      streams: business(metricNames.streamsRunning, {}),
      bytes: business(metricNames.streamEgressBytes, { stat: 'Sum' }),
      ...Object.fromEntries(['egressGb', 'monthGb', 'egressUsd'].map((id) => [id, { id, visible: false, expression: step(id), period: 3600 }])),
    });
  });

  test('a stage on the external data plane prices its hosts instead of AWS egress', () => {
    const external = Template.fromStack(synthesizeForTest({ dataPlane: 'external' }).stacks.ops);
    const [dashboard] = Object.values(external.findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard!.Properties.DashboardBody);
    expect(body).toContain('Estimated cost per stream-month (USD, external data plane)');
    for (const step of dashboardCostEstimate('external').steps) expect(body).toContain(JSON.stringify(step.expression).slice(1, -1).replace(/"/g, '\\"'));
    const [parameter] = Object.values(external.findResources('AWS::SSM::Parameter'));
    expect(JSON.stringify(parameter!.Properties.Value)).toContain('\\"DATA_PLANE\\":\\"external\\"');
  });

  test("the cost model counts the stage's alarms", () => {
    expect(stacks.ops.alarms).toHaveLength(fleetFixed.alarms);
  });
});

describe('ops alarms', () => {
  const alarms = Object.fromEntries(resources('AWS::CloudWatch::Alarm').map((alarm) => [alarm.Properties.AlarmName as string, alarm.Properties]));
  const topicRef = { Ref: stacks.ops.getLogicalId(stacks.ops.alarmTopic.node.defaultChild as never) };

  test('what needs a human, with its threshold', () => {
    const thresholds = Object.fromEntries(Object.entries(alarms).map(([name, alarm]) => [name.replace('Loopcast-test-', ''), alarm.Threshold]));
    expect(thresholds).toEqual({
      ApiServerErrors: 5,
      LifecycleErrors: 1,
      LifecycleFailedErrors: 1,
      BillingWebhookErrors: 1,
      UploadsErrors: 3,
      TranscodeEventsErrors: 1,
      LifecycleExecutionsFailed: 1,
      TableThrottles: 10,
      YouTubeQuota: 8_000,
      StripeWebhookFailures: 3,
      TranscodeFailureRatio: 0.2,
      StreamCrashLoop: STREAM_RESTARTS_PER_HOUR_ALARM,
      TranscodeEventsDeadLetters: 1,
      OrphanTasks: 1,
      StreamReconcilerErrors: 3,
    });
    expect(STREAM_RESTARTS_PER_HOUR_ALARM).toBe(20);
    for (const alarm of Object.values(alarms)) {
      expect(alarm).toMatchObject({
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: [topicRef],
        OKActions: [topicRef],
      });
    }
  });

  /** What an alarm reads, whether CloudFormation got a single metric or a list (labelled metrics, math). */
  function watched(name: string): {
    expression?: string;
    metrics: { Namespace: string; MetricName: string; Stat: string; Period: number; Dimensions?: unknown }[];
  } {
    const alarm = alarms[name]!;
    if (alarm.MetricName)
      return {
        metrics: [
          {
            Namespace: alarm.Namespace,
            MetricName: alarm.MetricName,
            Stat: alarm.Statistic ?? alarm.ExtendedStatistic,
            Period: alarm.Period,
            Dimensions: alarm.Dimensions,
          },
        ],
      };
    const entries = alarm.Metrics as {
      Expression?: string;
      MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: unknown }; Stat: string; Period: number };
    }[];
    const expression = entries.find((entry) => entry.Expression)?.Expression;
    return {
      ...(expression ? { expression } : {}),
      metrics: entries.flatMap((entry) =>
        entry.MetricStat ? [{ ...entry.MetricStat.Metric, Stat: entry.MetricStat.Stat, Period: entry.MetricStat.Period }] : [],
      ),
    };
  }

  test('each alarm watches the right metric', () => {
    const single = (name: string) => {
      const { expression, metrics } = watched(`Loopcast-test-${name}`);
      expect(expression).toBeUndefined();
      expect(metrics).toHaveLength(1);
      return metrics[0]!;
    };
    expect(single('ApiServerErrors')).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: '5xx', Stat: 'Sum', Period: 300 });
    for (const [name, fn, stack] of [
      ['LifecycleErrors', stacks.streaming.node.findChild('LifecycleFunction'), stacks.streaming],
      ['LifecycleFailedErrors', stacks.streaming.node.findChild('LifecycleFailedFunction'), stacks.streaming],
      ['BillingWebhookErrors', stacks.api.functions['billing-webhook']!, stacks.api],
      ['UploadsErrors', stacks.api.uploadsFunction, stacks.api],
      ['TranscodeEventsErrors', stacks.api.functions['transcode-events']!, stacks.api],
    ] as const) {
      const metric = single(name);
      expect(metric).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Stat: 'Sum', Period: 300 });
      expect(JSON.stringify(metric.Dimensions)).toContain(logicalId(stack, fn));
    }
    expect(single('YouTubeQuota')).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: metricNames.youtubeQuotaUsedToday, Stat: 'Maximum', Period: 300 });
    expect(single('StripeWebhookFailures')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: metricNames.stripeWebhookFailures,
      Stat: 'Sum',
      Period: 3600,
    });
    // A crash loop: stream task restarts by the lifecycle, summed over every stream of the stage, per hour.
    const restarts = single('StreamCrashLoop');
    expect(restarts).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: metricNames.streamTaskRestarts, Stat: 'Sum', Period: 3600 });
    expect(restarts.Dimensions).toEqual([
      { Name: 'service', Value: 'loopcast' },
      { Name: 'stage', Value: 'test' },
    ]);
    expect(single('TranscodeEventsDeadLetters')).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Stat: 'Maximum' });

    const ratio = watched('Loopcast-test-TranscodeFailureRatio');
    expect(ratio.expression).toBe('IF(FILL(f, 0) + FILL(c, 0) >= 5, FILL(f, 0) / (FILL(f, 0) + FILL(c, 0)), 0)');
    expect(ratio.metrics.map((m) => [m.MetricName, m.Period]).sort()).toEqual([
      [metricNames.transcodesCompleted, 3600],
      [metricNames.transcodesFailed, 3600],
    ]);
    const executions = watched('Loopcast-test-LifecycleExecutionsFailed');
    expect(executions.expression).toBe('FILL(failed, 0) + FILL(timedOut, 0)');
    expect(executions.metrics.map((m) => m.MetricName)).toEqual(['ExecutionsFailed', 'ExecutionsTimedOut']);
    const throttles = watched('Loopcast-test-TableThrottles');
    expect(throttles.metrics.map((m) => m.MetricName)).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents', 'ReadThrottleEvents', 'WriteThrottleEvents']);
    expect(throttles.expression!.split(' + ')).toHaveLength(4);
  });

  test('every alarm links to its section of the runbook, which exists', () => {
    const runbook = readFileSync(join(import.meta.dirname, '..', 'docs', 'operations.md'), 'utf8');
    // GitHub's anchors: headings lower-cased, punctuation dropped, spaces to dashes.
    const anchors = new Set(
      [...runbook.matchAll(/^#{2,4} (.+)$/gm)].map(([, heading]) =>
        heading!
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    for (const [name, alarm] of Object.entries(alarms)) {
      const [, anchor] = /docs\/operations\.md#([\w-]+)$/.exec(alarm.AlarmDescription as string) ?? [];
      expect([name, anchor && anchors.has(anchor)]).toEqual([name, true]);
    }
  });

  test('the alarm topic is encrypted with its own key, which goes with the stack', () => {
    ops.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [stacks.ops.getLogicalId(stacks.ops.node.findChild('AlarmTopicKey').node.defaultChild as never), 'Arn'] },
    });
    ops.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Delete', Properties: { EnableKeyRotation: true } });
  });

  test('the alarm topic e-mails the configured address, and only then', () => {
    ops.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    Template.fromStack(synthesizeForTest().stacks.ops).resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('saved Logs Insights queries', () => {
  const queries = Object.fromEntries(resources('AWS::Logs::QueryDefinition').map((q) => [q.Properties.Name as string, q.Properties]));

  test("a user's activity, a stream's history and recent errors", () => {
    expect(Object.keys(queries).sort()).toEqual([
      'Loopcast-test/Errors (run over the last hour)',
      'Loopcast-test/Stream history (replace STREAM_ID)',
      'Loopcast-test/User activity (replace USER_ID)',
    ]);
    expect(queries['Loopcast-test/User activity (replace USER_ID)']!.QueryString).toContain('| filter userId = "USER_ID" or @message like "USER_ID"');
    expect(queries['Loopcast-test/Stream history (replace STREAM_ID)']!.QueryString).toContain('| filter streamId = "STREAM_ID" or @message like "STREAM_ID"');
    const errors = queries['Loopcast-test/Errors (run over the last hour)']!.QueryString as string;
    expect(errors).toMatch(/\| filter level in \["ERROR", "CRITICAL", "FATAL"\] or record\.status in .*\n\| sort @timestamp desc/);
    expect(errors).toContain('not ispresent(_aws.Timestamp)');
  });

  test("each covers every function's log group and the stream task's", () => {
    const taskLogs = logicalId(stacks.streaming, stacks.streaming.node.findChild('StreamTaskLogs'));
    for (const query of Object.values(queries)) {
      const names = JSON.stringify(query.LogGroupNames);
      expect(query.LogGroupNames).toHaveLength(functions.length + 1);
      expect(names).toContain(taskLogs);
      for (const { fn, stack } of functions) expect(names).toContain(logicalId(stack, fn.logGroup as never));
    }
  });
});

test("the support tool finds the stage's settings in SSM: the functions' environment", () => {
  const [parameter] = resources('AWS::SSM::Parameter');
  expect(parameter!.Properties.Name).toBe('/loopcast/test/support/environment');
  const value = JSON.stringify(parameter!.Properties.Value);
  for (const name of ['STAGE', 'APP_TABLE', 'MEDIA_BUCKET', 'STREAM_LIFECYCLE_ARN', 'STRIPE_SECRET_ARN', 'REALTIME_MANAGEMENT_URL'])
    expect(value).toContain(`\\"${name}\\":`);
  // The Stripe prices tool checks prices against the stage's data plane.
  expect(value).toContain('\\"DATA_PLANE\\":\\"fargate\\"');
});
