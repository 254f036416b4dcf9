// What the cost model assumes about Loopcast's own usage (not prices: those are in prices.ts). Each figure says
// where it comes from: a measurement, the code as it is, or a judgement. docs/costs.md explains them.
import { metricNames } from '../../contract/metrics';
import { audioOutput, outputProfiles } from '../media-spec';
import { prices } from './prices';

/** AWS's month for hourly prices. */
export const HOURS_PER_MONTH = 730;

/** Decimal, as issue 18 counted (1,971 GB a month at 6 Mbit/s); AWS bills data transfer in binary GB, so this
 * overstates egress by 7 %: the conservative side. */
export const BYTES_PER_GB = 1e9;

/** The bitrate the model prices a stream at unless asked otherwise (lambdas/core/media-spec.ts): 1080p30's high
 * tier, 6 Mbit/s, what every video was before output profiles and the most a Full HD plan's creator can choose. New
 * uploads default to the low tier (3 Mbit/s), so this is the conservative side. */
export const DEFAULT_BITRATE_MBPS = outputProfiles['1080p30'].bitrates.high / 1e6;
/** Every stream-ready file carries this audio on top of its video bitrate. */
export const AUDIO_MBPS = audioOutput.bitrate / 1e6;
/** The bitrates `npm run costs` prints when none is asked for (YouTube's 1080p30 range is 3-8 Mbit/s). */
export const REPORT_BITRATES_MBPS = [3, 4.5, 6] as const;

/** RTMP chunk and FLV tag headers plus TCP/IP on top of the media bitrate: issue 18 measured 6.3-6.7 Mbit/s on the
 * wire for the 6.128 Mbit/s file (video + audio), 1.06 is its middle. */
export const WIRE_OVERHEAD = 1.06;

/** Media bitrate plus audio, plus wire overhead: what one destination of a stream sends, in Mbit/s. */
export const wireMbps = (videoMbps: number): number => (videoMbps + AUDIO_MBPS) * WIRE_OVERHEAD;

/** A stream's video: one hour of stream-ready video at its bitrate (docs/plans.md: a library is tens of such hours). */
export const STREAM_VIDEO_HOURS = 1;

/** Share of the time a stream's page is open somewhere (a judgement): while it is, heartbeats are pushed to it and
 * the task stores a preview frame a minute. */
export const WATCHED_SHARE = 0.25;

/** Control plane work per running stream. The DynamoDB units are measured (`npm run bench:control-plane`, docs/costs.md
 * "Control plane, measured": one stream on the local stack with DynamoDB Local's consumed-capacity figures, nobody
 * watching and its page open), the rest read off the code. */
export const controlPlaneUsage = {
  /** The stream task reports every 30 s (TASK_LEASE.renewSeconds) and on every change: a task API request each. */
  heartbeatsPerHour: 120,
  /** Read and write units per stream-hour, measured, nobody watching and its page open (the reconciler's and upkeep's
   * reads included). */
  dynamoReadUnitsPerHour: { unwatched: 144, watched: 264 },
  dynamoWriteUnitsPerHour: { unwatched: 120, watched: 180 },
  /** Each heartbeat is pushed to the owner's open pages. */
  realtimeMessagesPerHour: 120 * WATCHED_SHARE,
  realtimeConnectionMinutesPerHour: 60 * WATCHED_SHARE,
  /** A preview frame a minute while the page is open: a task API request and an S3 PUT each. */
  previewPutsPerHour: 60 * WATCHED_SHARE,
  /** Lifecycle executions: a start, a few task restarts and hand-overs a month, ~8 transitions each (a judgement). */
  stateTransitionsPerMonth: 40,
  /** The task API's function per heartbeat and preview (512 MB, ~30 ms), the lifecycle's per task round, and this
   * stream's share of the reconciler's and upkeep's runs. */
  lambdaRequestsPerMonth: (120 + 60 * WATCHED_SHARE) * HOURS_PER_MONTH + 60,
  lambdaGbSecondsPerMonth: (120 + 60 * WATCHED_SHARE) * HOURS_PER_MONTH * 0.5 * 0.03 + 200,
  /** Task logs (state changes, warnings) and the task API's request lines. */
  logGbPerMonth: 0.1,
  /** External data plane only: what leaves AWS towards the host per task API answer (a heartbeat's, small). */
  responseBytesPerHeartbeat: 1024,
  /** External data plane only: downloads of the stream-ready file from S3 a month (a start and one restart or host
   * move; a host-side cache would make it one). On Fargate the download stays in the region: free. */
  videoDownloadsPerMonth: 2,
} as const;

/** Costs of the deployment as a whole, shared by every stream it runs. */
export const fleetFixed = {
  /** One custom metric per business metric (the service and stage dimensions only: lambdas/contract/metrics.ts). */
  customMetrics: Object.keys(metricNames).length,
  /** ECS Container Insights' cluster and task-family metrics, which also bill as custom metrics (a judgement: about
   * two dozen for one cluster and one task family). */
  containerInsightsMetrics: 25,
  /** lib/ops-stack.ts (its test checks this number). */
  alarms: 15,
  dashboards: 1,
} as const;

/** How Stripe's fees are counted: every card international (the dearest case short of currency conversion; the
 * product is sold in five languages). */
export const INTERNATIONAL_CARD_SHARE = 1;

/** How many copy loops fit on a host (external data plane). Cores and memory: what ECS places by the stream task's
 * reservations (`externalStreamTask` in lambdas/contract/data-planes.ts: 1.5 % of a core and 150 MiB a loop, each
 * reserved with 20 % headroom, so ECS fills a host's cores and memory to 80 %). The link, which ECS does not know: */
export const hostPacking = {
  /** Share of the link to fill, leaving headroom for restarts and bursts; the host install script's --max-streams
   * holds a host to it (docs/deploy.md, "Stream hosts"). */
  linkUtilisation: 0.8,
  /** Memory left to Debian, Docker and the SSM and ECS agents (stream-task/host/install.sh: SYSTEM_MEMORY_MIB). */
  systemMemoryMiB: 1024,
} as const;

export type HostId = 'cloud-20tb' | 'dedicated-1gbit';

export interface HostOffer {
  id: HostId;
  label: string;
  rentUsdPerMonth: number;
  /** An extra IPv4 address, when the rent does not include one. */
  ipv4UsdPerMonth: number;
  cores: number;
  memoryMiB: number;
  /** The link the host may fill; for a cloud server the included traffic binds long before. */
  linkMbps: number;
  /** Outgoing traffic included each month; Infinity when unmetered. */
  includedGbPerMonth: number;
  /** Beyond the included traffic. */
  overageUsdPerGb: number;
}

const eur = (value: number) => value * prices.usdPerEur.value;
const TIB = 1024 ** 4;

export const hostOffers: Record<HostId, HostOffer> = {
  'cloud-20tb': {
    id: 'cloud-20tb',
    label: 'cloud server with 20 TiB included (Hetzner Cloud CX33, 4 vCPU, 8 GB)',
    rentUsdPerMonth: eur(prices.cloudServerMonthEur.value),
    ipv4UsdPerMonth: eur(prices.cloudServerIpv4MonthEur.value),
    cores: 4,
    memoryMiB: 8192,
    // Not published for shared cloud servers; the 20 TiB (about 67 Mbit/s all month) binds first.
    linkMbps: 1000,
    includedGbPerMonth: (prices.cloudServerIncludedTib.value * TIB) / BYTES_PER_GB,
    overageUsdPerGb: eur(prices.cloudServerTrafficEurPerTb.value) / 1000,
  },
  'dedicated-1gbit': {
    id: 'dedicated-1gbit',
    label: 'dedicated server, 1 Gbit/s unmetered (Hetzner AX-class, 8 cores, 64 GB; price assumed)',
    rentUsdPerMonth: eur(prices.dedicatedServerMonthEur.value),
    ipv4UsdPerMonth: 0,
    cores: 8,
    memoryMiB: 65536,
    linkMbps: prices.dedicatedServerLinkMbit.value,
    includedGbPerMonth: Infinity,
    overageUsdPerGb: 0,
  },
};

/** The fleet `npm run costs` and the Stripe prices tool's cost check assume when none is given: a young
 * deployment's size, where the fixed costs still weigh (docs/costs.md shows 1, 25 and 200). */
export const DEFAULT_FLEET_STREAMS = 25;
