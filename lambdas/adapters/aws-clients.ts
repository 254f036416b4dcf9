import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { RuntimeConfig } from './config';
import { requiredLocalCredentials, type LocalCredentials } from '../contract/local-credentials';
import { traced } from './observability';

/** Credentials for the local stand-ins (DynamoDB Local, s3rver): the local stack's own, random per data folder,
 * from this process's environment when a client first signs (lambdas/contract/local-credentials.ts). Never used in
 * AWS. */
export const localCredentials = async (): Promise<LocalCredentials> => requiredLocalCredentials(process.env);

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
