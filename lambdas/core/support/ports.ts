// What the support use cases need beyond the other domains' ports: the audit log, erasing an account's data,
// and ending a paid subscription at the payment provider. Implementations: lambdas/adapters/**/support-*.ts and
// lambdas/adapters/dynamo/audit-store.ts.

export type AuditAction = 'suspend' | 'reactivate' | 'terminate';

/** Who ran a support command: the name given with --operator (or the OS user), and the credentials used. */
export interface Operator {
  name: string;
  /** `local` for the local stack; in AWS the access key id of the caller (CloudTrail maps it to the principal). */
  credentials: string;
}

/** One support action on an account, kept after the account is terminated. No e-mail address: its hash. */
export interface AuditEntry {
  userId: string;
  /** SHA-256 of the normalised e-mail address, so support can find the history of an address whose account is gone. */
  emailHash: string;
  action: AuditAction;
  at: string;
  operator: Operator;
  reason?: string;
  outcome: 'done' | 'failed';
  /** What the action did (streams stopped, objects deleted, ...) or, when it failed, why. */
  details: Record<string, string | number>;
}

export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** Oldest first. */
  ofUser(userId: string): Promise<AuditEntry[]>;
  /** Oldest first. */
  ofEmailHash(emailHash: string): Promise<AuditEntry[]>;
}

export interface ErasedRecords {
  itemsDeleted: number;
  /** Payment records kept for accounting (they carry amounts and dates, no contact data). */
  paymentsKept: number;
}

/** The account's items in the table. */
export interface UserRecords {
  /**
   * Deletes every item of the account's partition except its payment records, which get an expiry instead
   * (`retainPaymentUntil` of their payment date); then the e-mail claim (when `email` is given) and the user's
   * items elsewhere (realtime connections, sessions, e-mail links, Google consents, Telegram links, upload metadata).
   * Safe to run again.
   */
  erase(user: { id: string; email?: string }, retainPaymentUntil: (paidAt: string) => Date): Promise<ErasedRecords>;
}

export interface ErasedObjects {
  objectsDeleted: number;
  /** Unfinished multipart uploads aborted (their parts are not objects yet). */
  uploadsAborted: number;
}

/** The account's objects in the media bucket. */
export interface UserObjects {
  /** Deletes every object under the prefixes and aborts every unfinished multipart upload there. */
  erase(prefixes: string[]): Promise<ErasedObjects>;
}

/** A paid subscription at the payment provider. Each call is harmless when already done, or when the subscription
 * has ended. */
export interface SubscriptionControl {
  /** Ends it at once, so nothing more is charged. */
  cancel(subscriptionId: string): Promise<void>;
  /** Stops charging it while the account is suspended: renewals are voided, the subscription stays. */
  pauseBilling(subscriptionId: string): Promise<void>;
  /** Charges renewals again. */
  resumeBilling(subscriptionId: string): Promise<void>;
}
