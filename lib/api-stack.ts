import { ArnFormat, Duration, SecretValue, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnStage, HttpApi, HttpMethod, HttpRoute, HttpRouteKey, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IGrantable, type IRole } from 'aws-cdk-lib/aws-iam';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FunctionUrlAuthType, InvokeMode, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { CfnQueue } from 'aws-cdk-lib/aws-mediaconvert';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { envFromConfig } from '../lambdas/adapters/config';
import { API_BASE, handlerGroups, routeKeyOf, routes, type HandlerGroup } from '../lambdas/contract/routes';
import { appTable } from '../lambdas/contract/tables';
import { UPLOADS_FUNCTION_ENVIRONMENT } from '../lambdas/uploads/process-environment';
import { HandlerFunction } from './constructs/handler-function';
import { acknowledgeFindings, acknowledgeMediaPrefixes } from './constructs/nag';
import { publicUrlParameterName, type StageConfig } from './stage';
import { indexFamilies, itemFamilies, tableAccess, type TableUser } from '../lambdas/contract/table-access';

export interface ApiStackProps extends StackProps {
  table: ITableV2;
  mediaBucket: IBucket;
  secretsKey: IKey;
  transcodeQueue: CfnQueue;
  transcodeRole: IRole;
}

/** The stream lifecycle state machine has a fixed name, so the API can name it before the streaming stack exists
 * (that stack needs the API's functions and realtime stage: a reference would be circular). */
export const streamLifecycleName = (config: StageConfig) => `loopcast-${config.stage}-stream-lifecycle`;
/** Likewise the streams cluster and the stream task's family: functions stop a stream's tasks by these names. */
export const streamClusterName = (config: StageConfig) => `loopcast-${config.stage}-streams`;
export const streamTaskFamily = (config: StageConfig) => `loopcast-${config.stage}-stream-task`;
/** Likewise the streams' schedules (lib/streaming-stack.ts makes them): their EventBridge Scheduler group, the
 * function they invoke and the role Scheduler invokes it with, which the streams routes name when they set a schedule. */
export const streamScheduleGroupName = (config: StageConfig) => `loopcast-${config.stage}-streams`;
export const streamScheduleFunctionName = (config: StageConfig) => `loopcast-${config.stage}-stream-schedule`;
export const streamSchedulerRoleName = (config: StageConfig) => `loopcast-${config.stage}-stream-schedules`;

/** Item-level DynamoDB actions on the table and its index: named explicitly, no wildcards. */
const tableDataActions = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

const REALTIME_STAGE = 'live';

/** The HTTP API stage's throttle for every client together: the default, and tighter for the routes anyone may
 * POST to without a session (sign-in, sign-up, resets, confirmations, the payment webhook), so a flood of those
 * cannot use up the budget of the whole API. Per client, AWS WAF limits first (lib/edge-stack.ts). */
export const apiThrottle = { rateLimit: 100, burstLimit: 200 };
export const openRouteThrottle = { rateLimit: 20, burstLimit: 40 };

/**
 * The APIs: the HTTP API (one route per entry of lambdas/contract/routes.ts, one function per handler group)
 * and the realtime WebSocket API on its own host (spec: a separate realtime service host).
 */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  readonly realtimeApi: WebSocketApi;
  readonly realtimeStage: WebSocketStage;
  readonly functions: Record<string, HandlerFunction> = {};
  /** The tus upload endpoint's function, behind its Function URL (CloudFront's /api/uploads* origin). */
  readonly uploadsFunction: HandlerFunction;
  readonly uploadsUrl: FunctionUrl;
  /** MediaConvert job events the transcode-events function could not apply. */
  readonly transcodeDeadLetters: Queue;
  private readonly handlerEnvironment: Record<string, string>;
  private readonly signingKey: Secret;
  private readonly stripeKeys: Secret;
  /** Google OAuth client, `{ clientId, clientSecret }` (docs/youtube.md); empty: YouTube is off. */
  readonly googleClient: Secret;
  readonly telegramBot: Secret;
  /** What CloudFront adds as `x-origin-verify` to its API origin requests (lib/web-stack.ts): the HTTP functions
   * believe `x-viewer-address` only beside it (lambdas/http/handler.ts). */
  readonly originVerify: Secret;

  constructor(
    scope: Construct,
    id: string,
    private readonly config: StageConfig,
    private readonly props: ApiStackProps,
  ) {
    super(scope, id, props);
    this.httpApi = new HttpApi(this, 'HttpApi', { description: `Loopcast ${config.stage} API` });
    const httpStage = this.httpApi.defaultStage!.node.defaultChild as CfnStage;
    this.logAccess(httpStage, 'ApiAccessLogs', { method: '$context.httpMethod', latencyMs: '$context.responseLatency' });
    httpStage.defaultRouteSettings = { throttlingBurstLimit: apiThrottle.burstLimit, throttlingRateLimit: apiThrottle.rateLimit };

    this.realtimeApi = new WebSocketApi(this, 'RealtimeApi', { description: `Loopcast ${config.stage} realtime` });
    this.realtimeStage = new WebSocketStage(this, 'RealtimeStage', {
      webSocketApi: this.realtimeApi,
      stageName: REALTIME_STAGE,
      autoDeploy: true,
      throttle: { burstLimit: 500, rateLimit: 200 },
    });
    this.logAccess(this.realtimeStage.node.defaultChild as CfnStage, 'RealtimeAccessLogs', {
      eventType: '$context.eventType',
      connectionId: '$context.connectionId',
    });
    this.signingKey = new Secret(this, 'SigningKey', {
      description: 'HMAC key of the short-lived realtime tokens (GET /api/ws) and signed media URLs',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.signingKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Signs realtime tokens (5 minutes) and media URLs (1 hour); rotating it means redeploying, which only invalidates those.',
    });

    // The operator puts `{ "secretKey": "sk_live_...", "webhookSecret": "whsec_..." }` here (docs/deploy.md);
    // until then checkout answers 'payment provider missing configuration' and the free trial works.
    this.stripeKeys = new Secret(this, 'StripeKeys', {
      description: 'Stripe secret key and webhook signing secret (JSON)',
      secretStringValue: SecretValue.unsafePlainText('{}'),
    });
    Validations.of(this.stripeKeys).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Stripe keys are rotated in the Stripe dashboard and pasted in by the operator.',
    });
    this.googleClient = new Secret(this, 'GoogleOAuthClient', {
      description: 'Google OAuth client id and secret (JSON) for connecting YouTube accounts',
      secretStringValue: SecretValue.unsafePlainText('{}'),
    });
    Validations.of(this.googleClient).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The OAuth client secret is rotated in Google Cloud Console and pasted in by the operator.',
    });
    // The operator's Telegram bot (docs/deploy.md): `{ "botToken", "botUsername", "webhookSecret" }`; empty, alerts go
    // by e-mail only.
    this.telegramBot = new Secret(this, 'TelegramBot', {
      description: 'Telegram bot token, username and webhook secret (JSON) for stream alerts',
      secretStringValue: SecretValue.unsafePlainText('{}'),
    });
    Validations.of(this.telegramBot).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The bot token is rotated with BotFather and pasted in by the operator, who also sets the webhook secret.',
    });

    // Generated at deploy, never in the repository; CloudFront reads it through a dynamic reference when its
    // distribution deploys, the functions at run time. Rotated by hand (docs/deploy.md).
    this.originVerify = new Secret(this, 'OriginVerify', {
      description: 'Sent by CloudFront to the API origins as x-origin-verify; the API believes x-viewer-address only beside it',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.originVerify).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront takes the value only when its distribution deploys, so a rotation schedule cannot reach it; it is rotated by hand with a Web stack deploy (docs/deploy.md).',
    });

    this.handlerEnvironment = {
      ...envFromConfig({ stage: config.stage, tables: { app: props.table.tableName }, buckets: { media: props.mediaBucket.bucketName } }),
      ...(config.domain ? { PUBLIC_URL: `https://${config.domain}` } : { PUBLIC_URL_PARAMETER: publicUrlParameterName(config) }),
      MAIL_FROM: config.mailFrom,
      REALTIME_URL: this.realtimeStage.url,
      REALTIME_MANAGEMENT_URL: this.realtimeStage.callbackUrl,
      SIGNING_KEY_ARN: this.signingKey.secretArn,
      STRIPE_SECRET_ARN: this.stripeKeys.secretArn,
      GOOGLE_SECRET_ARN: this.googleClient.secretArn,
      TELEGRAM_SECRET_ARN: this.telegramBot.secretArn,
      ORIGIN_VERIFY_SECRET_ARN: this.originVerify.secretArn,
      SECRETS_KEY_ARN: props.secretsKey.keyArn,
      STREAM_LIFECYCLE_ARN: this.streamLifecycleArn,
      STREAM_CLUSTER: streamClusterName(config),
      STREAM_TASK_FAMILY: streamTaskFamily(config),
      STREAM_SCHEDULE_GROUP: streamScheduleGroupName(config),
      STREAM_SCHEDULE_TARGET_ARN: this.streamScheduleFunctionArn,
      STREAM_SCHEDULE_ROLE_ARN: this.streamSchedulerRoleArn,
      MEDIACONVERT_QUEUE_ARN: props.transcodeQueue.attrArn,
      MEDIACONVERT_ROLE_ARN: props.transcodeRole.roleArn,
    };

    this.addHttpRoutes();
    this.addRealtimeRoutes();
    this.uploadsFunction = this.addUploads();
    this.uploadsUrl = this.uploadsFunction.addFunctionUrl({ authType: FunctionUrlAuthType.NONE, invokeMode: InvokeMode.BUFFERED });
    this.transcodeDeadLetters = this.addTranscodeEvents();
  }

  get streamLifecycleArn(): string {
    return this.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: streamLifecycleName(this.config),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  get streamScheduleFunctionArn(): string {
    return this.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: streamScheduleFunctionName(this.config),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  get streamSchedulerRoleArn(): string {
    return this.formatArn({ service: 'iam', region: '', resource: 'role', resourceName: streamSchedulerRoleName(this.config) });
  }

  /** Environment every Loopcast function and the stream task share (lambdas/adapters/config.ts reads it). */
  get environmentForHandlers(): Record<string, string> {
    return { ...this.handlerEnvironment };
  }

  /** A Loopcast function with the common environment and the right to read the public URL parameter. */
  handlerFunction(scope: Construct, id: string, entry: string, description: string, timeout?: Duration, functionName?: string): HandlerFunction {
    const fn = new HandlerFunction(scope, id, {
      entry,
      description: `Loopcast ${this.config.stage}: ${description}`,
      environment: this.handlerEnvironment,
      ...(timeout ? { timeout } : {}),
      ...(functionName ? { functionName } : {}),
    });
    if (!this.config.domain) {
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['ssm:GetParameter'],
          resources: [this.formatArn({ service: 'ssm', resource: 'parameter', resourceName: publicUrlParameterName(this.config).slice(1) })],
        }),
      );
    }
    return fn;
  }

  /** Item access to the table, limited to the partition-key families the function is given
   * (lambdas/contract/table-access.ts; the local stack enforces the same list). Scans are never granted. */
  grantTableData(grantee: IGrantable, user: TableUser): void {
    const access = tableAccess[user];
    const table = this.props.table.tableArn;
    const indexes = appTable.indexes.map((index) => `${table}/index/${index.name}`);
    const principal = grantee.grantPrincipal;
    if (access === 'whole table') {
      principal.addToPrincipalPolicy(new PolicyStatement({ actions: tableDataActions, resources: [table, ...indexes] }));
      return;
    }
    const leadingKeys = (prefixes: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((prefix) => `${prefix}*`) } });
    if (access.items.length) {
      principal.addToPrincipalPolicy(
        new PolicyStatement({ actions: tableDataActions, resources: [table], conditions: leadingKeys(access.items.map((family) => itemFamilies[family])) }),
      );
    }
    if (access.index.length) {
      principal.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexes, conditions: leadingKeys(access.index.map((family) => indexFamilies[family])) }),
      );
    }
  }

  /** SES identities a sender may use: the address itself and its domain (whichever one is verified). */
  /** What telling a creator needs: e-mail (SES) and the Telegram bot's secret. */
  grantAlerts(fn: HandlerFunction): void {
    this.grantSendEmail(fn);
    this.telegramBot.grantRead(fn);
  }

  private grantSendEmail(fn: HandlerFunction): void {
    const domain = this.config.mailFrom.split('@')[1] ?? this.config.mailFrom;
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.config.mailFrom, domain].map((identity) => this.formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
      }),
    );
  }

  /** What YouTube broadcasts need: the Google client secret, the sealed refresh tokens, and thumbnails to send. */
  grantYouTube(grantee: IGrantable): void {
    this.googleClient.grantRead(grantee);
    this.props.secretsKey.grant(grantee, 'kms:Decrypt', 'kms:GenerateDataKey');
    this.grantMedia(grantee, ['s3:GetObject'], ['media/*']);
  }

  /** Object actions on prefixes of the media bucket (e.g. `media/*`). */
  grantMedia(grantee: IGrantable, actions: string[], prefixes: string[]): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions, resources: prefixes.map((prefix) => this.props.mediaBucket.arnForObjects(prefix)) }),
    );
    acknowledgeMediaPrefixes(grantee, prefixes);
  }

  /** Start and stop the stream lifecycle (its executions are named by run). */
  grantStreamLifecycle(grantee: IGrantable, actions: ('states:StartExecution' | 'states:StopExecution')[]): void {
    const executions = this.formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${streamLifecycleName(this.config)}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const stops = actions.includes('states:StopExecution');
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions, resources: stops ? [this.streamLifecycleArn, executions] : [this.streamLifecycleArn] }),
    );
    if (stops && grantee instanceof HandlerFunction) {
      acknowledgeFindings(
        grantee.role!,
        'AwsSolutions-IAM5',
        "Executions are named by run at start time; the grant covers this stage's lifecycle only.",
        new RegExp(`^Resource::arn:.*:execution:${streamLifecycleName(this.config)}:\\*$`),
      );
    }
  }

  /** Stopping a stream ends its tasks (StopTask, then DescribeTasks until they are gone, DescribeContainerInstances
   * for ECS Anywhere hosts that cannot be reached); the reconciler also lists
   * them (ListTasks on this cluster only) and the executions of this stage's lifecycle. */
  grantStreamTasks(grantee: HandlerFunction, options: { list?: boolean } = {}): void {
    const cluster = this.formatArn({ service: 'ecs', resource: 'cluster', resourceName: streamClusterName(this.config) });
    const tasks = this.formatArn({ service: 'ecs', resource: 'task', resourceName: `${streamClusterName(this.config)}/*` });
    grantee.addToRolePolicy(new PolicyStatement({ actions: ['ecs:StopTask', 'ecs:DescribeTasks'], resources: [tasks] }));
    // ECS Anywhere: a task whose host's agent is disconnected cannot stop now and is not waited for.
    const hosts = this.formatArn({ service: 'ecs', resource: 'container-instance', resourceName: `${streamClusterName(this.config)}/*` });
    grantee.addToRolePolicy(new PolicyStatement({ actions: ['ecs:DescribeContainerInstances'], resources: [hosts] }));
    if (options.list) {
      grantee.addToRolePolicy(new PolicyStatement({ actions: ['ecs:ListTasks'], resources: ['*'], conditions: { ArnEquals: { 'ecs:cluster': cluster } } }));
      grantee.addToRolePolicy(new PolicyStatement({ actions: ['states:ListExecutions'], resources: [this.streamLifecycleArn] }));
    }
    acknowledgeFindings(
      grantee.role!,
      'AwsSolutions-IAM5',
      "Task ids exist only once a task runs: StopTask and DescribeTasks cover this stage's streams cluster only.",
      new RegExp(`^Resource::arn:.*:ecs:.*:task/${streamClusterName(this.config)}/\\*$`),
    );
    acknowledgeFindings(
      grantee.role!,
      'AwsSolutions-IAM5',
      "Hosts register at run time: DescribeContainerInstances covers this stage's streams cluster only.",
      new RegExp(`^Resource::arn:.*:ecs:.*:container-instance/${streamClusterName(this.config)}/\\*$`),
    );
    if (options.list)
      acknowledgeFindings(
        grantee.role!,
        'AwsSolutions-IAM5',
        "ecs:ListTasks takes no resource; the statement is conditioned on this stage's streams cluster.",
        /^Resource::\*$/,
      );
  }

  /** Setting streams' wake-ups (lambdas/adapters/scheduler/): their schedules in this stage's group only, passing only
   * Scheduler's role of this stage, to Scheduler only. */
  grantStreamSchedules(fn: HandlerFunction): void {
    const schedules = this.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${streamScheduleGroupName(this.config)}/*` });
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'], resources: [schedules] }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.streamSchedulerRoleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    acknowledgeFindings(
      fn.role!,
      'AwsSolutions-IAM5',
      "One schedule per stream, named by the stream at run time: the grant covers this stage's schedule group only.",
      new RegExp(`^Resource::arn:.*:scheduler:.*:schedule/${streamScheduleGroupName(this.config)}/\\*$`),
    );
  }

  /** PostToConnection for functions that push realtime events. */
  grantRealtimePublish(fn: HandlerFunction): void {
    this.realtimeStage.grantManagementApiAccess(fn);
    acknowledgeFindings(
      fn.role!,
      'AwsSolutions-IAM5',
      'Connection ids are created by API Gateway at connect time; the grant is limited to this API and stage.',
      new RegExp(`^Resource::arn:.*:execute-api:.*RealtimeApi.*/${REALTIME_STAGE}/\\*/@connections/\\*$`),
    );
  }

  /** What each handler group may do beyond logging: least privilege, one place. */
  private grantGroup(group: HandlerGroup, fn: HandlerFunction): void {
    this.grantTableData(fn, group);
    switch (group) {
      case 'system':
        // The health check only: DescribeTable on the table, HeadBucket (s3:ListBucket) on the bucket, no data.
        fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [this.props.table.tableArn] }));
        fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.props.mediaBucket.bucketArn] }));
        break;
      case 'auth':
        this.grantSendEmail(fn);
        this.signingKey.grantRead(fn);
        // Sign-out and password resets close the account's realtime sockets (DeleteConnection).
        this.grantRealtimePublish(fn);
        break;
      case 'account':
        // The account page: e-mails (a new address, a changed password, closing); closing the account does what the
        // support tool's terminate does: streams stopped with their tasks and broadcasts, the subscription canceled
        // at Stripe, every object of the user listed and deleted (unfinished uploads aborted).
        this.grantRealtimePublish(fn);
        this.grantSendEmail(fn);
        this.stripeKeys.grantRead(fn);
        this.grantStreamLifecycle(fn, ['states:StopExecution']);
        this.grantStreamTasks(fn);
        this.grantYouTube(fn);
        this.grantMedia(fn, ['s3:DeleteObject', 's3:AbortMultipartUpload'], ['uploads/*', 'media/*']);
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['s3:ListBucket'],
            resources: [this.props.mediaBucket.bucketArn],
            conditions: { StringLike: { 's3:prefix': ['uploads/*', 'media/*'] } },
          }),
        );
        // Unfinished uploads (S3UserObjects lists those under the user's prefixes, then aborts them).
        fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucketMultipartUploads'], resources: [this.props.mediaBucket.bucketArn] }));
        break;
      case 'billing':
        this.stripeKeys.grantRead(fn);
        break;
      case 'billing-webhook':
        this.grantSendEmail(fn);
        this.grantRealtimePublish(fn);
        this.stripeKeys.grantRead(fn);
        break;
      case 'media':
        this.grantRealtimePublish(fn);
        this.signingKey.grantRead(fn);
        this.grantMedia(fn, ['s3:GetObject'], ['media/*']);
        this.grantMedia(fn, ['s3:DeleteObject'], ['uploads/*', 'media/*']);
        // A deleted item is removed from stopped streams; waiting streams may start (Step Functions).
        this.grantStreamLifecycle(fn, ['states:StartExecution']);
        this.grantYouTube(fn);
        // A quality change transcodes the item's stream-ready file again (POST /videos/{id}/quality).
        this.grantTranscodeStart(fn);
        break;
      case 'channels':
        this.grantYouTube(fn);
        break;
      case 'streams':
        this.grantRealtimePublish(fn);
        this.grantStreamLifecycle(fn, ['states:StartExecution', 'states:StopExecution']);
        this.grantStreamTasks(fn);
        this.grantYouTube(fn);
        this.grantMedia(fn, ['s3:PutObject', 's3:DeleteObject'], ['media/*']);
        this.grantStreamSchedules(fn);
        break;
      case 'notifications':
        this.telegramBot.grantRead(fn);
        break;
      case 'telegram-webhook':
        this.telegramBot.grantRead(fn);
        break;
      case 'stream-tasks':
        // What stream tasks reach through it: their run's lease and stream, their stream keys (KMS), their media
        // (presigned reads), their preview frame, realtime pushes, and YouTube broadcast rotation.
        this.grantRealtimePublish(fn);
        this.grantYouTube(fn);
        this.grantMedia(fn, ['s3:PutObject'], ['media/*/streams/*/preview.jpg']);
        break;
    }
  }

  private addHttpRoutes(): void {
    const integrations = new Map<string, HttpLambdaIntegration>();
    for (const group of handlerGroups()) {
      const fn = this.handlerFunction(this, `${pascal(group)}Function`, `http/${group}.ts`, `API ${group} routes`);
      this.grantGroup(group, fn);
      // Every group's handler checks x-origin-verify (lambdas/http/handler.ts) before it believes x-viewer-address.
      this.originVerify.grantRead(fn);
      this.functions[group] = fn;
      integrations.set(group, new HttpLambdaIntegration(`${pascal(group)}Integration`, fn));
    }
    const addRoute = (id: string, routeKey: HttpRouteKey, group: string) => {
      const route = new HttpRoute(this, id, { httpApi: this.httpApi, routeKey, integration: integrations.get(group)! });
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Routes authenticate in the handler (opaque session tokens checked against DynamoDB, or a Stripe signature), identically in AWS and the local stack.',
      });
      return route;
    };
    const stage = this.httpApi.defaultStage!.node.defaultChild as CfnStage;
    // A map CDK passes through as it is: CloudFormation's own property names.
    const throttled: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of routes) {
      const created = addRoute(`Route ${route.method} ${route.path}`, HttpRouteKey.with(`${API_BASE}${route.path}`, HttpMethod[route.method]), route.group);
      if (route.auth !== 'session' && route.method === 'POST') {
        throttled[routeKeyOf(route)] = { ThrottlingRateLimit: openRouteThrottle.rateLimit, ThrottlingBurstLimit: openRouteThrottle.burstLimit };
        // Route settings name existing routes only.
        stage.node.addDependency(created);
      }
    }
    stage.routeSettings = throttled;
    // Unmatched requests reach the system function, which answers the catalogued 'route not found' (as locally).
    addRoute('DefaultRoute', HttpRouteKey.DEFAULT, 'system');
  }

  private addRealtimeRoutes(): void {
    const authorizerFunction = this.handlerFunction(this, 'RealtimeAuthorizerFunction', 'realtime/authorizer.ts', 'realtime $connect authorizer');
    this.signingKey.grantRead(authorizerFunction);
    // A token opens a socket only while its session is open and the account active.
    this.grantTableData(authorizerFunction, 'realtime-authorizer');
    const connectionsFunction = this.handlerFunction(this, 'RealtimeConnectionsFunction', 'realtime/connections.ts', 'realtime connections');
    this.grantTableData(connectionsFunction, 'realtime-connections');
    this.functions['realtime-authorizer'] = authorizerFunction;
    this.functions['realtime-connections'] = connectionsFunction;

    const connections = new WebSocketLambdaIntegration('RealtimeConnections', connectionsFunction);
    this.realtimeApi.addRoute('$connect', {
      integration: connections,
      authorizer: new WebSocketLambdaAuthorizer('RealtimeAuthorizer', authorizerFunction, { identitySource: ['route.request.querystring.token'] }),
    });
    const disconnect = this.realtimeApi.addRoute('$disconnect', { integration: connections });
    Validations.of(disconnect).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: '$disconnect cannot carry an authorizer; it only removes the connection API Gateway closed.',
    });
  }

  /** tus uploads: a function behind its own Function URL, so upload bytes never pass API Gateway (whose payload
   * limit is 10 MB). It authenticates every request itself (Bearer session), so the URL needs no IAM auth. */
  private addUploads(): HandlerFunction {
    // The last PATCH completes the S3 multipart upload and registers the item: more than the API's 15 s.
    const fn = this.handlerFunction(this, 'UploadsFunction', 'uploads/function-url.ts', 'tus uploads (Function URL)', Duration.seconds(60));
    for (const [name, value] of Object.entries(UPLOADS_FUNCTION_ENVIRONMENT)) fn.addEnvironment(name, value);
    this.grantTableData(fn, 'uploads');
    this.grantRealtimePublish(fn);
    this.grantMedia(fn, ['s3:PutObject', 's3:GetObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'], ['uploads/*']);
    // Without s3:ListBucket a missing leftover `.part` object answers 403 instead of 404 and every PATCH fails.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.props.mediaBucket.bucketArn] }));
    this.grantTranscodeStart(fn);
    return fn;
  }

  /** Probe and CreateJob on this stage's queue, passing only the transcode role to MediaConvert. */
  private grantTranscodeStart(fn: HandlerFunction): void {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['mediaconvert:CreateJob'], resources: [this.props.transcodeQueue.attrArn] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['mediaconvert:Probe'], resources: ['*'] }));
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.props.transcodeRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'mediaconvert.amazonaws.com' } },
      }),
    );
    // Probe reads the source with the caller's own credentials.
    this.grantMedia(fn, ['s3:GetObject'], ['uploads/*']);
    Validations.of(fn.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'mediaconvert:Probe supports no resource-level permissions; X-Ray neither.',
    });
  }

  /** MediaConvert's job-state events of this stage's queue, applied to the media library. */
  private addTranscodeEvents(): Queue {
    const fn = this.handlerFunction(this, 'TranscodeEventsFunction', 'events/mediaconvert-job-state.ts', 'MediaConvert job state events');
    this.grantTableData(fn, 'transcode-events');
    this.grantRealtimePublish(fn);
    this.grantMedia(fn, ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], ['media/*']);
    this.grantMedia(fn, ['s3:DeleteObject'], ['uploads/*']);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [this.props.mediaBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['media/*'] } },
      }),
    );
    this.grantStreamLifecycle(fn, ['states:StartExecution']);
    this.grantYouTube(fn);
    this.functions['transcode-events'] = fn;
    const deadLetters = new Queue(this, 'TranscodeEventsDeadLetters', {
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
    });
    Validations.of(deadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This is the dead-letter queue itself.' });
    new Rule(this, 'TranscodeJobStateRule', {
      description: "MediaConvert job state changes of this stage's queue",
      eventPattern: {
        source: ['aws.mediaconvert'],
        detailType: ['MediaConvert Job State Change'],
        detail: { queue: [this.props.transcodeQueue.attrArn], status: ['PROGRESSING', 'STATUS_UPDATE', 'COMPLETE', 'ERROR', 'CANCELED'] },
      },
      targets: [new LambdaFunction(fn, { retryAttempts: 8, maxEventAge: Duration.hours(6), deadLetterQueue: deadLetters })],
    });
    return deadLetters;
  }

  /** JSON access logs for an API stage (neither L2 stage construct has props for them). */
  private logAccess(stage: CfnStage, id: string, fields: Record<string, string>): void {
    const accessLogs = new LogGroup(this, id, { retention: RetentionDays.THREE_MONTHS });
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        routeKey: '$context.routeKey',
        status: '$context.status',
        integrationError: '$context.integrationErrorMessage',
        ...fields,
      }),
    };
  }
}

const pascal = (name: string) => name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
