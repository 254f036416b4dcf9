import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Subscription } from '../../core/billing/entitlement';
import type { BillingStore, Payment } from '../../core/billing/ports';
import { billingAccountKey, billingEventKey, customerIndexKey, noticeKey, paymentKey, subscriptionKey, userPartition } from './keys';

const EVENT_MEMORY_SECONDS = 60 * 24 * 3600;

/** Billing state on the single DynamoDB table. */
export class DynamoBillingStore implements BillingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async subscription(userId: string): Promise<Subscription | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: subscriptionKey(userId), ConsistentRead: true }));
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, entity: _entity, lastEventCreated: _last, ...subscription } = Item;
    return subscription as Subscription;
  }

  async saveSubscription(subscription: Subscription, eventCreated: number): Promise<'saved' | 'stale'> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...subscriptionKey(subscription.userId), entity: 'subscription', ...subscription, lastEventCreated: eventCreated },
          ConditionExpression: 'attribute_not_exists(lastEventCreated) OR lastEventCreated <= :created',
          ExpressionAttributeValues: { ':created': eventCreated },
        }),
      );
      return 'saved';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'stale';
      throw error;
    }
  }

  async customerOf(userId: string): Promise<string | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: billingAccountKey(userId), ConsistentRead: true }));
    return Item?.customerId as string | undefined;
  }

  async userOfCustomer(customerId: string): Promise<string | undefined> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :customer',
        ExpressionAttributeValues: { ':customer': customerIndexKey(customerId) },
        Limit: 1,
      }),
    );
    return Items?.[0]?.userId as string | undefined;
  }

  async linkCustomer(userId: string, customerId: string): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...billingAccountKey(userId), entity: 'billingAccount', userId, customerId, gsi1pk: customerIndexKey(customerId), gsi1sk: 'USER' },
      }),
    );
  }

  async recordPayment(payment: Payment): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...paymentKey(payment.userId, payment.id), entity: 'payment', ...payment } }));
  }

  async payments(userId: string): Promise<Payment[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :payment)',
        ExpressionAttributeValues: { ':user': userPartition(userId), ':payment': 'PAYMENT#' },
      }),
    );
    return Items.map(({ pk: _pk, sk: _sk, entity: _entity, ...payment }) => payment as Payment).sort((a, b) => b.paidAt.localeCompare(a.paidAt));
  }

  async isEventProcessed(eventId: string): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: billingEventKey(eventId), ConsistentRead: true }));
    return Item !== undefined;
  }

  async claimNotice(userId: string, notice: string, now: Date): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...noticeKey(userId, notice),
            entity: 'notice',
            sentAt: now.toISOString(),
            expiresAt: Math.floor(now.getTime() / 1000) + EVENT_MEMORY_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async markEventProcessed(eventId: string, now: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...billingEventKey(eventId),
          entity: 'billingEvent',
          processedAt: now.toISOString(),
          expiresAt: Math.floor(now.getTime() / 1000) + EVENT_MEMORY_SECONDS,
        },
      }),
    );
  }
}
