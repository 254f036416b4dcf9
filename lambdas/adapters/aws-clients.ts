import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { RuntimeConfig } from './config';
import { traced } from './observability';

/** Credentials for the local stand-ins (s3rver's fixed pair; DynamoDB Local takes any). Never used in AWS. */
export const localCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export function createDynamoClient(config: Pick<RuntimeConfig, 'region' | 'endpoints'>): DynamoDBDocumentClient {
  const endpoint = config.endpoints.dynamodb;
  const client = traced(
    new DynamoDBClient({
      region: config.region,
      ...(endpoint ? { endpoint, credentials: localCredentials } : {}),
    }),
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export function createS3Client(config: Pick<RuntimeConfig, 'region' | 'endpoints'>): S3Client {
  const endpoint = config.endpoints.s3;
  return traced(
    new S3Client({
      region: config.region,
      // Without these, SDK v3 sends streamed bodies with aws-chunked checksum trailers, which s3rver stores
      // verbatim (corrupt objects); path style because s3rver has no virtual-host buckets on 127.0.0.1.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(endpoint ? { endpoint, forcePathStyle: true, credentials: localCredentials } : {}),
    }),
  );
}
