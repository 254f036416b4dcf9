// What the CDK app does against the security audit's infrastructure findings: AWS WAF where traffic enters (L11),
// per-route throttles, stream tasks that can dial only RTMP and TLS (L3), and table access per function (L12).
// cdk-nag's checks run in app.test.ts.
import { Match, Template } from 'aws-cdk-lib/assertions';
import { API_BASE, routes } from '../lambdas/contract/routes';
import { DESTINATION_PORTS } from '../lambdas/core/channels/destination-address';
import { apiThrottle, openRouteThrottle } from './api-stack';
import { ACCOUNT_RATE_LIMIT_PER_IP, EDGE_REGION, openPostPaths, RATE_LIMIT_PER_IP, webAclParameterName } from './edge-stack';
import { synthesizeForTest } from './test-app';

const { stacks } = synthesizeForTest();
const edge = Template.fromStack(stacks.edge);
const web = Template.fromStack(stacks.web);

describe('AWS WAF in front of CloudFront (L11)', () => {
  test('the web ACL is CloudFront-scoped, in us-east-1, whatever region the stage is in', () => {
    expect(synthesizeForTest({}, { env: { account: '123456789012', region: 'eu-west-1' } }).stacks.edge.region).toBe(EDGE_REGION);
    edge.hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
  });

  test('AWS managed rule groups: IP reputation, the common rule set (not on binary uploads), known bad inputs', () => {
    const [acl] = Object.values(edge.findResources('AWS::WAFv2::WebACL'));
    const rules = acl!.Properties.Rules as { Name: string; Statement: Record<string, any> }[];
    const managed = rules.flatMap((rule) => (rule.Statement.ManagedRuleGroupStatement ? [rule.Statement.ManagedRuleGroupStatement] : []));
    expect(managed.map((group) => `${group.VendorName}/${group.Name}`)).toEqual([
      'AWS/AWSManagedRulesAmazonIpReputationList',
      'AWS/AWSManagedRulesCommonRuleSet',
      'AWS/AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    const common = managed[1]!;
    expect(common.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
    expect(JSON.stringify(common.ScopeDownStatement)).toContain(`"SearchString":"${API_BASE}/uploads"`);
  });

  test('rate rules per IP: everything, and tighter on the account routes anyone may POST to, answered with the catalogued 429', () => {
    const [acl] = Object.values(edge.findResources('AWS::WAFv2::WebACL'));
    const rules = acl!.Properties.Rules as { Name: string; Action?: any; Statement: Record<string, any> }[];
    const rate = Object.fromEntries(rules.filter((rule) => rule.Statement.RateBasedStatement).map((rule) => [rule.Name, rule]));
    expect(rate.RateLimitPerIp?.Statement.RateBasedStatement).toMatchObject({ Limit: RATE_LIMIT_PER_IP, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
    const accountRule = rate.RateLimitAccountRoutesPerIp!.Statement.RateBasedStatement;
    expect(accountRule).toMatchObject({ Limit: ACCOUNT_RATE_LIMIT_PER_IP, AggregateKeyType: 'IP' });
    const paths = accountRule.ScopeDownStatement.OrStatement.Statements.map((s: any) => s.ByteMatchStatement.SearchString);
    expect(paths.sort()).toEqual([
      '/api/account/close/confirm',
      '/api/account/email/confirm',
      '/api/confirm',
      '/api/confirm/resend',
      '/api/forgot-password',
      '/api/login',
      '/api/register',
      '/api/reset-password',
    ]);
    expect(paths.sort()).toEqual([...openPostPaths].sort());
    for (const rule of Object.values(rate))
      expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'TooManyRequests' } } });
    expect(JSON.parse(acl!.Properties.CustomResponseBodies.TooManyRequests.Content)).toEqual({ error: 'too many requests', message: expect.any(String) });
  });

  test('the distribution takes the web ACL, read from us-east-1 where the Edge stack keeps its ARN', () => {
    const [distribution] = Object.values(web.findResources('AWS::CloudFront::Distribution'));
    expect(distribution!.Properties.DistributionConfig.WebACLId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^WebAclArn/), 'Parameter.Value'] });
    web.hasResourceProperties('Custom::AWS', { Create: Match.stringLikeRegexp(`"region":"${EDGE_REGION}"`) });
    web.hasResourceProperties('Custom::AWS', { Create: Match.stringLikeRegexp(webAclParameterName({ stage: 'test', mailFrom: '' }).replaceAll('/', '\\/')) });
    edge.hasResourceProperties('AWS::SSM::Parameter', {
      Name: webAclParameterName({ stage: 'test', mailFrom: '' }),
      Value: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] },
    });
    expect(stacks.web.dependencies).toContain(stacks.edge);
  });
});

describe('API Gateway throttles (L11)', () => {
  test('the stage default, and tighter per-route limits on every route anyone may POST to', () => {
    const api = Template.fromStack(stacks.api);
    const stage = Object.values(api.findResources('AWS::ApiGatewayV2::Stage')).find((s) => s.Properties.StageName === '$default')!;
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingBurstLimit: apiThrottle.burstLimit, ThrottlingRateLimit: apiThrottle.rateLimit });
    const open = routes.filter((route) => route.auth !== 'session' && route.method === 'POST').map((route) => `${route.method} ${API_BASE}${route.path}`);
    expect(Object.keys(stage.Properties.RouteSettings).sort()).toEqual(open.sort());
    for (const settings of Object.values(stage.Properties.RouteSettings)) {
      expect(settings).toEqual({ ThrottlingRateLimit: openRouteThrottle.rateLimit, ThrottlingBurstLimit: openRouteThrottle.burstLimit });
    }
  });
});

describe('stream tasks dial RTMP and TLS only (L3)', () => {
  test('the task security group allows no inbound traffic and outbound TCP 1935 and 443 only', () => {
    const streaming = Template.fromStack(stacks.streaming);
    const groups = Object.values(streaming.findResources('AWS::EC2::SecurityGroup')).filter((g) => g.Properties.GroupDescription.startsWith('Stream tasks'));
    expect(groups).toHaveLength(1);
    const { SecurityGroupEgress: egress, SecurityGroupIngress: ingress } = groups[0]!.Properties;
    expect(ingress).toBeUndefined();
    expect(egress.map((rule: any) => `${rule.CidrIp ?? rule.CidrIpv6} ${rule.IpProtocol} ${rule.FromPort}-${rule.ToPort}`).sort()).toEqual(
      DESTINATION_PORTS.flatMap((port) => [`0.0.0.0/0 tcp ${port}-${port}`, `::/0 tcp ${port}-${port}`]).sort(),
    );
  });
});

describe('each function reaches only its own families of table items (L12)', () => {
  const templates = [stacks.api, stacks.streaming].map((stack) => Template.fromStack(stack));
  type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, string[]>> };
  /** The DynamoDB data statements of the function whose logical id starts with `functionId`. */
  const tableStatements = (functionId: string): Statement[] => {
    for (const template of templates) {
      const functions = template.findResources('AWS::Lambda::Function');
      const fn = Object.entries(functions).find(([id]) => id.startsWith(functionId));
      if (!fn) continue;
      const role = (fn[1].Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      return Object.values(template.findResources('AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${role}"`))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[])
        .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:') && action !== 'dynamodb:DescribeTable'));
    }
    throw new Error(`no function ${functionId}`);
  };
  const leadingKeys = (statement: Statement) => statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];

  test('the realtime connections function: its connection items only, no index', () => {
    const statements = tableStatements('RealtimeConnectionsFunction');
    expect(statements.map(leadingKeys)).toEqual([['CONN#*']]);
  });

  test("billing: users, rate limits, the caller's session and the customer index; never e-mail links, connections or uploads", () => {
    const keys = tableStatements('BillingFunction').map(leadingKeys);
    expect(keys).toEqual([['USER#*', 'RATE#*', 'SESSION#*'], ['CUSTOMER#*']]);
  });

  test('every function but the account page (closing an account erases all of it) is held to key families; none may scan', () => {
    const functions = templates.flatMap((template) => Object.keys(template.findResources('AWS::Lambda::Function')));
    const unconditioned = functions.filter((id) => tableStatements(id).some((statement) => !leadingKeys(statement)));
    expect(unconditioned.filter((id) => !id.startsWith('CustomResource') && !id.includes('LogRetention')).map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual([
      'AccountFunction',
    ]);
    for (const template of templates) expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('dynamodb:Scan');
  });
});
