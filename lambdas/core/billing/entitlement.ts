// What a user may do right now, from their subscription (or its absence: the free trial). Pure: the same
// answer for the API, the limits checks and the pages. Rules: docs/plans.md.
import type { AccessState, Entitlement } from '../../contract/api/billing';
import { plans, TRIAL_DAYS, type BillingPeriod, type PlanId, type PlanLimits } from '../plans';

/** A paid (or operator-granted) subscription as Loopcast keeps it, mirrored from the payment provider. */
export interface Subscription {
  userId: string;
  plan: PlanId;
  period?: BillingPeriod;
  /** The provider's view, reduced: active (paid up), past_due (a renewal failed), canceled (ended). */
  status: 'active' | 'past_due' | 'canceled';
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  /** When the first failed renewal of the current problem happened; cleared when a payment succeeds. */
  paymentFailedAt?: string;
  /** Negotiated limits of a Custom plan, over the plan's defaults. */
  customLimits?: Partial<PlanLimits>;
  providerCustomerId?: string;
  providerSubscriptionId?: string;
}

export type { AccessState, Entitlement };

export const PAYMENT_GRACE_HOURS = 24;
/** A renewing subscription whose new period the provider has not reported yet (Stripe charges renewals about an
 * hour after the period ends, and a webhook may be late or retried) stays active this long past its period end,
 * so a late webhook never stops a paying user's streams. */
export const RENEWAL_LEEWAY_HOURS = 24;
const hours = (n: number) => n * 3600_000;

export interface AccountDates {
  createdAt: string;
  confirmedAt?: string;
}

export function entitlementOf(account: AccountDates, subscription: Subscription | undefined, now: Date): Entitlement {
  if (!subscription) {
    // The trial starts when the e-mail is confirmed (the account becomes usable), once.
    const start = new Date(account.confirmedAt ?? account.createdAt);
    const end = new Date(start.getTime() + hours(24 * TRIAL_DAYS));
    const running = now < end;
    return {
      plan: 'trial',
      state: running ? 'trial' : 'expired',
      limits: plans.trial.limits,
      cycleStart: start.toISOString(),
      cycleEnd: end.toISOString(),
      active: running,
      ...(running ? {} : { blockedBy: 'no active subscription' as const }),
    };
  }
  const base = {
    plan: subscription.plan,
    ...(subscription.period ? { period: subscription.period } : {}),
    limits: { ...plans[subscription.plan].limits, ...subscription.customLimits },
    cycleStart: subscription.currentPeriodStart,
    cycleEnd: subscription.currentPeriodEnd,
  };
  if (subscription.status === 'past_due') {
    const failedAt = new Date(subscription.paymentFailedAt ?? subscription.currentPeriodEnd);
    return {
      ...base,
      state: 'payment-failed',
      active: false,
      blockedBy: 'no valid payment',
      graceEndsAt: new Date(failedAt.getTime() + hours(PAYMENT_GRACE_HOURS)).toISOString(),
    };
  }
  const periodEnd = new Date(subscription.currentPeriodEnd).getTime();
  const activeUntil = subscription.cancelAtPeriodEnd ? periodEnd : periodEnd + hours(RENEWAL_LEEWAY_HOURS);
  if (subscription.status === 'active' && now.getTime() < activeUntil) {
    return { ...base, state: subscription.cancelAtPeriodEnd ? 'canceling' : 'active', active: true };
  }
  return { ...base, state: 'expired', active: false, blockedBy: 'no active subscription' };
}

/** Running streams must stop: the plan ended, or a payment failure outlived its grace period. */
export function streamsMustStop(entitlement: Entitlement, now: Date): boolean {
  if (entitlement.state === 'expired') return true;
  return entitlement.state === 'payment-failed' && entitlement.graceEndsAt !== undefined && now >= new Date(entitlement.graceEndsAt);
}
