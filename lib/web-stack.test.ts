// The web stack's CloudFront distribution (issue 3): S3 with OAC, /api/* to the HTTP API, security headers with a
// hash-based CSP, cache rules, the CloudFront Function on both viewer events, and no distribution-wide error pages.
import { Match, Template } from 'aws-cdk-lib/assertions';
import { inlineScriptHashes } from '../web/edge/content-security-policy';
import { handlerGroups } from '../lambdas/contract/routes';
import { LoopcastChecks } from './constructs/nag';
import { synthesizeForTest } from './test-app';
import { originVerifyRotationContext, webBuildDir } from './web-stack';

const { app, stacks } = synthesizeForTest();
const web = Template.fromStack(stacks.web);
const distribution = () => Object.values(web.findResources('AWS::CloudFront::Distribution'))[0]?.Properties.DistributionConfig;

describe('web stack', () => {
  test('cdk-nag finds nothing unacknowledged in it', () => {
    const report = new LoopcastChecks(app).validateScope(stacks.web);
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
  });

  test('the site bucket is private and reached only through origin access control, with list access for real 404s', () => {
    web.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    web.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    web.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: ['s3:GetObject', 's3:ListBucket'], Principal: { Service: 'cloudfront.amazonaws.com' } })]),
      },
    });
  });

  test('/api/uploads* goes to the uploads Function URL and /api/* to the HTTP API, in that order, uncached with every method', () => {
    const config = distribution();
    expect(config.CacheBehaviors.map((b: { PathPattern: string }) => b.PathPattern)).toEqual(['/api/uploads*', '/api/*']);
    expect(config.CacheBehaviors[0].TargetOriginId).not.toBe(config.CacheBehaviors[1].TargetOriginId);
    for (const behavior of config.CacheBehaviors) {
      expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'https-only' });
      expect(behavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
      expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // CachingDisabled
    }
    expect(config.DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6' }); // CachingOptimized
  });

  test('the site function runs on viewer request and response of the site; the API behaviors get the viewer-IP function', () => {
    const config = distribution();
    const events = (config.DefaultCacheBehavior.FunctionAssociations as { EventType: string }[]).map((a) => a.EventType);
    expect(events.sort()).toEqual(['viewer-request', 'viewer-response']);
    const siteFunctions = new Set((config.DefaultCacheBehavior.FunctionAssociations as { FunctionARN: unknown }[]).map((a) => JSON.stringify(a.FunctionARN)));
    for (const behavior of config.CacheBehaviors) {
      expect(behavior.FunctionAssociations).toHaveLength(1);
      expect(behavior.FunctionAssociations[0].EventType).toBe('viewer-request');
      expect(siteFunctions.has(JSON.stringify(behavior.FunctionAssociations[0].FunctionARN))).toBe(false);
    }
    web.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
      FunctionCode: Match.stringLikeRegexp('function handler\\(event\\)'),
    });
  });

  test('no custom error responses, which would rewrite the API’s own 403/404 answers', () => {
    expect(distribution().CustomErrorResponses).toBeUndefined();
  });

  test('security headers: CSP without unsafe-inline scripts, HSTS, nosniff, no framing', () => {
    const policies = Object.values(web.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policies).toHaveLength(1);
    const headers = policies[0]?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    // The realtime API's origin is a reference to the Api stack: Fn::Join of literal parts and tokens.
    const raw = headers.ContentSecurityPolicy.ContentSecurityPolicy as string | { 'Fn::Join': [string, unknown[]] };
    const csp = typeof raw === 'string' ? raw : raw['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
    const scriptSrc = csp.split('; ').find((directive) => directive.startsWith('script-src '))!;
    expect(scriptSrc).not.toContain('unsafe-inline');
    const hashes = inlineScriptHashes(webBuildDir);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(scriptSrc).toContain(hash);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp.length).toBeLessThanOrEqual(1783); // CloudFront's limit for this header
    // Security audit L10: no tag manager host without a configured tag manager, no bare https: source anywhere, and
    // the one cross-origin connection is the realtime API.
    expect(csp).not.toContain('googletagmanager');
    expect(csp.split(/[ ;]+/)).not.toContain('https:');
    expect(csp.split(/[ ;]+/)).not.toContain('wss:');
    expect(csp).toContain("connect-src 'self' TOKEN;");
    expect(JSON.stringify((raw as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1].filter((part) => typeof part !== 'string'))).toContain('RealtimeApi');
    expect(policies[0]?.Properties.ResponseHeadersPolicyConfig.CustomHeadersConfig.Items).toEqual([
      { Header: 'permissions-policy', Value: expect.stringContaining('camera=(), display-capture=(), geolocation=()'), Override: true },
    ]);
    expect(headers).toMatchObject({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true, Preload: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
    });
    const config = distribution();
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toBeDefined();
    expect(config.CacheBehaviors[0].ResponseHeadersPolicyId).toEqual(config.DefaultCacheBehavior.ResponseHeadersPolicyId);
  });

  describe('origin verify: only CloudFront can vouch for x-viewer-address', () => {
    const api = Template.fromStack(stacks.api);
    const secretId = stacks.api.getLogicalId(stacks.api.originVerify.node.defaultChild as never);
    const originOf = (id: string) => (distribution().Origins as { Id: string; OriginCustomHeaders?: unknown }[]).find((o) => o.Id === id);

    test("both API origins send x-origin-verify as a dynamic reference to the Api stack's generated secret; the site origin does not", () => {
      const config = distribution();
      const apiOrigins = (config.CacheBehaviors as { TargetOriginId: string }[]).map((b) => originOf(b.TargetOriginId));
      expect(apiOrigins).toHaveLength(2);
      for (const origin of apiOrigins) {
        expect(origin?.OriginCustomHeaders).toEqual([
          {
            HeaderName: 'x-origin-verify',
            HeaderValue: {
              'Fn::Join': [
                '',
                ['{{resolve:secretsmanager:', { 'Fn::ImportValue': expect.stringContaining(`ExportsOutputRef${secretId}`) }, ':SecretString:::}}'],
              ],
            },
          },
        ]);
      }
      expect(originOf(config.DefaultCacheBehavior.TargetOriginId)?.OriginCustomHeaders).toBeUndefined();
      api.hasResourceProperties('AWS::SecretsManager::Secret', {
        GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
        Description: Match.stringLikeRegexp('x-origin-verify'),
      });
    });

    test("every HTTP API function has the secret's ARN and may read it", () => {
      const policies = Object.values(api.findResources('AWS::IAM::Policy'));
      for (const group of handlerGroups()) {
        const fn = stacks.api.functions[group]!;
        const fnId = stacks.api.getLogicalId(fn.node.defaultChild as never);
        const properties = api.findResources('AWS::Lambda::Function')[fnId]?.Properties;
        expect(properties.Environment.Variables.ORIGIN_VERIFY_SECRET_ARN).toEqual({ Ref: secretId });
        const roleId = stacks.api.getLogicalId(fn.role!.node.defaultChild as never);
        const statements = policies
          .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
          .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
        expect(statements).toContainEqual(
          expect.objectContaining({
            Action: expect.arrayContaining(['secretsmanager:GetSecretValue']),
            Resource: { Ref: secretId },
          }),
        );
      }
    });

    test('a new originVerifyRotation context value changes the distribution, so CloudFront reads the rotated value', () => {
      const { web: rotatedWeb } = synthesizeForTest({}, { context: { [originVerifyRotationContext]: '2' } }).stacks;
      const config = Object.values(Template.fromStack(rotatedWeb).findResources('AWS::CloudFront::Distribution'))[0]?.Properties.DistributionConfig;
      const headers = (config.Origins as { OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[])
        .flatMap((origin) => origin.OriginCustomHeaders ?? [])
        .filter((header) => header.HeaderName === 'x-origin-verify-rotation');
      expect(headers).toEqual([
        { HeaderName: 'x-origin-verify-rotation', HeaderValue: '2' },
        { HeaderName: 'x-origin-verify-rotation', HeaderValue: '2' },
      ]);
      expect(config.Comment).toBe('Loopcast test'); // docs/deploy.md finds the distribution by it
    });
  });

  test('hashed assets are cached for a year, everything else revalidated', () => {
    const deployments = Object.values(web.findResources('Custom::CDKBucketDeployment')).map((d) => d.Properties);
    const assets = deployments.find((d) => d.Include?.includes('assets/*'));
    const pages = deployments.find((d) => d.Exclude?.includes('assets/*') && !d.Include?.includes('assets/*'));
    expect(assets?.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(pages?.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(assets?.Exclude).toEqual(['*']);
  });
});
