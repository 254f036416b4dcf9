// Every price figure the cost model uses, in one table, each with the provider's page and where and when it was
// read. These are list prices typed in by hand from public pages (us-east-1 for AWS; no discounts, no Savings Plans,
// no free tiers except AWS's 100 GB of data transfer out): nothing here asks a pricing API, so they are only as
// current as the date beside them. docs/costs.md prints this table; a test keeps the two the same.

/** When the figures below were typed in (from stored copies of the pages named in `readFrom`). */
export const PRICES_READ_ON = '2026-11-24';

export interface PriceFigure {
  value: number;
  /** What `value` counts: 'USD per vCPU-hour', 'share of the charge', ... */
  unit: string;
  what: string;
  /** The provider's own page for the figure. */
  source: string;
  /** Where the figure was read here (the source itself, or a dated copy or quote of it), and that page's date. */
  readFrom: string;
  asOf: string;
  /** An assumption rather than a quoted price: said so wherever it is printed. */
  assumed?: true;
}

const fargatePage = 'https://aws.amazon.com/fargate/pricing/';
const fargateQuote = { readFrom: 'https://www.vantage.sh/blog/fargate-pricing (us-east-1 rate table)', asOf: 'undated, read 2026-11-24' };
const egressPage = 'https://aws.amazon.com/ec2/pricing/on-demand/ (Data Transfer, to the internet)';
const egressQuote = {
  readFrom: 'https://www.wring.co/blog/aws-api-gateway-pricing-guide (data transfer table); the same tiers as issue 18',
  asOf: '2026-03-10',
};
const cloudWatchPage = 'https://aws.amazon.com/cloudwatch/pricing/';
const stripePage = 'https://stripe.com/pricing';
const hetznerApi = {
  source: 'https://www.hetzner.com/cloud/ (Hetzner Cloud pricing API, location fsn1)',
  readFrom: 'https://github.com/devantler-tech/platform/commit/cb791c6f (values taken from GET /v1/pricing)',
  asOf: '2026-05-27',
};

export const prices = {
  fargateArmVcpuHour: { value: 0.03238, unit: 'USD per vCPU-hour', what: 'Fargate, Linux/ARM, on demand', source: fargatePage, ...fargateQuote },
  fargateArmGbHour: { value: 0.00356, unit: 'USD per GB-hour', what: 'Fargate memory, Linux/ARM, on demand', source: fargatePage, ...fargateQuote },
  fargateStorageGbHour: {
    value: 0.000111,
    unit: 'USD per GB-hour',
    what: 'Fargate ephemeral storage beyond the free 20 GB',
    source: fargatePage,
    ...fargateQuote,
  },
  fargateFreeStorageGb: { value: 20, unit: 'GB per task', what: 'Fargate ephemeral storage included with every task', source: fargatePage, ...fargateQuote },
  publicIpv4Hour: {
    value: 0.005,
    unit: 'USD per address-hour',
    what: 'public IPv4 address (a Fargate task in a public subnet has one)',
    source: 'https://aws.amazon.com/vpc/pricing/ (Public IPv4 Address)',
    readFrom: 'https://www.doit.com/aws-public-ipv4-price-increase-the-complete-guide/',
    asOf: 'in force since 2024-02-01',
  },
  egressFreeGb: {
    value: 100,
    unit: 'GB per month',
    what: 'data transfer out to the internet free each month, across all services and regions of the account',
    source: 'https://aws.amazon.com/free/ (always free: 100 GB of data transfer out)',
    readFrom: "not re-read here: AWS's always-free allowance since 2021-12-01",
    asOf: '2021-12-01',
  },
  egressFirst10TbGb: { value: 0.09, unit: 'USD per GB', what: 'data transfer out to the internet, first 10 TB a month', source: egressPage, ...egressQuote },
  egressNext40TbGb: { value: 0.085, unit: 'USD per GB', what: 'data transfer out to the internet, next 40 TB a month', source: egressPage, ...egressQuote },
  egressNext100TbGb: { value: 0.07, unit: 'USD per GB', what: 'data transfer out to the internet, next 100 TB a month', source: egressPage, ...egressQuote },
  egressOver150TbGb: { value: 0.05, unit: 'USD per GB', what: 'data transfer out to the internet, over 150 TB a month', source: egressPage, ...egressQuote },
  dynamoWriteMillion: {
    value: 0.625,
    unit: 'USD per million write request units',
    what: 'DynamoDB on-demand writes (Standard table class)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    readFrom: 'https://airbyte.com/data-engineering-resources/dynamodb-pricing (after the November 2024 halving)',
    asOf: '2025-07-21',
  },
  dynamoReadMillion: {
    value: 0.125,
    unit: 'USD per million read request units',
    what: 'DynamoDB on-demand reads (Standard table class)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    readFrom: 'https://airbyte.com/data-engineering-resources/dynamodb-pricing (after the November 2024 halving)',
    asOf: '2025-07-21',
  },
  stepFunctionsThousandTransitions: {
    value: 0.025,
    unit: 'USD per 1,000 state transitions',
    what: 'Step Functions Standard workflows (the 4,000 free a month left out)',
    source: 'https://aws.amazon.com/step-functions/pricing/',
    readFrom: 'https://aws.amazon.com/step-functions/pricing/ (stored copy)',
    asOf: 'undated, read 2026-11-24',
  },
  lambdaArmGbSecond: {
    value: 0.0000133334,
    unit: 'USD per GB-second',
    what: 'Lambda duration, arm64 (the free tier left out)',
    source: 'https://aws.amazon.com/lambda/pricing/',
    readFrom: 'https://cloudchipr.com/blog/aws-lambda-pricing (us-east-1, first 7.5 billion GB-s)',
    asOf: '2024',
  },
  lambdaRequestMillion: {
    value: 0.2,
    unit: 'USD per million requests',
    what: 'Lambda requests',
    source: 'https://aws.amazon.com/lambda/pricing/',
    readFrom: 'https://git.mcrn.ar/mariano/lambda_local_runner/src/branch/main/docs/lambdas-md/lambda-13-cost.md',
    asOf: '2026-05-11',
  },
  httpApiRequestMillion: {
    value: 1.0,
    unit: 'USD per million requests',
    what: 'API Gateway HTTP API requests (first 300 million a month): the task API',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    readFrom: 'https://docs.aws.amazon.com/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html (Table 4, us-east-1)',
    asOf: 'undated, read 2026-11-24',
  },
  cloudFrontHttpsRequestTenThousand: {
    value: 0.01,
    unit: 'USD per 10,000 HTTPS requests',
    what: 'CloudFront HTTPS requests, United States: the task API passes through CloudFront',
    source: 'https://aws.amazon.com/cloudfront/pricing/',
    readFrom: 'https://aws.amazon.com/cloudfront/pricing (stored copy; its request table was not in the part read: the long-standing US rate)',
    asOf: 'undated, read 2026-11-24',
    assumed: true,
  },
  cloudWatchLogsIngestGb: {
    value: 0.5,
    unit: 'USD per GB',
    what: 'CloudWatch Logs ingestion (standard class)',
    source: cloudWatchPage,
    readFrom: 'https://www.factualminds.com/blog/amazon-cloudwatch-pricing-metrics-logs-alarms-dashboards/',
    asOf: '2026-06-13',
  },
  cloudWatchMetricMonth: {
    value: 0.3,
    unit: 'USD per metric-month',
    what: 'CloudWatch custom metric (first 10,000; embedded-metric-format metrics count as custom metrics)',
    source: cloudWatchPage,
    readFrom: "not re-read here: AWS's published first-tier rate",
    asOf: 'read 2026-11-24',
  },
  cloudWatchDashboardMonth: {
    value: 3,
    unit: 'USD per dashboard-month',
    what: 'CloudWatch dashboard',
    source: cloudWatchPage,
    readFrom: 'https://www.factualminds.com/blog/amazon-cloudwatch-pricing-metrics-logs-alarms-dashboards/',
    asOf: '2026-06-13',
  },
  cloudWatchAlarmMonth: {
    value: 0.1,
    unit: 'USD per alarm-month',
    what: 'CloudWatch standard-resolution alarm',
    source: cloudWatchPage,
    readFrom: "not re-read here: AWS's published standard-resolution rate",
    asOf: 'read 2026-11-24',
  },
  s3StandardGbMonth: {
    value: 0.023,
    unit: 'USD per GB-month',
    what: 'S3 Standard storage, first 50 TB',
    source: 'https://aws.amazon.com/s3/pricing/',
    readFrom: 'https://deepeshsoni.com/archives/256 (us-east-1)',
    asOf: 'undated, read 2026-11-24',
  },
  s3PutThousand: {
    value: 0.005,
    unit: 'USD per 1,000 requests',
    what: 'S3 Standard PUT requests (the preview frame a minute)',
    source: 'https://aws.amazon.com/s3/pricing/',
    readFrom: "not re-read here: AWS's published S3 Standard PUT rate",
    asOf: 'read 2026-11-24',
  },
  webSocketMessageMillion: {
    value: 1,
    unit: 'USD per million messages',
    what: 'API Gateway WebSocket messages (first billion)',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    readFrom: 'https://www.wring.co/blog/aws-api-gateway-pricing-guide',
    asOf: '2026-03-10',
  },
  webSocketConnectionMinuteMillion: {
    value: 0.25,
    unit: 'USD per million connection minutes',
    what: 'API Gateway WebSocket connection minutes',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    readFrom: 'https://www.wring.co/blog/aws-api-gateway-pricing-guide',
    asOf: '2026-03-10',
  },
  ecsAnywhereInstanceHour: {
    value: 0.01025,
    unit: 'USD per instance-hour',
    what: 'ECS Anywhere: each registered external instance (host), whatever it runs',
    source: 'https://aws.amazon.com/ecs/pricing/',
    readFrom:
      'https://raw.githubusercontent.com/api-evangelist/amazon-ecs/refs/heads/main/plans/amazon-ecs-plans-pricing.yml (transcribed from the ECS pricing page)',
    asOf: '2026-09-20',
  },
  stripeCardShare: {
    value: 0.029,
    unit: 'share of the charge',
    what: 'Stripe card payment, domestic US card',
    source: stripePage,
    readFrom: 'https://www.aibilling.dev/providers/stripe-billing ("2.9% + $0.30 per US card transaction")',
    asOf: '2026-04',
  },
  stripeCardFixedUsd: {
    value: 0.3,
    unit: 'USD per charge',
    what: 'Stripe card payment, fixed part',
    source: stripePage,
    readFrom: 'https://www.aibilling.dev/providers/stripe-billing',
    asOf: '2026-04',
  },
  stripeInternationalShare: {
    value: 0.015,
    unit: 'share of the charge',
    what: 'Stripe surcharge for international cards',
    source: stripePage,
    readFrom: "not re-read here: Stripe's published US surcharge",
    asOf: 'read 2026-11-24',
  },
  stripeBillingShare: {
    value: 0.007,
    unit: 'share of the charge',
    what: 'Stripe Billing (subscriptions), pay as you go',
    source: 'https://stripe.com/billing/pricing',
    readFrom: 'https://support.stripe.com/questions/july-2024-changes-to-stripe-billing',
    asOf: '2024-07-10',
  },
  cloudServerMonthEur: {
    value: 6.49,
    unit: 'EUR per month',
    what: 'cloud server for the external data plane: Hetzner Cloud CX33 (4 shared vCPU, 8 GB), net of VAT',
    ...hetznerApi,
  },
  cloudServerIncludedTib: {
    value: 20,
    unit: 'TiB of outgoing traffic per server and month',
    what: 'traffic included with each Hetzner Cloud server in its EU locations',
    ...hetznerApi,
  },
  cloudServerTrafficEurPerTb: {
    value: 1,
    unit: 'EUR per TB beyond the included traffic',
    what: 'Hetzner Cloud traffic overage, EU locations',
    ...hetznerApi,
  },
  cloudServerIpv4MonthEur: {
    value: 0.5,
    unit: 'EUR per month',
    what: 'Hetzner Cloud primary IPv4 address (server prices are without one)',
    source: 'https://www.hetzner.com/cloud/',
    readFrom: 'https://gist.github.com/justinharbour/d8075f4ddd406d236ee4220de932c2d7 ("0.5 EUR for Optional Public IP")',
    asOf: '2024-08-24',
  },
  dedicatedServerMonthEur: {
    value: 60,
    unit: 'EUR per month',
    what: 'dedicated server for the external data plane, 1 Gbit/s unmetered (Hetzner AX-class, 8 cores, 64 GB), setup fee spread over a year',
    source: 'https://www.hetzner.com/dedicated-rootserver/',
    readFrom:
      'assumed: no stored copy of the price list was reachable from here; set above the 39-46 EUR of the 2024 entry models (recalled, not re-read) to allow for the 2026 increases and the setup fee. Replace it with the quoted price before relying on it',
    asOf: 'assumed 2026-11-24',
    assumed: true,
  },
  dedicatedServerLinkMbit: {
    value: 1000,
    unit: 'Mbit/s, traffic unmetered',
    what: "the dedicated server's uplink; Hetzner charges no traffic on 1 Gbit/s dedicated servers (fair use applies)",
    source: 'https://www.hetzner.com/dedicated-rootserver/',
    readFrom: 'https://hostingrevelations.com/hetzner-bandwidth-limit/',
    asOf: 'undated, read 2026-11-24',
  },
  usdPerEur: {
    value: 1.1133,
    unit: 'USD per EUR',
    what: 'ECB euro reference rate, to price the hosts in USD',
    source: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/',
    readFrom: 'https://raw.githubusercontent.com/moveinfra/eu-cloud-prices/main/data/eu-cloud-prices.json (ECB reference rate of that day)',
    asOf: '2026-10-28',
  },
} as const satisfies Record<string, PriceFigure>;

export type PriceId = keyof typeof prices;
