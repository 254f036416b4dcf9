import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnQueue } from 'aws-cdk-lib/aws-mediaconvert';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { acknowledgeMediaPrefixes } from './constructs/nag';
import { dataRemovalPolicy, isProduction, type StageConfig } from './stage';

export interface MediaStackProps extends StackProps {
  accessLogs: IBucket;
}

/** The creators' media: tus staging uploads, stream-ready files and thumbnails (layout: lambdas/contract/buckets.ts). */
export class MediaStack extends Stack {
  readonly bucket: Bucket;
  /** This stage's MediaConvert queue: jobs go here and the job-state rule listens to it only. */
  readonly transcodeQueue: CfnQueue;
  /** The role MediaConvert assumes: read sources, write outputs, nothing else. */
  readonly transcodeRole: Role;

  constructor(scope: Construct, id: string, config: StageConfig, props: MediaStackProps) {
    super(scope, id, props);
    this.bucket = new Bucket(this, 'MediaBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'media/',
      removalPolicy: dataRemovalPolicy(config),
      autoDeleteObjects: !isProduction(config),
      cors: [{ allowedMethods: [HttpMethods.GET, HttpMethods.HEAD], allowedOrigins: config.domain ? [`https://${config.domain}`] : ['*'] }],
      lifecycleRules: [
        // Resumable uploads that were abandoned: their parts cost money until aborted.
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) },
        // tus staging objects (uploads/) that never became a video.
        { id: 'expire-stale-staging', prefix: 'uploads/', expiration: Duration.days(8) },
      ],
    });

    this.transcodeQueue = new CfnQueue(this, 'TranscodeQueue', {
      name: `loopcast-${config.stage}-transcode`,
      pricingPlan: 'ON_DEMAND',
      description: 'Loopcast: uploads to stream-ready files',
    });
    this.transcodeRole = new Role(this, 'TranscodeRole', {
      assumedBy: new ServicePrincipal('mediaconvert.amazonaws.com'),
      description: 'MediaConvert reads uploaded sources and writes stream-ready outputs',
    });
    this.transcodeRole.addToPolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects('uploads/*'), this.bucket.arnForObjects('media/*')] }),
    );
    this.transcodeRole.addToPolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [this.bucket.arnForObjects('media/*')] }));
    acknowledgeMediaPrefixes(this.transcodeRole, ['uploads/*', 'media/*']);
  }
}
