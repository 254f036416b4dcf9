// DynamoDB tables, defined once: CDK creates them from this (lib/data-stack.ts) and the local stack creates the
// same in DynamoDB Local (local/provision.ts). Key names are what the stores in lambdas/adapters write.
//
// One table holds every entity ("single-table design"), keyed by entity prefix:
//   pk = USER#<id>      sk = PROFILE | SESSION#<hash> | VIDEO#<id> | STREAM#<id> | CHANNEL#<id> | ...
//   gsi1 serves look-ups by another unique value (e-mail, token hash, Stripe customer, connection id, ...).
// Items that must disappear on their own carry `expiresAt` (epoch seconds), DynamoDB's TTL attribute.

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export interface TableDefinition {
  /** Logical id; the physical name is `<prefix><id>` (the stage prefix in AWS, a test prefix locally). */
  id: string;
  partitionKey: string;
  sortKey: string;
  ttlAttribute: string;
  indexes: IndexDefinition[];
}

export const appTable = {
  id: 'app',
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const satisfies TableDefinition;

export const tableDefinitions: readonly TableDefinition[] = [appTable];
