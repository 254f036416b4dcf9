// Creates the tables and buckets of lambdas/contract in the local stand-ins, from the same definitions CDK uses.
import { CreateTableCommand, DynamoDBClient, ResourceInUseException, UpdateTimeToLiveCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { BucketAlreadyOwnedByYou, CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { TableDefinition } from '../lambdas/contract/tables';

export async function createTable(client: DynamoDBClient, name: string, table: TableDefinition): Promise<void> {
  const keyNames = new Set([table.partitionKey, table.sortKey, ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey])]);
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...keyNames].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: 'HASH' },
          { AttributeName: table.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: table.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    return; // already there (npm start on an existing data folder)
  }
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: name });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: name,
      TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
    }),
  );
}

export async function createBucket(client: S3Client, name: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  } catch (error) {
    if (!(error instanceof BucketAlreadyOwnedByYou) && (error as Error).name !== 'BucketAlreadyExists') throw error;
  }
}
