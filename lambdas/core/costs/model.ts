// What a stream-month costs, by line, on either data plane: pure arithmetic over the price table (prices.ts) and the
// usage assumptions (assumptions.ts). A "stream-month" is one stream running 24/7 for 730 hours to one destination,
// in a fleet of `streams` such streams (egress tiers, host packing and the deployment's fixed costs depend on the
// fleet). docs/costs.md shows the figures and explains each line.
import { externalStreamTask, fargateDisk, fargateEphemeralStorageGiB, fargateStreamTask, type DataPlane } from '../../contract/data-planes';
import {
  BYTES_PER_GB,
  HOURS_PER_MONTH,
  INTERNATIONAL_CARD_SHARE,
  STREAM_VIDEO_HOURS,
  AUDIO_MBPS,
  controlPlaneUsage as usage,
  WATCHED_SHARE,
  fleetFixed,
  hostOffers,
  hostPacking,
  wireMbps,
  type HostId,
  type HostOffer,
} from './assumptions';
import { prices } from './prices';

export type LineGroup = 'compute' | 'disk' | 'ipv4' | 'egress' | 'control plane' | 'storage';

/**
 * What a line grows with when a plan uses it: `destination` lines once per destination a stream sends to (egress,
 * host capacity), `stream` lines once per stream, `storage` by the gigabytes stored.
 */
export type LineScale = 'destination' | 'stream' | 'storage';

export interface CostLine {
  /** Stable across bitrates and fleet sizes, so reports can line them up. */
  key: string;
  group: LineGroup;
  label: string;
  /** USD per stream-month (one destination). */
  usd: number;
  scale: LineScale;
}

export interface Scenario {
  plane: DataPlane;
  /** The stream-ready file's video bitrate (the audio is added). */
  videoMbps: number;
  /** Streams the deployment runs at once, each to one destination. */
  streams: number;
  /** External data plane: the host offer, or the cheaper one for this fleet. */
  host?: HostId | 'auto';
}

export interface HostFleet {
  offer: HostOffer;
  hosts: number;
  /** Streams (destinations) each full host carries. */
  perHost: number;
  /** Which resource limits `perHost`. */
  limitedBy: 'link' | 'cores' | 'memory' | 'included traffic';
  overageGb: number;
  usdPerMonth: number;
}

export interface StreamMonthCost {
  scenario: Required<Scenario>;
  wireMbps: number;
  /** What one destination receives in a month. */
  gbPerDestination: number;
  lines: CostLine[];
  /** Sum of the lines (no Stripe fees: they depend on the price, see stripeFeesUsd). */
  totalUsd: number;
  hostFleet?: HostFleet;
}

const perMillion = (count: number, price: { value: number }) => (count / 1e6) * price.value;

/** Gigabytes one destination receives in a month at a video bitrate. */
export const gbPerDestinationMonth = (videoMbps: number): number => (((wireMbps(videoMbps) * 1e6) / 8) * HOURS_PER_MONTH * 3600) / BYTES_PER_GB;

/** The stream-ready file of `hours` of video at a bitrate (what S3 stores and a task downloads). */
export const videoFileGb = (videoMbps: number, hours = STREAM_VIDEO_HOURS): number => ((((videoMbps + AUDIO_MBPS) * 1e6) / 8) * hours * 3600) / BYTES_PER_GB;

// ---- Egress to the internet: AWS's tiers over the account's monthly total ----

export interface EgressTier {
  key: string;
  label: string;
  fromGb: number;
  toGb: number;
  usdPerGb: number;
}

export const egressTiers: readonly EgressTier[] = [
  { key: 'egress-free', label: 'first 100 GB free', fromGb: 0, toGb: prices.egressFreeGb.value, usdPerGb: 0 },
  { key: 'egress-10tb', label: 'up to 10 TB', fromGb: prices.egressFreeGb.value, toGb: 10_000, usdPerGb: prices.egressFirst10TbGb.value },
  { key: 'egress-50tb', label: 'next 40 TB', fromGb: 10_000, toGb: 50_000, usdPerGb: prices.egressNext40TbGb.value },
  { key: 'egress-150tb', label: 'next 100 TB', fromGb: 50_000, toGb: 150_000, usdPerGb: prices.egressNext100TbGb.value },
  { key: 'egress-over', label: 'over 150 TB', fromGb: 150_000, toGb: Infinity, usdPerGb: prices.egressOver150TbGb.value },
];

/** The gigabytes of a monthly total that fall in each tier, and what they cost. */
export function egressByTier(totalGb: number): { tier: EgressTier; gb: number; usd: number }[] {
  return egressTiers.map((tier) => {
    const gb = Math.max(0, Math.min(totalGb, tier.toGb) - tier.fromGb);
    return { tier, gb, usd: gb * tier.usdPerGb };
  });
}

export const egressUsd = (totalGb: number): number => egressByTier(totalGb).reduce((sum, { usd }) => sum + usd, 0);

/** The fleet's egress split over its streams, one line per tier. */
function egressLines(perStreamGb: number, streams: number, label: string, scale: LineScale): CostLine[] {
  return egressByTier(perStreamGb * streams).map(({ tier, usd }) => ({
    key: tier.key,
    group: 'egress',
    label: `${label}, ${tier.label}${tier.usdPerGb ? ` at ${tier.usdPerGb}/GB` : ''}`,
    usd: usd / streams,
    scale,
  }));
}

// ---- The control plane and storage: the same on both data planes ----

/** The deployment's own metrics, alarms and dashboard: fixed, shared by every stream. */
export const fleetFixedUsdPerMonth = (): number =>
  (fleetFixed.customMetrics + fleetFixed.containerInsightsMetrics) * prices.cloudWatchMetricMonth.value +
  fleetFixed.alarms * prices.cloudWatchAlarmMonth.value +
  fleetFixed.dashboards * prices.cloudWatchDashboardMonth.value;

/** Units per hour, with the stream's page open WATCHED_SHARE of the time. */
const watchedMix = (units: { unwatched: number; watched: number }) => units.unwatched * (1 - WATCHED_SHARE) + units.watched * WATCHED_SHARE;

function controlPlaneLines(streams: number): CostLine[] {
  const line = (key: string, label: string, usd: number): CostLine => ({ key, group: 'control plane', label, usd, scale: 'stream' });
  const hourly = (count: number) => count * HOURS_PER_MONTH;
  return [
    line(
      'dynamodb-reads',
      'DynamoDB reads (measured: heartbeats, reconciler, upkeep)',
      perMillion(hourly(watchedMix(usage.dynamoReadUnitsPerHour)), prices.dynamoReadMillion),
    ),
    line(
      'dynamodb-writes',
      'DynamoDB writes (measured: heartbeats, previews)',
      perMillion(hourly(watchedMix(usage.dynamoWriteUnitsPerHour)), prices.dynamoWriteMillion),
    ),
    line(
      'task-api',
      'task API requests (heartbeats, previews: CloudFront and HTTP API)',
      perMillion(hourly(usage.heartbeatsPerHour + usage.previewPutsPerHour), {
        value: prices.httpApiRequestMillion.value + prices.cloudFrontHttpsRequestTenThousand.value * 100,
      }),
    ),
    line(
      'realtime',
      'realtime pushes (WebSocket messages, connection minutes)',
      perMillion(hourly(usage.realtimeMessagesPerHour), prices.webSocketMessageMillion) +
        perMillion(hourly(usage.realtimeConnectionMinutesPerHour), prices.webSocketConnectionMinuteMillion),
    ),
    line('preview', 'preview frames while watched (S3 PUT)', (hourly(usage.previewPutsPerHour) / 1000) * prices.s3PutThousand.value),
    line('step-functions', 'Step Functions transitions', (usage.stateTransitionsPerMonth / 1000) * prices.stepFunctionsThousandTransitions.value),
    line(
      'lambda',
      'Lambda (task API, lifecycle, reconciler, upkeep)',
      perMillion(usage.lambdaRequestsPerMonth, prices.lambdaRequestMillion) + usage.lambdaGbSecondsPerMonth * prices.lambdaArmGbSecond.value,
    ),
    line('logs', 'CloudWatch logs', usage.logGbPerMonth * prices.cloudWatchLogsIngestGb.value),
    line('fleet-fixed', `CloudWatch metrics, alarms, dashboard (the deployment's, ÷ ${streams})`, fleetFixedUsdPerMonth() / streams),
  ];
}

function storageLine(videoMbps: number): CostLine {
  return {
    key: 'storage',
    group: 'storage',
    label: `the stream's video in S3 (${STREAM_VIDEO_HOURS} h of it)`,
    usd: videoFileGb(videoMbps) * prices.s3StandardGbMonth.value,
    scale: 'storage',
  };
}

// ---- Fargate: one task per stream ----

function fargateLines(videoMbps: number, streams: number): CostLine[] {
  const vcpu = fargateStreamTask.cpuUnits / 1024;
  const memoryGb = fargateStreamTask.memoryMiB / 1024;
  // Sized per stream by PrepareTask: what this stream's video needs, the free 20 GiB when it fits.
  const diskGiB = fargateEphemeralStorageGiB({ videoBytes: videoFileGb(videoMbps) * BYTES_PER_GB });
  const extraDiskGb = Math.max(0, diskGiB - prices.fargateFreeStorageGb.value);
  return [
    {
      key: 'fargate-compute',
      group: 'compute',
      label: `Fargate ARM ${vcpu} vCPU, ${memoryGb} GB`,
      usd: (vcpu * prices.fargateArmVcpuHour.value + memoryGb * prices.fargateArmGbHour.value) * HOURS_PER_MONTH,
      scale: 'stream',
    },
    {
      key: 'fargate-disk',
      group: 'disk',
      label: `ephemeral disk beyond the free ${fargateDisk.freeGiB} GiB (sized to the stream's video)`,
      usd: extraDiskGb * prices.fargateStorageGbHour.value * HOURS_PER_MONTH,
      scale: 'stream',
    },
    {
      key: 'task-ipv4',
      group: 'ipv4',
      label: "the task's public IPv4 (none with -c taskNetwork=ipv6-only)",
      usd: prices.publicIpv4Hour.value * HOURS_PER_MONTH,
      scale: 'stream',
    },
    ...egressLines(gbPerDestinationMonth(videoMbps), streams, 'to the destination', 'destination'),
  ];
}

// ---- External: copy loops packed on ECS Anywhere hosts whose traffic is included ----

export const ecsAnywhereUsdPerHostMonth = (): number => prices.ecsAnywhereInstanceHour.value * HOURS_PER_MONTH;

export interface HostCapacity {
  /** Copy loops one host can carry, and the resource that limits it. */
  most: number;
  limitedBy: 'link' | 'cores' | 'memory';
  /** Copy loops whose traffic fits in what the host includes (at most `most`). */
  withinIncluded: number;
}

export function hostCapacity(offer: HostOffer, videoMbps: number): HostCapacity {
  const limits = {
    link: Math.floor((offer.linkMbps * hostPacking.linkUtilisation) / wireMbps(videoMbps)),
    cores: Math.floor((offer.cores * 1024) / externalStreamTask.cpuUnits),
    memory: Math.floor((offer.memoryMiB - hostPacking.systemMemoryMiB) / externalStreamTask.memoryReservationMiB),
  };
  const [limitedBy, limit] = (Object.entries(limits) as [HostCapacity['limitedBy'], number][]).reduce((a, b) => (b[1] < a[1] ? b : a));
  const most = Math.max(1, limit);
  return { most, limitedBy, withinIncluded: Math.min(most, Math.max(1, Math.floor(offer.includedGbPerMonth / gbPerDestinationMonth(videoMbps)))) };
}

/** What one host costs a month before traffic overage: rent, IPv4, the ECS Anywhere fee. */
export const hostUsdPerMonth = (offer: HostOffer): number => offer.rentUsdPerMonth + offer.ipv4UsdPerMonth + ecsAnywhereUsdPerHostMonth();

/** Hosts of one offer for `destinations` copy loops: the cheaper of filling each host to its included traffic or
 * to its capacity (paying the overage). */
export function packHosts(offer: HostOffer, destinations: number, videoMbps: number): HostFleet {
  const gb = gbPerDestinationMonth(videoMbps);
  const capacity = hostCapacity(offer, videoMbps);
  const fleetFor = (perHost: number): HostFleet => {
    const hosts = Math.ceil(destinations / perHost);
    const loads = [...(Array(Math.floor(destinations / perHost)).fill(perHost) as number[]), ...(destinations % perHost ? [destinations % perHost] : [])];
    const overageGb = loads.reduce((sum, load) => sum + Math.max(0, load * gb - offer.includedGbPerMonth), 0);
    return {
      offer,
      hosts,
      perHost,
      limitedBy: perHost < capacity.most ? 'included traffic' : capacity.limitedBy,
      overageGb,
      usdPerMonth: hosts * hostUsdPerMonth(offer) + overageGb * offer.overageUsdPerGb,
    };
  };
  return [fleetFor(capacity.withinIncluded), fleetFor(capacity.most)].reduce((a, b) => (b.usdPerMonth < a.usdPerMonth ? b : a));
}

/** The host offer that carries the fleet for less (or the one asked for). */
export function hostFleetFor(host: HostId | 'auto', destinations: number, videoMbps: number): HostFleet {
  const offers = host === 'auto' ? Object.values(hostOffers) : [hostOffers[host]];
  return offers.map((offer) => packHosts(offer, destinations, videoMbps)).reduce((a, b) => (b.usdPerMonth < a.usdPerMonth ? b : a));
}

function externalLines(videoMbps: number, streams: number, fleet: HostFleet): CostLine[] {
  const share = (usd: number) => usd / streams;
  const { offer, hosts } = fleet;
  const awsOutGb =
    usage.videoDownloadsPerMonth * videoFileGb(videoMbps) + (usage.heartbeatsPerHour * HOURS_PER_MONTH * usage.responseBytesPerHeartbeat) / BYTES_PER_GB;
  return [
    { key: 'host-rent', group: 'compute', label: `host rent (the hosts' ÷ ${streams})`, usd: share(hosts * offer.rentUsdPerMonth), scale: 'destination' },
    {
      key: 'ecs-anywhere',
      group: 'compute',
      label: `ECS Anywhere fee per host (÷ ${streams})`,
      usd: share(hosts * ecsAnywhereUsdPerHostMonth()),
      scale: 'destination',
    },
    { key: 'host-ipv4', group: 'ipv4', label: "the hosts' IPv4 addresses", usd: share(hosts * offer.ipv4UsdPerMonth), scale: 'destination' },
    {
      key: 'host-traffic',
      group: 'egress',
      label: 'host traffic beyond what is included',
      usd: share(fleet.overageGb * offer.overageUsdPerGb),
      scale: 'destination',
    },
    ...egressLines(awsOutGb, streams, 'AWS to the host (video downloads, answers)', 'stream'),
  ];
}

// ---- A stream-month ----

export function streamMonthCost(scenario: Scenario): StreamMonthCost {
  const full: Required<Scenario> = { host: 'auto', ...scenario };
  if (!(full.streams >= 1) || !Number.isInteger(full.streams)) throw new RangeError(`streams must be a whole number of at least 1, not ${full.streams}`);
  if (!(full.videoMbps > 0)) throw new RangeError(`the bitrate must be above 0 Mbit/s, not ${full.videoMbps}`);
  const hostFleet = full.plane === 'external' ? hostFleetFor(full.host, full.streams, full.videoMbps) : undefined;
  const lines = [
    ...(hostFleet ? externalLines(full.videoMbps, full.streams, hostFleet) : fargateLines(full.videoMbps, full.streams)),
    ...controlPlaneLines(full.streams),
    storageLine(full.videoMbps),
  ];
  return {
    scenario: full,
    wireMbps: wireMbps(full.videoMbps),
    gbPerDestination: gbPerDestinationMonth(full.videoMbps),
    lines,
    totalUsd: lines.reduce((sum, line) => sum + line.usd, 0),
    ...(hostFleet ? { hostFleet } : {}),
  };
}

// ---- Stripe ----

/** Stripe's cut of one charge: card fee (international for the assumed share of cards), Billing, fixed fee. */
export function stripeFeesUsd(chargeUsd: number): number {
  const share = prices.stripeCardShare.value + INTERNATIONAL_CARD_SHARE * prices.stripeInternationalShare.value + prices.stripeBillingShare.value;
  return chargeUsd * share + prices.stripeCardFixedUsd.value;
}

/** The monthly price that leaves `costUsd` after Stripe's fees on a monthly charge. */
export function breakEvenMonthlyPriceUsd(costUsd: number): number {
  return (costUsd + stripeFeesUsd(0)) / (1 - (stripeFeesUsd(1) - stripeFeesUsd(0)));
}
