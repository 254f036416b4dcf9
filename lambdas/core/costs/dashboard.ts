// The ops dashboard's cost estimate (lib/ops-stack.ts) as CloudWatch metric math: real egress bytes and running
// streams, the cost model's per-GB prices and per-stream lines. Pure: it returns expression text; the tests evaluate
// that text against the model itself.
import type { DataPlane } from '../../contract/data-planes';
import { BYTES_PER_GB, DEFAULT_BITRATE_MBPS, DEFAULT_FLEET_STREAMS, HOURS_PER_MONTH, WIRE_OVERHEAD, hostOffers } from './assumptions';
import { egressTiers, fleetFixedUsdPerMonth, gbPerDestinationMonth, hostCapacity, hostUsdPerMonth, streamMonthCost } from './model';

const plainDecimal = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 12, useGrouping: false, signDisplay: 'negative' });

/** A number as metric math reads it: a plain decimal of up to 12 significant digits. Never exponent notation
 * (JavaScript prints 1.06e-9, which CloudWatch reads as 1.06, the unknown identifier `e`, minus 9) and never a
 * thousands separator. */
export function mathNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`metric math has no number for ${value}`);
  return plainDecimal.format(value);
}

/** AWS's internet egress tiers on a monthly total in GB, as nested IFs (metric math has no MIN of a series and a
 * number). */
export function awsEgressUsdExpression(monthGb: string): string {
  return egressTiers
    .filter((tier) => tier.usdPerGb > 0)
    .map((tier) => {
      const inTier = Number.isFinite(tier.toGb)
        ? `IF(${monthGb} > ${mathNumber(tier.fromGb)}, IF(${monthGb} > ${mathNumber(tier.toGb)}, ${mathNumber(tier.toGb - tier.fromGb)}, ${monthGb} - ${mathNumber(tier.fromGb)}), 0)`
        : `IF(${monthGb} > ${mathNumber(tier.fromGb)}, ${monthGb} - ${mathNumber(tier.fromGb)}, 0)`;
      return `${mathNumber(tier.usdPerGb)} * ${inTier}`;
    })
    .join(' + ');
}

/** `IF(a < b, a, b)`, for expressions. */
const cheaper = (a: string, b: string) => `IF(${a} < ${b}, ${a}, ${b})`;

/** One named metric-math expression; it may use the inputs and the steps before it by their ids. */
export interface MathStep {
  id: string;
  expression: string;
}

/** External hosts for a monthly total in GB (the step `monthGb`), as the model packs them (packHosts): for each
 * offer, hosts filled to their included traffic or to their capacity with the overage paid, whichever is cheaper;
 * then the cheaper offer. One step per packing and per offer keeps each expression short. */
export function hostsUsdSteps(monthGb: string, id: string, videoMbps = DEFAULT_BITRATE_MBPS): MathStep[] {
  const gbPerLoop = gbPerDestinationMonth(videoMbps);
  const steps: MathStep[] = [];
  const offerIds = Object.values(hostOffers).map((offer, o) => {
    const capacity = hostCapacity(offer, videoMbps);
    const packingIds = [...new Set([capacity.withinIncluded, capacity.most])].map((perHost, p) => {
      const gbPerHost = mathNumber(perHost * gbPerLoop);
      let expression = `CEIL(${monthGb} / ${gbPerHost}) * ${mathNumber(hostUsdPerMonth(offer))}`;
      if (offer.overageUsdPerGb > 0 && Number.isFinite(offer.includedGbPerMonth)) {
        // Full hosts each pay for what they carry beyond the included traffic; the last, partly filled one likewise.
        const fullHosts = `FLOOR(${monthGb} / ${gbPerHost})`;
        const lastHostGb = `(${monthGb} - ${fullHosts} * ${gbPerHost})`;
        const included = mathNumber(offer.includedGbPerMonth);
        const overageGb = `${fullHosts} * ${mathNumber(Math.max(0, perHost * gbPerLoop - offer.includedGbPerMonth))} + IF(${lastHostGb} > ${included}, ${lastHostGb} - ${included}, 0)`;
        expression += ` + ${mathNumber(offer.overageUsdPerGb)} * (${overageGb})`;
      }
      steps.push({ id: `${id}${o}p${p}`, expression });
      return `${id}${o}p${p}`;
    });
    steps.push({ id: `${id}${o}`, expression: packingIds.reduce(cheaper) });
    return `${id}${o}`;
  });
  steps.push({ id, expression: offerIds.reduce(cheaper) });
  return steps;
}

export interface DashboardCostEstimate {
  /** Metric math over two inputs, `bytes` (an hour's StreamEgressBytes, summed) and `streams` (StreamsRunning, the
   * hour's average): `egressGb` is the hour's egress on the wire in GB, `cost` (the last step) the estimated cost
   * per stream-month in USD. */
  steps: MathStep[];
  /** The model's lines that do not grow with egress: per stream, and for the whole deployment. */
  perStreamUsd: number;
  fleetUsd: number;
}

/**
 * The estimate for a data plane: egress-driven costs (AWS's tiers on Fargate, hosts on external) from the real
 * egress projected over a month, the model's other per-stream lines at the product's bitrate, and the deployment's
 * fixed costs shared by the streams actually running. On the external plane the hosts are priced as the model packs
 * them, from the egress alone: the hosts actually rented are not a metric.
 */
export function dashboardCostEstimate(plane: DataPlane): DashboardCostEstimate {
  // The lines that do not scale with destinations, at the model's default fleet (AWS's egress tiers for the
  // external plane's downloads depend on it a little).
  const model = streamMonthCost({ plane, videoMbps: DEFAULT_BITRATE_MBPS, streams: DEFAULT_FLEET_STREAMS });
  const perStreamUsd = model.lines.filter((line) => line.scale !== 'destination' && line.key !== 'fleet-fixed').reduce((sum, line) => sum + line.usd, 0);
  const fleetUsd = fleetFixedUsdPerMonth();
  const streams = 'FILL(streams, 0)';
  return {
    perStreamUsd,
    fleetUsd,
    steps: [
      { id: 'egressGb', expression: `FILL(bytes, 0) * ${mathNumber(WIRE_OVERHEAD / BYTES_PER_GB)}` },
      { id: 'monthGb', expression: `egressGb * ${mathNumber(HOURS_PER_MONTH)}` },
      ...(plane === 'fargate' ? [{ id: 'egressUsd', expression: awsEgressUsdExpression('monthGb') }] : hostsUsdSteps('monthGb', 'egressUsd')),
      { id: 'cost', expression: `IF(${streams} > 0, (egressUsd + ${mathNumber(fleetUsd)}) / ${streams} + ${mathNumber(perStreamUsd)}, 0)` },
    ],
  };
}
