import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { appTable } from '../lambdas/contract/tables';
import { dataRemovalPolicy, isProduction, type StageConfig } from './stage';

/** State that outlives every deployment: the DynamoDB table and the access-log bucket. */
export class DataStack extends Stack {
  readonly table: TableV2;
  readonly accessLogs: Bucket;
  /** Wraps the data keys of stream keys and OAuth tokens (envelope encryption, lambdas/adapters/crypto). */
  readonly secretsKey: Key;

  constructor(scope: Construct, id: string, config: StageConfig, props?: StackProps) {
    super(scope, id, props);

    // Single-table design (lambdas/contract/tables.ts): keys, index and TTL come from the shared definition.
    this.table = new TableV2(this, 'AppTable', {
      partitionKey: { name: appTable.partitionKey, type: AttributeType.STRING },
      sortKey: { name: appTable.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      // 30 days, not the default 35: the privacy policy promises deleted data is gone from backups within 30 days.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 30 },
      timeToLiveAttribute: appTable.ttlAttribute,
      deletionProtection: isProduction(config),
      removalPolicy: dataRemovalPolicy(config),
      globalSecondaryIndexes: appTable.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
    });

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90), abortIncompleteMultipartUploadAfter: Duration.days(7) }],
      removalPolicy: dataRemovalPolicy(config),
      autoDeleteObjects: !isProduction(config),
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging it into itself would loop.',
    });

    this.secretsKey = new Key(this, 'SecretsKey', {
      description: `Loopcast ${config.stage}: stream keys and OAuth tokens at rest`,
      enableKeyRotation: true,
      removalPolicy: dataRemovalPolicy(config),
    });
  }
}
