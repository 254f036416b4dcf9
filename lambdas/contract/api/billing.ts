// What the API answers about the subscription (GET /subscription), built by lambdas/core/billing and read by the web
// app. Types only; the plans' vocabulary is the pure domain's (lambdas/core/plans.ts), the error keys the
// catalogue's (lambdas/core/errors.ts).
import type { ErrorKey } from '../../core/errors';
import type { BillingPeriod, PlanId, PlanLimits } from '../../core/plans';

export type AccessState = 'trial' | 'active' | 'canceling' | 'payment-failed' | 'expired';

/** What the user may do now under their plan (lambdas/core/billing/entitlement.ts). */
export interface Entitlement {
  plan: PlanId;
  period?: BillingPeriod;
  state: AccessState;
  limits: PlanLimits;
  /** The current billing cycle (the trial is one cycle); uploads are counted per cycle. */
  cycleStart: string;
  cycleEnd: string;
  /** May start streams and uploads. */
  active: boolean;
  /** Why not, as a catalogue key. */
  blockedBy?: Extract<ErrorKey, 'no active subscription' | 'no valid payment'>;
  /** After a failed payment, running streams keep going until then (a notice is sent), then stop. */
  graceEndsAt?: string;
}

export interface Usage {
  storageBytes: number;
  runningStreams: number;
  uploadsThisCycle: number;
  /** Connected YouTube accounts (against the plan's youtubeChannels). */
  youtubeChannels: number;
}

export interface PaymentView {
  id: string;
  amountCents: number;
  currency: string;
  paidAt: string;
  periodStart?: string;
  periodEnd?: string;
  plan?: PlanId;
}

export interface SubscriptionOverview extends Entitlement {
  cancelAtPeriodEnd: boolean;
  usage: Usage;
  /** A payment provider is configured: checkout and the portal work. */
  billingAvailable: boolean;
  /** The user has a billing account at the provider (the portal can open). */
  hasBillingAccount: boolean;
  payments: PaymentView[];
}
