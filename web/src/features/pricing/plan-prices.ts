// What the pricing table shows, computed from the one plan definition (lambdas/core/plans.ts), never copied.
// Amounts are formatted the same way in every language ("$8.99"): fees are in USD, and an identical string from
// the prerender and the browser keeps hydration exact whatever each one's Intl data.
import { periodPriceCents, periodSavingCents, periodTerms, type BillingPeriod, type Plan } from '@loopcast/core/plans';

export type PlanPrice =
  { kind: 'free' } | { kind: 'by agreement' } | { kind: 'paid'; perMonthCents: number; totalCents: number; savingCents: number; discountPercent: number };

export const formatUsd = (cents: number): string => {
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  return `$${dollars.toLocaleString('en-US')}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
};

export function planPrice(plan: Plan, period: BillingPeriod): PlanPrice {
  const total = periodPriceCents(plan, period);
  if (total === undefined) return plan.selfServe || plan.id === 'trial' ? { kind: 'free' } : { kind: 'by agreement' };
  const { months, discountPercent } = periodTerms[period];
  return { kind: 'paid', perMonthCents: Math.round(total / months), totalCents: total, savingCents: periodSavingCents(plan, period), discountPercent };
}

/** Storage in whole GB, or TB from 1 TB on (2048 GB shows as 2 TB). */
export function storageSize(bytes: number): { unit: 'gigabytes' | 'terabytes'; count: number } {
  const gigabytes = bytes / 1024 ** 3;
  return gigabytes >= 1024 ? { unit: 'terabytes', count: Math.round((gigabytes / 1024) * 10) / 10 } : { unit: 'gigabytes', count: Math.round(gigabytes) };
}
