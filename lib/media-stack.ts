import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { dataRemovalPolicy, isProduction, type StageConfig } from './stage';

export interface MediaStackProps extends StackProps {
  accessLogs: IBucket;
}

/** The creators' media: tus staging uploads, stream-ready files and thumbnails (layout: lambdas/contract/buckets.ts). */
export class MediaStack extends Stack {
  readonly bucket: Bucket;

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
  }
}
