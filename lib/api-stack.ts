import { Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnStage, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { envFromConfig } from '../lambdas/adapters/config';
import { API_BASE, handlerGroups, routes, type HandlerGroup } from '../lambdas/contract/routes';
import { appTable } from '../lambdas/contract/tables';
import { HandlerFunction } from './constructs/handler-function';
import { publicUrlParameterName, type StageConfig } from './stage';

export interface ApiStackProps extends StackProps {
  table: ITableV2;
  mediaBucket: IBucket;
}

/** Item-level DynamoDB actions on the table and its index: named explicitly, no wildcards. */
const tableDataActions = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];

function grantTableData(fn: HandlerFunction, table: ITableV2): void {
  fn.addToRolePolicy(new PolicyStatement({
    actions: tableDataActions,
    resources: [table.tableArn, ...appTable.indexes.map((index) => `${table.tableArn}/index/${index.name}`)],
  }));
}

/** SES identities a sender may use: the address itself and its domain (whichever one is verified). */
function grantSendEmail(fn: HandlerFunction, stack: Stack, mailFrom: string): void {
  const domain = mailFrom.split('@')[1] ?? mailFrom;
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['ses:SendEmail'],
    resources: [mailFrom, domain].map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
  }));
}

/** What each handler group may do beyond logging: least privilege, one place. */
type Grant = (fn: HandlerFunction, props: ApiStackProps, stack: Stack, config: StageConfig) => void;
const groupGrants: Record<HandlerGroup, Grant> = {
  system: (fn, { table, mediaBucket }) => {
    // The health check only: DescribeTable on the table, HeadBucket (s3:ListBucket) on the bucket, no data access.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [table.tableArn] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [mediaBucket.bucketArn] }));
  },
  auth: (fn, { table }, stack, config) => {
    grantTableData(fn, table);
    grantSendEmail(fn, stack, config.mailFrom);
  },
};

/** The HTTP API: one route per entry of lambdas/contract/routes.ts, one function per handler group. */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  readonly functions: Record<string, HandlerFunction>;

  constructor(scope: Construct, id: string, config: StageConfig, props: ApiStackProps) {
    super(scope, id, props);
    this.httpApi = new HttpApi(this, 'HttpApi', { description: `Loopcast ${config.stage} API` });
    this.configureStage();

    const environment = {
      ...envFromConfig({ stage: config.stage, tables: { app: props.table.tableName }, buckets: { media: props.mediaBucket.bucketName } }),
      ...(config.domain ? { PUBLIC_URL: `https://${config.domain}` } : { PUBLIC_URL_PARAMETER: publicUrlParameterName(config) }),
      MAIL_FROM: config.mailFrom,
    };

    this.functions = {};
    for (const group of handlerGroups()) {
      const fn = new HandlerFunction(this, `${pascal(group)}Function`, {
        entry: `http/${group}.ts`,
        description: `Loopcast ${config.stage} API: ${group} routes`,
        environment,
      });
      groupGrants[group](fn, props, this, config);
      if (!config.domain) {
        fn.addToRolePolicy(new PolicyStatement({
          actions: ['ssm:GetParameter'],
          resources: [this.formatArn({ service: 'ssm', resource: 'parameter', resourceName: publicUrlParameterName(config).slice(1) })],
        }));
      }
      this.functions[group] = fn;
    }

    const integrations = new Map(
      Object.entries(this.functions).map(([group, fn]) => [group, new HttpLambdaIntegration(`${pascal(group)}Integration`, fn)]),
    );
    const addRoute = (id: string, routeKey: HttpRouteKey, group: string) => {
      const route = new HttpRoute(this, id, { httpApi: this.httpApi, routeKey, integration: integrations.get(group)! });
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: 'Routes authenticate in the handler (opaque session tokens checked against DynamoDB, or a Stripe signature), identically in AWS and the local stack.',
      });
    };
    for (const route of routes) {
      addRoute(`Route ${route.method} ${route.path}`, HttpRouteKey.with(`${API_BASE}${route.path}`, HttpMethod[route.method]), route.group);
    }
    // Unmatched requests reach the system function, which answers the catalogued 'route not found' (as locally).
    addRoute('DefaultRoute', HttpRouteKey.DEFAULT, 'system');
  }

  /** Access logs and throttling on the $default stage (HttpApi's L2 has no props for them). */
  private configureStage(): void {
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS });
    const stage = this.httpApi.defaultStage!.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        method: '$context.httpMethod',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latencyMs: '$context.responseLatency',
        integrationError: '$context.integrationErrorMessage',
      }),
    };
    stage.defaultRouteSettings = { throttlingBurstLimit: 200, throttlingRateLimit: 100 };
  }
}

const pascal = (name: string) => name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
