import { PutCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { AuditEntry, AuditLog } from '../../core/support/ports';
import { auditByEmailHash, auditKey, auditTrailOf } from './keys';
import { queryAll } from './pages';

/** The support audit log on the single table: one item per action, outside the account's partition (so
 * termination, which deletes that partition, leaves it), findable by user id and by e-mail hash. Never expires. */
export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async append(entry: AuditEntry): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...auditKey(entry.userId, entry.at, randomUUID()), entity: 'audit', gsi1pk: auditByEmailHash(entry.emailHash), gsi1sk: entry.at, ...entry },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  ofUser(userId: string): Promise<AuditEntry[]> {
    return this.query({ KeyConditionExpression: 'pk = :trail', ExpressionAttributeValues: { ':trail': auditTrailOf(userId) }, ConsistentRead: true });
  }

  ofEmailHash(emailHash: string): Promise<AuditEntry[]> {
    return this.query({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :email', ExpressionAttributeValues: { ':email': auditByEmailHash(emailHash) } });
  }

  private async query(input: Omit<QueryCommandInput, 'TableName'>): Promise<AuditEntry[]> {
    const items = await queryAll(this.db, { ...input, TableName: this.table });
    const entries = items.map(({ pk: _pk, sk: _sk, entity: _entity, gsi1pk: _g1, gsi1sk: _g2, ...entry }) => entry as unknown as AuditEntry);
    return entries.sort((a, b) => a.at.localeCompare(b.at));
  }
}
