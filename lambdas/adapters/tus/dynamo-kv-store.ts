// tus's KvStore (the S3 store's cache of each upload's `.info`) on the single DynamoDB table, shared by every
// Lambda container and local server:
//   pk = TUS#<upload id>, sk = METADATA, value (JSON), expiresAt (TTL), gsi1pk = UPLOADS#<owner> (closing an
//   account finds its uploads' entries by it)
// Losing an entry costs one S3 read (the store falls back to the `.info` object), so entries simply expire
// with the upload. DynamoDB deletes expired items lazily, hence the expiry check on read.
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KvStore } from '@tus/utils';
import { uploadsOfUser } from '../dynamo/keys';
import { tusItemKey } from '../dynamo/keys';

export interface DynamoKvStoreOptions {
  db: DynamoDBDocumentClient;
  table: string;
  /** How long an entry lives after its last write. */
  ttlSeconds: number;
  /** The user an upload id belongs to, indexed so their entries can be erased with their account. */
  ownerOf?: (key: string) => string | undefined;
}

export const metadataItemKey = (uploadId: string) => tusItemKey(uploadId, 'METADATA');

const epochSeconds = () => Math.floor(Date.now() / 1000);

export class DynamoKvStore<T> implements KvStore<T> {
  constructor(private readonly options: DynamoKvStoreOptions) {}

  async get(key: string): Promise<T | undefined> {
    const { Item } = await this.options.db.send(new GetCommand({ TableName: this.options.table, Key: metadataItemKey(key), ConsistentRead: true }));
    if (!Item || typeof Item.value !== 'string' || Number(Item.expiresAt) <= epochSeconds()) return undefined;
    return JSON.parse(Item.value) as T;
  }

  async set(key: string, value: T): Promise<void> {
    const owner = this.options.ownerOf?.(key);
    await this.options.db.send(
      new PutCommand({
        TableName: this.options.table,
        Item: {
          ...metadataItemKey(key),
          value: JSON.stringify(value),
          expiresAt: epochSeconds() + this.options.ttlSeconds,
          ...(owner ? { gsi1pk: uploadsOfUser(owner), gsi1sk: key } : {}),
        },
      }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.options.db.send(new DeleteCommand({ TableName: this.options.table, Key: metadataItemKey(key) }));
  }
}
