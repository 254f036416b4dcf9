// What a stack's table and bucket still hold about someone: every item and every object (and unfinished multipart
// upload) whose text names any of the given strings (a user id, an e-mail address, a display name). Scans all of
// it, as an auditor would, rather than asking the stores that did the deleting.
import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../local/stack';

export interface Leftovers {
  items: Record<string, unknown>[];
  objects: string[];
  uploads: string[];
}

export async function leftoversOf(stack: Pick<LocalStack, 'deps' | 'config'>, needles: string[]): Promise<Leftovers> {
  const names = (text: string) => needles.some((needle) => text.toLowerCase().includes(needle.toLowerCase()));
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await stack.deps.db.send(new ScanCommand({ TableName: stack.config.tables.app, ExclusiveStartKey: startKey, ConsistentRead: true }));
    items.push(...(page.Items ?? []).filter((item) => names(JSON.stringify(item))));
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const bucket = stack.config.buckets.media;
  const objects: string[] = [];
  let token: string | undefined;
  do {
    const page = await stack.deps.s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    objects.push(...(page.Contents ?? []).map((object) => object.Key!).filter(names));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);

  const listed = await stack.deps.s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  const uploads = (listed.Uploads ?? []).map((upload) => upload.Key!).filter(names);
  return { items, objects, uploads };
}
