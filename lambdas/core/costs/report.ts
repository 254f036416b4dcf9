// `npm run costs` as text: per data plane, the cost of a stream-month by line with the bitrates as columns, then
// each plan's margin. Pure: the command prints what this returns.
import type { DataPlane } from '../../contract/data-planes';
import { plans } from '../plans';
import { table } from '../support/text';
import type { HostId } from './assumptions';
import { planMargins, type PlanUse } from './margins';
import { streamMonthCost, stripeFeesUsd, videoFileGb, type StreamMonthCost } from './model';
import { PRICES_READ_ON, prices, type PriceFigure } from './prices';

export interface ReportRequest {
  planes: readonly DataPlane[];
  bitratesMbps: readonly number[];
  streams: number;
  host: HostId | 'auto';
}

const usd = (value: number) => value.toFixed(2);
const signed = (value: number) => (value < 0 ? `-${usd(-value)}` : usd(value));
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const mbps = (value: number) => `${value} Mbit/s`;

const planeTitles: Record<DataPlane, string> = {
  fargate: 'fargate: every stream is its own ECS Fargate task',
  external: 'external: copy loops packed on ECS Anywhere hosts whose traffic is included',
};

/** The basic plan's monthly charge: the Stripe line of a one-stream customer. */
const basicMonthlyUsd = (plans.basic.monthlyPriceCents ?? 0) / 100;

function linesTable(costs: StreamMonthCost[]): string {
  const header = ['USD PER STREAM-MONTH', ...costs.map((cost) => mbps(cost.scenario.videoMbps))];
  const info = (label: string, cell: (cost: StreamMonthCost) => string) => [label, ...costs.map(cell)];
  const rows: string[][] = [
    info('on the wire per destination (Mbit/s)', (cost) => cost.wireMbps.toFixed(2)),
    info('sent per destination (GB/month)', (cost) => whole(cost.gbPerDestination)),
    info('stream-ready video (GB per hour)', (cost) => videoFileGb(cost.scenario.videoMbps).toFixed(2)),
  ];
  if (costs[0]?.hostFleet) {
    rows.push(info('hosts', (cost) => `${cost.hostFleet!.hosts} × ${cost.hostFleet!.offer.id}`));
    rows.push(info('streams a host carries (limited by)', (cost) => `${cost.hostFleet!.perHost} (${cost.hostFleet!.limitedBy})`));
  }
  for (const [i, line] of (costs[0]?.lines ?? []).entries()) {
    rows.push([`${line.group}: ${line.label}`, ...costs.map((cost) => usd(cost.lines[i]!.usd))]);
  }
  rows.push(info('TOTAL without Stripe', (cost) => usd(cost.totalUsd)));
  const stripe = stripeFeesUsd(basicMonthlyUsd);
  rows.push(info(`Stripe fees on Basic's monthly ${usd(basicMonthlyUsd)}`, () => usd(stripe)));
  rows.push(info('TOTAL for a Basic customer', (cost) => usd(cost.totalUsd + stripe)));
  return table(header, rows);
}

function marginsTable(costs: StreamMonthCost[]): string {
  const margins = costs.map((cost) => planMargins(cost.scenario));
  const uses: PlanUse[] = ['streams', 'full'];
  const header = ['PLAN', 'PERIOD', 'PRICE/MONTH', 'STRIPE/MONTH', ...costs.flatMap((cost) => uses.map((use) => `${mbps(cost.scenario.videoMbps)} ${use}`))];
  const rows = margins[0]!.priced.map((first, i) => [
    first.plan,
    first.period,
    usd(first.revenueUsd),
    usd(first.stripeUsd),
    ...margins.flatMap((each) => uses.map((use) => signed(each.priced[i]!.marginUsd[use]))),
  ]);
  for (const [i, first] of margins[0]!.unpriced.entries()) {
    const cells = margins.flatMap((each) => {
      const row = each.unpriced[i]!;
      return row.trialCostUsd !== undefined ? [`-${usd(row.trialCostUsd)}`, ''] : ['', `-${usd(row.fullUseCostUsd!)}`];
    });
    const what = first.trialCostUsd !== undefined ? 'per trial' : 'per month';
    rows.push([first.plan, what, first.plan === 'trial' ? 'free' : 'by agreement', '', ...cells]);
  }
  const custom = margins.map((each) => each.unpriced.find((row) => row.breakEvenUsd !== undefined));
  const breakEven = custom.every(Boolean)
    ? `\nCustom at full use breaks even at ${custom.map((row, i) => `${usd(row!.breakEvenUsd!)} USD/month at ${mbps(costs[i]!.scenario.videoMbps)}`).join(', ')}.`
    : '';
  return `${table(header, rows)}${breakEven}`;
}

/** The whole report for the data planes and bitrates asked. */
export function costReport(request: ReportRequest): string {
  const sections = request.planes.map((plane) => {
    const costs = request.bitratesMbps.map((videoMbps) => streamMonthCost({ plane, videoMbps, streams: request.streams, host: request.host }));
    return [
      `== ${planeTitles[plane]} ==`,
      '',
      linesTable(costs),
      '',
      `Margins on ${plane}, USD per month: price less Stripe's fees less cost. "streams": every stream the plan allows running 24/7 to one`,
      'destination; "full": to every destination it allows, with its whole storage allowance filled. Trial and Custom: their cost.',
      '',
      marginsTable(costs),
    ].join('\n');
  });
  const assumed = Object.values(prices as Record<string, PriceFigure>)
    .filter((figure) => figure.assumed)
    .map((figure) => figure.what);
  return [
    `Loopcast: what a stream-month costs in a fleet of ${request.streams} stream${request.streams === 1 ? '' : 's'} running 24/7, one destination each.`,
    `List prices (AWS us-east-1, Stripe, the host) typed in by hand from public pages on ${PRICES_READ_ON}: not a live quote.`,
    `Every figure, its source and the assumptions: docs/costs.md.${assumed.length ? ` Assumed, not quoted: ${assumed.join('; ')}.` : ''}`,
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}
