// `npm run costs -- [--plane fargate|external]... [--bitrate <Mbit/s>]... [--streams <n>] [--host <id>] [--prices]`:
// what a stream-month costs by line on each data plane and bitrate, and each plan's margin (lambdas/core/costs/).
// Offline: list prices typed in from public pages, no AWS or Stripe call. Exit codes: 0 printed, 2 usage.
import { parseArgs } from 'node:util';
import { dataPlanes, isDataPlane, type DataPlane } from '../lambdas/contract/data-planes';
import { DEFAULT_FLEET_STREAMS, REPORT_BITRATES_MBPS, hostOffers, type HostId } from '../lambdas/core/costs/assumptions';
import { priceTableText } from '../lambdas/core/costs/price-table';
import { costReport } from '../lambdas/core/costs/report';

const hostChoices = ['auto', ...Object.keys(hostOffers)] as const;

const usage = `Usage: npm run costs -- [--plane <plane>]... [--bitrate <Mbit/s>]... [--streams <n>] [--host <host>] [--prices]

Prints what one stream running 24/7 costs a month, by line, and each plan's margin.
  --plane     ${dataPlanes.join(' or ')} (repeatable; default: both)
  --bitrate   the stream-ready video's bitrate in Mbit/s, audio comes on top (repeatable; default: ${REPORT_BITRATES_MBPS.join(', ')})
  --streams   streams the deployment runs at once (default: ${DEFAULT_FLEET_STREAMS})
  --host      the external data plane's host: ${hostChoices.join(', ')} (default: auto, the cheaper for the fleet)
  --prices    print the price table with every figure's source instead
`;

class UsageError extends Error {}

function parse(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        plane: { type: 'string', multiple: true },
        bitrate: { type: 'string', multiple: true },
        streams: { type: 'string' },
        host: { type: 'string', default: 'auto' },
        prices: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const planes = (values.plane ?? [...dataPlanes]).map((plane): DataPlane => {
    if (!isDataPlane(plane)) throw new UsageError(`--plane "${plane}" is not one of ${dataPlanes.join(', ')}`);
    return plane;
  });
  const bitratesMbps = (values.bitrate ?? REPORT_BITRATES_MBPS.map(String)).map((text) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0 || value > 100) throw new UsageError(`--bitrate "${text}" is not a bitrate in Mbit/s (above 0, at most 100)`);
    return value;
  });
  const streams = values.streams === undefined ? DEFAULT_FLEET_STREAMS : Number(values.streams);
  if (!Number.isInteger(streams) || streams < 1 || streams > 1_000_000)
    throw new UsageError(`--streams "${values.streams}" is not a whole number from 1 to 1,000,000`);
  if (!(hostChoices as readonly string[]).includes(values.host)) throw new UsageError(`--host "${values.host}" is not one of ${hostChoices.join(', ')}`);
  return { help: values.help, showPrices: values.prices, planes: [...new Set(planes)], bitratesMbps, streams, host: values.host as HostId | 'auto' };
}

try {
  const options = parse(process.argv.slice(2));
  if (options.help) process.stdout.write(usage);
  else process.stdout.write(options.showPrices ? priceTableText() : costReport(options));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`costs: ${error.message}\n\n${usage}`);
  process.exit(2);
}
