// The ops dashboard's cost estimate (lib/ops-stack.ts) as CloudWatch metric math: real egress bytes and running
// streams, the cost model's per-GB prices and per-stream lines. Pure: it returns expression text; the tests evaluate
// that text against the model itself.
import type { DataPlane } from '../../contract/data-planes';
import { BYTES_PER_GB, DEFAULT_BITRATE_MBPS, DEFAULT_FLEET_STREAMS, HOURS_PER_MONTH, WIRE_OVERHEAD, hostOffers } from './assumptions';
import { egressTiers, fleetFixedUsdPerMonth, gbPerDestinationMonth, hostCapacity, hostUsdPerMonth, streamMonthCost } from './model';

/** Round figures, so the expressions stay readable and CloudWatch gets plain decimals. */
const figure = (value: number) => Number(value.toPrecision(6)).toString();

/** AWS's internet egress tiers on a monthly total in GB, as nested IFs (metric math has no MIN of a series and a
 * number). */
export function awsEgressUsdExpression(monthGb: string): string {
  return egressTiers
    .filter((tier) => tier.usdPerGb > 0)
    .map((tier) => {
      const inTier = Number.isFinite(tier.toGb)
        ? `IF(${monthGb} > ${tier.fromGb}, IF(${monthGb} > ${tier.toGb}, ${tier.toGb - tier.fromGb}, ${monthGb} - ${tier.fromGb}), 0)`
        : `IF(${monthGb} > ${tier.fromGb}, ${monthGb} - ${tier.fromGb}, 0)`;
      return `${figure(tier.usdPerGb)} * ${inTier}`;
    })
    .join(' + ');
}

/** External hosts for a monthly total in GB: each offer's hosts filled to their included traffic (or capacity) at
 * the product's bitrate, and the cheaper offer. */
export function hostsUsdExpression(monthGb: string, videoMbps = DEFAULT_BITRATE_MBPS): string {
  return Object.values(hostOffers)
    .map((offer) => {
      const gbPerHost = hostCapacity(offer, videoMbps).withinIncluded * gbPerDestinationMonth(videoMbps);
      return `CEIL(${monthGb} / ${figure(gbPerHost)}) * ${figure(hostUsdPerMonth(offer))}`;
    })
    .reduce((cheaper, next) => `IF(${cheaper} < ${next}, ${cheaper}, ${next})`);
}

export interface DashboardCostEstimate {
  /** Metric math for the egress on the wire in GB over the period, from the bytes metric's sum. */
  egressGb(bytes: string): string;
  /** Metric math for the estimated cost per stream-month, from an hour's egress bytes and the running streams. */
  costPerStreamMonth(hourBytes: string, streams: string): string;
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
  const perStreamUsd = model.lines
    .filter((line) => line.scale !== 'destination' && line.key !== 'fleet-fixed')
    .reduce((sum, line) => sum + line.usd, 0);
  const fleetUsd = fleetFixedUsdPerMonth();
  const egressGb = (bytes: string) => `${bytes} * ${figure(WIRE_OVERHEAD / BYTES_PER_GB)}`;
  return {
    egressGb,
    perStreamUsd,
    fleetUsd,
    costPerStreamMonth(hourBytes, streams) {
      const monthGb = `(${egressGb(hourBytes)} * ${HOURS_PER_MONTH})`;
      const egressUsd = plane === 'fargate' ? awsEgressUsdExpression(monthGb) : hostsUsdExpression(monthGb);
      return `IF(${streams} > 0, (${egressUsd} + ${figure(fleetUsd)}) / ${streams} + ${figure(perStreamUsd)}, 0)`;
    },
  };
}
