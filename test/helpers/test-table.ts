// For tests only: a fresh single table (random name) on the run's DynamoDB Local, from the real definition.
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTable } from '../../local/provision';
import { appTable } from '../../lambdas/contract/tables';
import { localCredentials } from '../../lambdas/adapters/aws-clients';

export async function createTestTable(): Promise<{ db: DynamoDBDocumentClient; table: string }> {
  const endpoint = process.env.LOOPCAST_TEST_DYNAMODB;
  if (!endpoint) throw new Error('the global test setup did not run (LOOPCAST_TEST_DYNAMODB is unset)');
  const client = new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: localCredentials });
  const table = `t${randomBytes(4).toString('hex')}-app`;
  await createTable(client, table, appTable);
  return { db: DynamoDBDocumentClient.from(client), table };
}
