import { Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { API_BASE, routes } from '../lambdas/contract/routes';
import { errorCatalogue } from '../lambdas/core/errors';
import type { StageConfig } from './stage';

/** Where the web ACL's ARN is kept for the Web stack (in us-east-1, where the ACL is). */
export const webAclParameterName = (config: StageConfig): string => `/loopcast/${config.stage}/web-acl-arn`;

/** CloudFront takes web ACLs from us-east-1 only. */
export const EDGE_REGION = 'us-east-1';

/** Requests per IP in any 5 minutes, over every path (a page view is a few dozen requests). */
export const RATE_LIMIT_PER_IP = 2000;
/** Per IP in any 5 minutes, on the account routes anyone may call (sign-in, sign-up, reset, confirm): the API's own
 * limits (docs/accounts.md) count in DynamoDB; this stops floods before they cost a function call. */
export const ACCOUNT_RATE_LIMIT_PER_IP = 100;

/** The routes anyone may POST to without a session: the targets of guessing and floods (Stripe's webhook, which
 * comes in bursts from few addresses, is not one of them). */
export const openPostPaths = routes.filter((route) => route.auth === 'public' && route.method === 'POST').map((route) => `${API_BASE}${route.path}`);

const visibility = (name: string): CfnWebACL.VisibilityConfigProperty => ({ cloudWatchMetricsEnabled: true, metricName: name, sampledRequestsEnabled: true });
const path = (searchString: string, positionalConstraint: 'EXACTLY' | 'STARTS_WITH' | 'ENDS_WITH'): CfnWebACL.StatementProperty => ({
  byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint, searchString, textTransformations: [{ priority: 0, type: 'NONE' }] },
});
const managed = (
  name: string,
  priority: number,
  extra: Partial<CfnWebACL.ManagedRuleGroupStatementProperty> = {},
  scopeDown?: CfnWebACL.StatementProperty,
): CfnWebACL.RuleProperty => ({
  name,
  priority,
  overrideAction: { none: {} },
  statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ...extra, ...(scopeDown ? { scopeDownStatement: scopeDown } : {}) } },
  visibilityConfig: visibility(name),
});

/**
 * AWS WAF where traffic enters (security audit L11): a CloudFront-scoped web ACL, so in us-east-1, in a stack of its
 * own; the Web stack attaches it to the distribution (lib/web-stack.ts). The API's own endpoint and the uploads
 * Function URL cannot carry a WAF (HTTP APIs and Function URLs take none): they serve only CloudFront's requests
 * (the origin-verify secret, lambdas/adapters/origin-verify.ts), so nothing bypasses this ACL.
 */
export class EdgeStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, config: StageConfig, props: StackProps = {}) {
    super(scope, id, props);
    const tooMany = errorCatalogue['too many requests'];
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `loopcast-${config.stage}-edge`,
      description: `Loopcast ${config.stage}: managed rule groups and per-IP rate limits in front of CloudFront`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`loopcast-${config.stage}-edge`),
      customResponseBodies: {
        TooManyRequests: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ error: 'too many requests', message: tooMany.message }) },
      },
      rules: [
        managed('AWSManagedRulesAmazonIpReputationList', 0),
        // Upload chunks and thumbnails are binary: the body rules would read pictures and video as attacks, and the
        // size rule (8 KB) would refuse them. Their routes check bodies themselves (tus, image decoding).
        managed(
          'AWSManagedRulesCommonRuleSet',
          1,
          { ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }] },
          {
            notStatement: { statement: { orStatement: { statements: [path(`${API_BASE}/uploads`, 'STARTS_WITH'), path('/thumbnail', 'ENDS_WITH')] } } },
          },
        ),
        managed('AWSManagedRulesKnownBadInputsRuleSet', 2),
        {
          name: 'RateLimitPerIp',
          priority: 3,
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooManyRequests' } } },
          statement: { rateBasedStatement: { limit: RATE_LIMIT_PER_IP, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
        {
          name: 'RateLimitAccountRoutesPerIp',
          priority: 4,
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooManyRequests' } } },
          statement: {
            rateBasedStatement: {
              limit: ACCOUNT_RATE_LIMIT_PER_IP,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: { orStatement: { statements: openPostPaths.map((route) => path(route, 'EXACTLY')) } },
            },
          },
          visibilityConfig: visibility('RateLimitAccountRoutesPerIp'),
        },
      ],
    });
    new StringParameter(this, 'WebAclArn', {
      parameterName: webAclParameterName(config),
      description: 'The CloudFront web ACL of this stage, for the Web stack in its own region',
      stringValue: this.webAcl.attrArn,
    });
  }
}
