import { Aws, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AccessLevel,
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HttpVersion,
  type IOrigin,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './constructs/handler-function';
import { EDGE_REGION, webAclParameterName } from './edge-stack';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { ORIGIN_VERIFY_HEADER } from '../lambdas/contract/edge-headers';
import { buildHasTagManager, contentSecurityPolicy, inlineScriptHashes, permissionsPolicy } from '../web/edge/content-security-policy';
import { acknowledgeFindings } from './constructs/nag';
import { publicUrlParameterName, type StageConfig } from './stage';

export const webBuildDir = join(repoRoot, 'web', 'build', 'client');
export const viewerRequestFunctionFile = join(repoRoot, 'web', 'edge', 'viewer-request.js');

export interface WebStackProps extends StackProps {
  httpApi: HttpApi;
  /** The tus upload function's URL: uploads bypass API Gateway (its 10 MB payload limit). */
  uploadsUrl: IFunctionUrl;
  /** The Api stack's OriginVerify secret: CloudFront sends its value to both API origins as `x-origin-verify`. */
  originVerify: ISecret;
  accessLogs: IBucket;
  /** The realtime WebSocket API's origin (wss://<id>.execute-api.<region>.amazonaws.com), the app's one
   * cross-origin connection (the page's CSP names it). */
  realtimeOrigin: string;
}

/** Reads the Edge stack's web ACL ARN from SSM in us-east-1 (CloudFront's web ACLs live there, the Web stack in the
 * stage's region). Read once per name: the ACL keeps its ARN while its rules change. */
function webAclArnOf(scope: Construct, config: StageConfig): string {
  const parameterArn = `arn:${Aws.PARTITION}:ssm:${EDGE_REGION}:${Aws.ACCOUNT_ID}:parameter${webAclParameterName(config)}`;
  const reader = new AwsCustomResource(scope, 'WebAclArn', {
    onUpdate: {
      service: 'SSM',
      action: 'getParameter',
      parameters: { Name: webAclParameterName(config) },
      region: EDGE_REGION,
      physicalResourceId: PhysicalResourceId.of(webAclParameterName(config)),
    },
    policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [parameterArn] }),
    installLatestAwsSdk: false,
  });
  return reader.getResponseField('Parameter.Value');
}

/** Context key whose new value makes a deploy update the distribution, so CloudFront reads a rotated OriginVerify
 * secret (docs/deploy.md): CloudFormation resolves a dynamic reference only when its resource changes. */
export const originVerifyRotationContext = 'originVerifyRotation';

export const apiViewerRequestFunctionFile = join(repoRoot, 'web', 'edge', 'api-viewer-request.js');

/** The product's one origin: CloudFront in front of the prerendered SPA in S3 and of the HTTP API at /api/*. */
export class WebStack extends Stack {
  readonly distribution: Distribution;
  readonly siteBucket: Bucket;

  constructor(scope: Construct, id: string, config: StageConfig, props: WebStackProps) {
    super(scope, id, props);
    if (!existsSync(webBuildDir)) throw new Error(`The web app is not built (${webBuildDir}): run "npm run build:web" first.`);

    this.siteBucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'site/',
      // Deployments upload large files in parts; parts of an interrupted one would be stored (and paid) for ever.
      lifecycleRules: [{ id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) }],
      // Build output only, redeployed from the repository: never worth keeping.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      securityHeadersBehavior: {
        // No 'unsafe-inline': the build's few inline scripts are allowed by hash (web/edge/content-security-policy.ts).
        contentSecurityPolicy: {
          override: true,
          contentSecurityPolicy: contentSecurityPolicy(inlineScriptHashes(webBuildDir), {
            tagManager: buildHasTagManager(webBuildDir),
            realtimeSources: [props.realtimeOrigin],
          }),
        },
        strictTransportSecurity: { override: true, accessControlMaxAge: Duration.days(730), includeSubdomains: true, preload: true },
        contentTypeOptions: { override: true },
        frameOptions: { override: true, frameOption: HeadersFrameOption.DENY },
        referrerPolicy: { override: true, referrerPolicy: 'strict-origin-when-cross-origin' as never },
      },
      customHeadersBehavior: { customHeaders: [{ header: 'permissions-policy', value: permissionsPolicy, override: true }] },
    });

    const viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromFile({ filePath: viewerRequestFunctionFile }),
      comment: 'Language and legal redirects, clean URLs, /app/* to the SPA shell, 404 for unknown pages',
    });

    const apiDomain = `${props.httpApi.apiId}.execute-api.${props.httpApi.env.region}.amazonaws.com`;
    const apiViewerRequest = new CloudFrontFunction(this, 'ApiViewerRequest', {
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromFile({ filePath: apiViewerRequestFunctionFile }),
      comment: 'The viewer IP for the API (x-viewer-address)',
    });
    // The origin-verify secret as a CloudFormation dynamic reference ({{resolve:secretsmanager:...}}), which
    // CloudFormation allows in any resource property: resolved at deploy, never in the template or the repository.
    // CloudFront keeps it in the distribution's configuration (readable with cloudfront:GetDistributionConfig).
    // A rotation marker beside it (the origins ignore it) makes the deploy after a rotation update the distribution.
    const rotation: unknown = this.node.tryGetContext(originVerifyRotationContext);
    const originHeaders = {
      [ORIGIN_VERIFY_HEADER]: props.originVerify.secretValue.unsafeUnwrap(),
      ...(rotation ? { [`${ORIGIN_VERIFY_HEADER}-rotation`]: String(rotation) } : {}),
    };
    const apiBehavior = (origin: IOrigin) => ({
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: securityHeaders,
      functionAssociations: [{ function: apiViewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Loopcast ${config.stage}`,
      // AWS WAF: managed rule groups and per-IP rate limits (lib/edge-stack.ts).
      webAclId: webAclArnOf(this, config),
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_ALL,
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
      ...(config.domain && config.certificateArn
        ? {
            domainNames: [config.domain],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        // LIST lets S3 answer a missing object with 404 rather than 403.
        origin: S3BucketOrigin.withOriginAccessControl(this.siteBucket, { originAccessLevels: [AccessLevel.READ, AccessLevel.LIST] }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        // One function for both events (web/edge/viewer-request.js): the request side redirects and rewrites, the
        // response side gives unknown pages their 404 status.
        functionAssociations: [
          { function: viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST },
          { function: viewerRequest, eventType: FunctionEventType.VIEWER_RESPONSE },
        ],
      },
      // The more specific pattern first: CloudFront takes the first behavior that matches.
      additionalBehaviors: {
        // No origin access control: OAC on a Function URL makes browsers sign each PATCH body's SHA-256; the
        // function authenticates every tus request itself (Bearer session), like the API.
        // Both API origins get the origin-verify header (the uploads function does not read the viewer IP today).
        '/api/uploads*': apiBehavior(new FunctionUrlOrigin(props.uploadsUrl, { customHeaders: originHeaders })),
        '/api/*': apiBehavior(new HttpOrigin(apiDomain, { customHeaders: originHeaders })),
      },
      // No custom error responses: they apply to every behavior and would turn the API's own 403/404 JSON answers
      // into HTML. Unknown pages get their 404 from the CloudFront Function instead.
    });
    if (!config.domain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason: 'Without a custom domain CloudFront serves its default certificate, whose TLS policy cannot be chosen; with -c domain it is TLSv1.2_2021.',
      });
    }
    Validations.of(this.distribution).acknowledge({
      id: 'Annotation::@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      reason:
        'No default root object is needed: the viewer-request function maps / and every page path to its index.html, and the bucket holds only the public site.',
    });
    Validations.of(this.distribution).acknowledge({ id: 'AwsSolutions-CFR1', reason: 'A global creator product: no geo restriction.' });

    // Hashed assets are immutable; HTML and the rest must be revalidated so a deploy shows at once.
    const deployments = [
      { id: 'DeployAssets', include: ['assets/*'], exclude: ['*'], cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')] },
      { id: 'DeployPages', include: [], exclude: ['assets/*'], cacheControl: [CacheControl.noCache()] },
    ];
    for (const deployment of deployments) {
      new BucketDeployment(this, deployment.id, {
        sources: [Source.asset(webBuildDir)],
        destinationBucket: this.siteBucket,
        include: deployment.include,
        exclude: deployment.exclude,
        cacheControl: deployment.cacheControl,
        distribution: this.distribution,
        distributionPaths: ['/*'],
        memoryLimit: 512,
      });
    }

    // AwsCustomResource's singleton Lambda (CDK-owned code) reads the web ACL's ARN at deploy time.
    const reader = this.node.tryFindChild(`AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
    if (reader) {
      acknowledgeFindings(reader, 'AwsSolutions-IAM4', "CDK's AwsCustomResource handler logs with the basic execution role; it runs only during deploys.");
      Validations.of(reader).acknowledge({ id: 'AwsSolutions-L1', reason: 'CDK pins the AwsCustomResource handler runtime; it moves with aws-cdk-lib.' });
    }

    // BucketDeployment's singleton Lambda (CDK-owned code, not ours) copies the build into the bucket at deploy time.
    const deployer = this.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (deployer) {
      acknowledgeFindings(deployer, 'AwsSolutions-IAM4', "CDK's BucketDeployment handler logs with the basic execution role; it runs only during deploys.");
      acknowledgeFindings(
        deployer,
        'AwsSolutions-IAM5',
        "CDK's BucketDeployment needs object wildcards on the CDK asset bucket and on the site bucket it syncs.",
      );
      Validations.of(deployer).acknowledge({ id: 'AwsSolutions-L1', reason: 'CDK pins the BucketDeployment handler runtime; it moves with aws-cdk-lib.' });
    }

    new StringParameter(this, 'PublicUrl', {
      parameterName: publicUrlParameterName(config),
      description: 'Where users open Loopcast; read by the API for links in e-mails',
      stringValue: `https://${config.domain ?? this.distribution.distributionDomainName}`,
    });
  }
}
