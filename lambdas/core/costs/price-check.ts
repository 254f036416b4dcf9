// The Stripe prices tool's cost check (`npm run stripe:prices`): each price of the catalog against what its plan
// costs on the stage's data plane (margins.ts). A price below the cost of its plan's streams is refused by --apply;
// one that only loses money at full use (every destination, full storage) is warned about.
import type { DataPlane } from '../../contract/data-planes';
import type { CatalogPrice } from '../billing/price-catalog';
import { plans } from '../plans';
import { table } from '../support/text';
import { DEFAULT_BITRATE_MBPS, DEFAULT_FLEET_STREAMS } from './assumptions';
import { priceMargin, type PriceMargin } from './margins';

export interface CostCheckRequest {
  plane: DataPlane;
  streams?: number;
  videoMbps?: number;
}

export interface PriceCheck {
  lookupKey: string;
  margin: PriceMargin;
  /** Below the cost of its plan's streams, each to one destination: --apply refuses. */
  belowCost: boolean;
  /** Loses money only when every destination and the whole storage allowance are used: a warning. */
  belowCostAtFullUse: boolean;
}

export interface CostCheck {
  plane: DataPlane;
  streams: number;
  videoMbps: number;
  prices: PriceCheck[];
}

export function checkPriceCosts(catalog: CatalogPrice[], request: CostCheckRequest): CostCheck {
  const scenario = { plane: request.plane, streams: request.streams ?? DEFAULT_FLEET_STREAMS, videoMbps: request.videoMbps ?? DEFAULT_BITRATE_MBPS };
  return {
    ...scenario,
    prices: catalog.map((price) => {
      const margin = priceMargin(scenario, plans[price.plan], price.period);
      return { lookupKey: price.lookupKey, margin, belowCost: margin.marginUsd.streams < 0, belowCostAtFullUse: margin.marginUsd.full < 0 };
    }),
  };
}

export const pricesBelowCost = (check: CostCheck): PriceCheck[] => check.prices.filter((price) => price.belowCost);

const usd = (value: number) => (value < 0 ? `-${(-value).toFixed(2)}` : value.toFixed(2));

/** The check as a table, a line on what it assumed above it. */
export function costCheckText(check: CostCheck): string {
  const rows = check.prices.map(({ lookupKey, margin, belowCost, belowCostAtFullUse }) => [
    lookupKey,
    usd(margin.revenueUsd),
    usd(margin.stripeUsd),
    usd(margin.costUsd.streams),
    usd(margin.marginUsd.streams),
    usd(margin.marginUsd.full),
    belowCost ? 'BELOW COST' : belowCostAtFullUse ? 'below cost at full use' : 'ok',
  ]);
  return [
    `Cost check on the ${check.plane} data plane: a fleet of ${check.streams} streams at ${check.videoMbps} Mbit/s, USD per month (docs/costs.md).`,
    '',
    table(['LOOKUP KEY', 'PRICE', 'STRIPE', 'COST', 'MARGIN', 'AT FULL USE', 'VERDICT'], rows),
  ].join('\n');
}
