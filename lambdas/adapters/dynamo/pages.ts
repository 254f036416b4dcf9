// Every item a query or scan finds, page after page (DynamoDB answers at most 1 MB per request), through the SDK's
// own paginators.
import { paginateQuery, paginateScan, type DynamoDBDocumentClient, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';

export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateQuery({ client: db }, input)) items.push(...(page.Items ?? []));
  return items;
}

export async function scanAll(db: DynamoDBDocumentClient, input: ScanCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client: db }, input)) items.push(...(page.Items ?? []));
  return items;
}
