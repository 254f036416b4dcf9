// What each plan of lambdas/core/plans.ts earns per month on a data plane: its price in each billing period, less
// Stripe's fees on that charge, less what the plan's streams cost (model.ts). Two uses of a plan are priced:
// `streams`: every stream it allows running 24/7 to one destination, one hour of video each; `full`: every
// stream to every destination it allows, with its whole storage allowance filled.
import { billingPeriods, periodPriceCents, periodTerms, planIds, plans, TRIAL_DAYS, type BillingPeriod, type Plan, type PlanId } from '../plans';
import { BYTES_PER_GB, HOURS_PER_MONTH } from './assumptions';
import { breakEvenMonthlyPriceUsd, streamMonthCost, stripeFeesUsd, videoFileGb, type Scenario, type StreamMonthCost } from './model';
import { prices } from './prices';

export type PlanUse = 'streams' | 'full';

export interface UseProfile {
  streams: number;
  destinationsPerStream: number;
  storageGb: number;
}

export function useProfile(plan: Plan, use: PlanUse, videoMbps: number): UseProfile {
  const streams = plan.limits.concurrentStreams;
  return use === 'streams'
    ? { streams, destinationsPerStream: 1, storageGb: streams * videoFileGb(videoMbps) }
    : { streams, destinationsPerStream: plan.limits.destinationsPerStream, storageGb: plan.limits.storageBytes / BYTES_PER_GB };
}

/** What a plan's use costs a month (no Stripe fees), from the per-stream lines of a stream-month. */
export function planCostUsd(cost: StreamMonthCost, profile: UseProfile): number {
  return cost.lines.reduce((sum, line) => {
    switch (line.scale) {
      case 'destination':
        return sum + line.usd * profile.streams * profile.destinationsPerStream;
      case 'stream':
        return sum + line.usd * profile.streams;
      case 'storage':
        return sum;
    }
  }, profile.storageGb * prices.s3StandardGbMonth.value);
}

/** A plan's use priced within the fleet, the fleet counted as at least the plan's own destinations (a Pro customer
 * alone is five streams). */
function useCostUsd(scenario: Scenario, plan: Plan, use: PlanUse): number {
  const profile = useProfile(plan, use, scenario.videoMbps);
  const streams = Math.max(scenario.streams, profile.streams * profile.destinationsPerStream);
  return planCostUsd(streamMonthCost({ ...scenario, streams }), profile);
}

export interface PriceMargin {
  plan: PlanId;
  period: BillingPeriod;
  /** USD per month: the period's price spread over its months, Stripe's fee on that one charge likewise. */
  revenueUsd: number;
  stripeUsd: number;
  costUsd: Record<PlanUse, number>;
  marginUsd: Record<PlanUse, number>;
}

/** Margins of a paid plan in one billing period. */
export function priceMargin(scenario: Scenario, plan: Plan, period: BillingPeriod): PriceMargin {
  const chargeCents = periodPriceCents(plan, period);
  if (chargeCents === undefined) throw new Error(`plan ${plan.id} has no price`);
  const { months } = periodTerms[period];
  const revenueUsd = chargeCents / 100 / months;
  const stripeUsd = stripeFeesUsd(chargeCents / 100) / months;
  const costUsd = { streams: useCostUsd(scenario, plan, 'streams'), full: useCostUsd(scenario, plan, 'full') };
  return {
    plan: plan.id,
    period,
    revenueUsd,
    stripeUsd,
    costUsd,
    marginUsd: { streams: revenueUsd - stripeUsd - costUsd.streams, full: revenueUsd - stripeUsd - costUsd.full },
  };
}

export interface UnpricedPlan {
  plan: PlanId;
  /** The trial: what one trial of TRIAL_DAYS costs with its stream running throughout. */
  trialCostUsd?: number;
  /** Custom: what full use costs a month, and the monthly price that would just cover it. */
  fullUseCostUsd?: number;
  breakEvenUsd?: number;
}

export interface PlanMargins {
  priced: PriceMargin[];
  unpriced: UnpricedPlan[];
}

/** Every plan: margins for each billing period of those with a price, the cost of the others. */
export function planMargins(scenario: Scenario): PlanMargins {
  const priced: PriceMargin[] = [];
  const unpriced: UnpricedPlan[] = [];
  for (const plan of planIds.map((id) => plans[id])) {
    if (plan.monthlyPriceCents !== undefined) {
      priced.push(...billingPeriods.map((period) => priceMargin(scenario, plan, period)));
    } else if (plan.id === 'trial') {
      unpriced.push({ plan: plan.id, trialCostUsd: (useCostUsd(scenario, plan, 'streams') * TRIAL_DAYS * 24) / HOURS_PER_MONTH });
    } else {
      const fullUseCostUsd = useCostUsd(scenario, plan, 'full');
      unpriced.push({ plan: plan.id, fullUseCostUsd, breakEvenUsd: breakEvenMonthlyPriceUsd(fullUseCostUsd) });
    }
  }
  return { priced, unpriced };
}
