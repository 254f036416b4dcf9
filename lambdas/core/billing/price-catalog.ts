// The Stripe Prices that lambdas/core/plans.ts implies, and what to do so Stripe's follow it
// (`npm run stripe:prices`, docs/deploy.md step 6.1). Stripe Prices are immutable: a price whose amount, currency
// or interval differs is replaced by a new one that takes over its lookup key, and the old one is archived.
import { billingPeriods, periodPriceCents, periodTerms, planIds, plans, stripeLookupKey, type BillingPeriod, type Plan, type PlanId } from '../plans';
import { table } from '../support/text';

export const CATALOG_CURRENCY = 'usd';
/** The metadata key that marks the Stripe Product of a plan (`loopcast_plan=basic`). */
export const PRODUCT_PLAN_METADATA = 'loopcast_plan';

export interface Recurrence {
  interval: 'month' | 'year';
  intervalCount: number;
}

/** A billing period's recurring interval: whole years bill yearly, the others every n months. */
export function periodRecurrence(period: BillingPeriod): Recurrence {
  const { months } = periodTerms[period];
  return months % 12 === 0 ? { interval: 'year', intervalCount: months / 12 } : { interval: 'month', intervalCount: months };
}

export interface CatalogPrice {
  lookupKey: string;
  plan: PlanId;
  period: BillingPeriod;
  /** Cents, `periodPriceCents` of the plan and period. */
  unitAmount: number;
  currency: string;
  recurring: Recurrence;
}

/** The Stripe Product name of a plan: 'Loopcast Basic'. */
export const productName = (plan: PlanId): string => `Loopcast ${plan.charAt(0).toUpperCase()}${plan.slice(1)}`;

const periodNames: Record<BillingPeriod, string> = { month: 'monthly', '3months': 'every 3 months', '6months': 'every 6 months', year: 'yearly' };
/** What the dashboard and invoices call a price: 'Loopcast Basic, every 3 months'. */
export const priceNickname = (price: CatalogPrice): string => `${productName(price.plan)}, ${periodNames[price.period]}`;

/** Every self-serve plan with a price, in every billing period. */
export function priceCatalog(source: Record<PlanId, Plan> = plans): CatalogPrice[] {
  return planIds
    .map((id) => source[id])
    .filter((plan) => plan.selfServe && plan.monthlyPriceCents !== undefined)
    .flatMap((plan) =>
      billingPeriods.map((period) => ({
        lookupKey: stripeLookupKey(plan.id, period),
        plan: plan.id,
        period,
        unitAmount: periodPriceCents(plan, period)!,
        currency: CATALOG_CURRENCY,
        recurring: periodRecurrence(period),
      })),
    );
}

/** A price Stripe holds under one of the catalog's lookup keys, as much of it as matters here. */
export interface ExistingPrice {
  id: string;
  lookupKey: string;
  unitAmount: number | null;
  currency: string;
  recurring: { interval: string; intervalCount: number } | null;
  active: boolean;
  /** `loopcast_plan` of the price's product, when it has one (a product made by hand may not). */
  productPlan?: string;
}

export type PriceAction =
  | { kind: 'ok'; price: CatalogPrice; existing: ExistingPrice }
  | { kind: 'create'; price: CatalogPrice }
  | { kind: 'replace'; price: CatalogPrice; existing: ExistingPrice; differences: string[] };

export const formatAmount = (cents: number | null, currency: string): string =>
  cents === null ? '(no amount)' : `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

export const formatRecurrence = (recurring: { interval: string; intervalCount: number } | null): string =>
  recurring ? `every ${recurring.intervalCount} ${recurring.interval}${recurring.intervalCount === 1 ? '' : 's'}` : 'one-time';

/** How an existing price differs from the catalog's; empty when it is the same, active price. */
export function priceDifferences(price: CatalogPrice, existing: ExistingPrice): string[] {
  const differences: string[] = [];
  const sameCurrency = existing.currency.toLowerCase() === price.currency;
  if (existing.unitAmount !== price.unitAmount || !sameCurrency) {
    differences.push(`amount ${formatAmount(existing.unitAmount, existing.currency)} → ${formatAmount(price.unitAmount, price.currency)}`);
  }
  const recurring = existing.recurring;
  if (recurring?.interval !== price.recurring.interval || recurring.intervalCount !== price.recurring.intervalCount) {
    differences.push(`interval ${formatRecurrence(recurring)} → ${formatRecurrence(price.recurring)}`);
  }
  if (existing.productPlan !== undefined && existing.productPlan !== price.plan) {
    differences.push(`product of plan ${existing.productPlan} → ${price.plan}`);
  }
  if (!existing.active) differences.push('archived');
  return differences;
}

/** For each catalog price: `ok`, `create` (no price has its lookup key) or `replace` (the holder differs). */
export function planPriceActions(catalog: CatalogPrice[], existing: ExistingPrice[]): PriceAction[] {
  const byKey = new Map(existing.map((each) => [each.lookupKey, each]));
  return catalog.map((price): PriceAction => {
    const found = byKey.get(price.lookupKey);
    if (!found) return { kind: 'create', price };
    const differences = priceDifferences(price, found);
    return differences.length === 0 ? { kind: 'ok', price, existing: found } : { kind: 'replace', price, existing: found, differences };
  });
}

export const changesNeeded = (actions: PriceAction[]): boolean => actions.some((action) => action.kind !== 'ok');

const actionText = (action: PriceAction): string => {
  switch (action.kind) {
    case 'ok':
      return `ok (${action.existing.id})`;
    case 'create':
      return 'create';
    case 'replace':
      return `replace ${action.existing.id}: ${action.differences.join(', ')}`;
  }
};

/** The plan as a table, with a one-line summary under it. */
export function planText(actions: PriceAction[]): string {
  const rows = actions.map((action) => [
    action.price.lookupKey,
    formatAmount(action.price.unitAmount, action.price.currency),
    formatRecurrence(action.price.recurring),
    actionText(action),
  ]);
  const count = (kind: PriceAction['kind']) => actions.filter((action) => action.kind === kind).length;
  const summary = changesNeeded(actions)
    ? `${actions.length} prices: ${count('ok')} ok, ${count('create')} to create, ${count('replace')} to replace.`
    : `${actions.length} prices: all match lambdas/core/plans.ts.`;
  return `${table(['LOOKUP KEY', 'AMOUNT', 'INTERVAL', 'ACTION'], rows)}\n\n${summary}`;
}
