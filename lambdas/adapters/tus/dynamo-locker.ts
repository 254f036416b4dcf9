// tus's Locker on the single DynamoDB table, so that every Lambda container (and every local server) sees the
// same locks. One item per locked upload, written only under a condition:
//   pk = TUS#<upload id>, sk = LOCK, owner, leaseUntil (epoch ms), releaseRequested, expiresAt (TTL)
// A holder renews its lease by heartbeat; a request that finds the upload locked asks the holder to let go
// (tus's "request release": the holder's request is ended after the server's lock drain timeout), and a holder
// that dies without unlocking blocks others only until its lease runs out.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import { logger } from '../logger';
import { tusItemKey } from '../dynamo/keys';

export interface DynamoLockerOptions {
  db: DynamoDBDocumentClient;
  table: string;
  /** How long a lock lasts without a heartbeat: the longest a crashed holder can block an upload. */
  leaseMs?: number;
  /** How often a holder renews its lease and looks whether another request asked for the upload. */
  heartbeatMs?: number;
  /** How long lock() keeps trying before it gives up with tus's lock timeout error. */
  acquireTimeoutMs?: number;
  /** The pause between two attempts on a held lock. */
  retryMs?: number;
}

type Settings = Required<DynamoLockerOptions>;

export const lockItemKey = (uploadId: string) => tusItemKey(uploadId, 'LOCK');

/** Kept a while after the lease so DynamoDB's TTL only removes locks nobody can hold any more. */
const TTL_MARGIN_SECONDS = 3600;

export class DynamoLocker implements Locker {
  private readonly settings: Settings;

  constructor(options: DynamoLockerOptions) {
    this.settings = { leaseMs: 10_000, heartbeatMs: 1_000, acquireTimeoutMs: 30_000, retryMs: 150, ...options };
    if (this.settings.heartbeatMs * 3 > this.settings.leaseMs) throw new Error('the lease must outlast several heartbeats');
  }

  newLock(id: string): Lock {
    return new DynamoLock(this.settings, id);
  }
}

class DynamoLock implements Lock {
  private readonly owner = randomUUID();
  private readonly key: { pk: string; sk: string };
  private held = false;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly uploadId: string,
  ) {
    this.key = lockItemKey(uploadId);
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.settings.acquireTimeoutMs;
    for (;;) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (await this.tryAcquire()) {
        this.held = true;
        this.scheduleHeartbeat(requestRelease);
        return;
      }
      await this.askHolderToRelease();
      if (Date.now() + this.settings.retryMs > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      try {
        await sleep(this.settings.retryMs, undefined, { signal });
      } catch {
        throw ERRORS.ERR_LOCK_TIMEOUT;
      }
    }
  }

  async unlock(): Promise<void> {
    this.held = false;
    clearTimeout(this.heartbeat);
    try {
      await this.settings.db.send(
        new DeleteCommand({
          TableName: this.settings.table,
          Key: this.key,
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': this.owner },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Our lease ran out (no heartbeat got through) and another request may have taken the upload meanwhile.
      logger.warn('tus lock was lost before unlock', { uploadId: this.uploadId });
    }
  }

  /** True when the lock is ours: nobody held it, or the holder's lease ran out. */
  private async tryAcquire(): Promise<boolean> {
    const now = Date.now();
    try {
      await this.settings.db.send(
        new PutCommand({
          TableName: this.settings.table,
          Item: { ...this.key, owner: this.owner, releaseRequested: false, ...this.lease(now) },
          ConditionExpression: 'attribute_not_exists(pk) OR leaseUntil < :now',
          ExpressionAttributeValues: { ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Flags the current holder's item; a no-op when it is flagged already or just went away. */
  private async askHolderToRelease(): Promise<void> {
    try {
      await this.settings.db.send(
        new UpdateCommand({
          TableName: this.settings.table,
          Key: this.key,
          UpdateExpression: 'SET releaseRequested = :yes',
          ConditionExpression: 'attribute_exists(pk) AND releaseRequested = :no',
          ExpressionAttributeValues: { ':yes': true, ':no': false },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  private lease(now: number) {
    const leaseUntil = now + this.settings.leaseMs;
    return { leaseUntil, expiresAt: Math.ceil(leaseUntil / 1000) + TTL_MARGIN_SECONDS };
  }

  private scheduleHeartbeat(requestRelease: RequestRelease): void {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      void Promise.resolve(requestRelease()).catch((error: unknown) => logger.error('tus lock release failed', { error: error as Error }));
    };
    const beat = async () => {
      const { leaseUntil, expiresAt } = this.lease(Date.now());
      try {
        const { Attributes } = await this.settings.db.send(
          new UpdateCommand({
            TableName: this.settings.table,
            Key: this.key,
            UpdateExpression: 'SET leaseUntil = :leaseUntil, expiresAt = :expiresAt',
            ConditionExpression: '#owner = :owner',
            ExpressionAttributeNames: { '#owner': 'owner' },
            ExpressionAttributeValues: { ':owner': this.owner, ':leaseUntil': leaseUntil, ':expiresAt': expiresAt },
            ReturnValues: 'ALL_NEW',
          }),
        );
        if (this.held && Attributes?.releaseRequested === true) release();
      } catch (error) {
        if (!this.held) return;
        if (error instanceof ConditionalCheckFailedException) {
          // The lease is gone: stop writing as soon as possible.
          logger.warn('tus lock lease lost while held', { uploadId: this.uploadId });
          release();
          return;
        }
        // A failed renewal is retried at the next beat, well before the lease runs out.
        logger.warn('tus lock heartbeat failed', { uploadId: this.uploadId, error: error as Error });
      }
      if (this.held) this.heartbeat = setTimeout(() => void beat(), this.settings.heartbeatMs);
    };
    this.heartbeat = setTimeout(() => void beat(), this.settings.heartbeatMs);
  }
}
