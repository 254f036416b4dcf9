import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricNames } from '../../contract/metrics';
import { DEFAULT_BITRATE_MBPS, fleetFixed, hostOffers, wireMbps, type HostOffer } from './assumptions';
import {
  breakEvenMonthlyPriceUsd,
  egressByTier,
  egressUsd,
  gbPerDestinationMonth,
  hostFleetFor,
  packHosts,
  streamMonthCost,
  stripeFeesUsd,
  videoFileGb,
} from './model';
import { priceTableText } from './price-table';
import { prices, type PriceFigure } from './prices';

const line = (cost: ReturnType<typeof streamMonthCost>, key: string) => {
  const found = cost.lines.find((each) => each.key === key);
  if (!found) throw new Error(`no line ${key}`);
  return found.usd;
};

describe('volumes', () => {
  test("the product's 6 Mbit/s video plus its 128 kbit/s audio is 6.50 Mbit/s on the wire, 2,134 GB a month per destination", () => {
    expect(DEFAULT_BITRATE_MBPS).toBe(6);
    expect(wireMbps(6)).toBeCloseTo(6.4957, 4);
    expect(gbPerDestinationMonth(6)).toBeCloseTo(2133.83, 2);
    // Issue 18's 1,971 GB is the 6 Mbit/s video alone, without audio and overhead.
    expect(((6e6 / 8) * 730 * 3600) / 1e9).toBeCloseTo(1971, 0);
    expect(videoFileGb(6)).toBeCloseTo(2.7576, 4);
  });
});

describe("AWS's egress tiers", () => {
  test('each tier takes its share of the monthly total', () => {
    expect(egressByTier(100).map(({ gb }) => gb)).toEqual([100, 0, 0, 0, 0]);
    expect(egressByTier(10_100).map(({ gb }) => gb)).toEqual([100, 9_900, 100, 0, 0]);
    expect(egressByTier(200_000).map(({ gb }) => gb)).toEqual([100, 9_900, 40_000, 100_000, 50_000]);
    expect(egressUsd(10_100)).toBeCloseTo(9_900 * 0.09 + 100 * 0.085, 6);
    expect(egressUsd(200_000)).toBeCloseTo(9_900 * 0.09 + 40_000 * 0.085 + 100_000 * 0.07 + 50_000 * 0.05, 6);
  });

  test('a fleet shares its tiers: each stream pays the average', () => {
    const cost = streamMonthCost({ plane: 'fargate', videoMbps: 6, streams: 200 });
    const egress = cost.lines.filter((each) => each.group === 'egress').reduce((sum, each) => sum + each.usd, 0);
    expect(egress).toBeCloseTo(egressUsd(200 * cost.gbPerDestination) / 200, 9);
    expect(line(streamMonthCost({ plane: 'fargate', videoMbps: 6, streams: 1 }), 'egress-10tb')).toBeCloseTo((gbPerDestinationMonth(6) - 100) * 0.09, 9);
  });
});

describe('Fargate', () => {
  const cost = streamMonthCost({ plane: 'fargate', videoMbps: 6, streams: 25 });

  test('the task as deployed: 0.25 vCPU and 0.5 GB ARM, the free 20 GiB disk for an hour of video, a public IPv4', () => {
    expect(line(cost, 'fargate-compute')).toBeCloseTo((0.25 * 0.03238 + 0.5 * 0.00356) * 730, 9);
    expect(line(cost, 'fargate-compute')).toBeCloseTo(7.21, 2);
    expect(line(cost, 'fargate-disk')).toBe(0);
    expect(line(cost, 'task-ipv4')).toBeCloseTo(3.65, 9);
  });

  test('the disk follows the video: the disk line is what PrepareTask would ask for beyond the free 20 GiB', () => {
    // At 40 Mbit/s an hour of video is 18.06 GB (16.8 GiB): 2 GiB + 2 × 16.8 GiB × 1.1 = 39 GiB, 19 of them paid.
    expect(line(streamMonthCost({ plane: 'fargate', videoMbps: 40, streams: 25 }), 'fargate-disk')).toBeCloseTo(19 * 0.000111 * 730, 9);
  });

  test('egress is nearly all of it, at every fleet size', () => {
    for (const streams of [1, 25, 200]) {
      const each = streamMonthCost({ plane: 'fargate', videoMbps: 6, streams });
      const egress = each.lines.filter((l) => l.group === 'egress').reduce((sum, l) => sum + l.usd, 0);
      expect(egress / each.totalUsd).toBeGreaterThan(0.45);
      expect(each.totalUsd).toBeGreaterThan(100);
    }
  });

  test('the lines add up to the total, none negative', () => {
    expect(cost.lines.reduce((sum, each) => sum + each.usd, 0)).toBeCloseTo(cost.totalUsd, 9);
    for (const each of cost.lines) expect(Number.isFinite(each.usd) && each.usd >= 0).toBe(true);
    expect(new Set(cost.lines.map((each) => each.key)).size).toBe(cost.lines.length);
  });
});

describe('the control plane', () => {
  test('the measured units, a page open a quarter of the time: ~8 cents of DynamoDB, 20 of task API requests a stream-month', () => {
    const cost = streamMonthCost({ plane: 'fargate', videoMbps: 6, streams: 25 });
    expect(line(cost, 'dynamodb-writes')).toBeCloseTo((((120 * 0.75 + 180 * 0.25) * 730) / 1e6) * 0.625, 9);
    expect(line(cost, 'dynamodb-reads')).toBeCloseTo((((144 * 0.75 + 264 * 0.25) * 730) / 1e6) * 0.125, 9);
    expect(line(cost, 'task-api')).toBeCloseTo((((120 + 15) * 730) / 1e6) * (1 + 0.01 * 100), 9);
    expect(line(cost, 'preview')).toBeCloseTo(((15 * 730) / 1000) * 0.005, 9);
    const controlPlane = cost.lines.filter((each) => each.group === 'control plane' && each.key !== 'fleet-fixed').reduce((sum, each) => sum + each.usd, 0);
    expect(controlPlane).toBeLessThan(0.5);
  });

  test("the deployment's metrics, alarms and dashboard are shared by its streams", () => {
    expect(fleetFixed.customMetrics).toBe(Object.keys(metricNames).length);
    const fixed = (fleetFixed.customMetrics + fleetFixed.containerInsightsMetrics) * 0.3 + fleetFixed.alarms * 0.1 + 3;
    expect(line(streamMonthCost({ plane: 'external', videoMbps: 6, streams: 1 }), 'fleet-fixed')).toBeCloseTo(fixed, 9);
    expect(line(streamMonthCost({ plane: 'external', videoMbps: 6, streams: 200 }), 'fleet-fixed')).toBeCloseTo(fixed / 200, 9);
  });
});

describe('external hosts', () => {
  const cloud = hostOffers['cloud-20tb'];
  const dedicated = hostOffers['dedicated-1gbit'];

  test('a cloud server carries what fits in its 20 TiB; a dedicated server what fills 80 % of its gigabit', () => {
    expect(packHosts(cloud, 25, 6)).toMatchObject({ perHost: 10, hosts: 3, limitedBy: 'included traffic', overageGb: 0 });
    expect(packHosts(cloud, 20, 3)).toMatchObject({ perHost: 20, hosts: 1, limitedBy: 'included traffic', overageGb: 0 });
    expect(packHosts(dedicated, 200, 6)).toMatchObject({ perHost: 123, hosts: 2, limitedBy: 'link', overageGb: 0 });
    expect(packHosts(dedicated, 200, 3)).toMatchObject({ perHost: 241, hosts: 1, limitedBy: 'link' });
  });

  test('a host costs its rent, its IPv4 and the ECS Anywhere fee of 0.01025 USD an hour', () => {
    const fleet = packHosts(cloud, 10, 6);
    expect(fleet.usdPerMonth).toBeCloseTo((6.49 + 0.5) * 1.1133 + 0.01025 * 730, 9);
  });

  test('when the overage costs less than another host, hosts are filled beyond what is included', () => {
    // 25 loops at 3 Mbit/s: a second server (15.26 USD) costs more than 5 loops' overage at 1 EUR/TB.
    const fleet = packHosts(cloud, 25, 3);
    // (8 GiB less 1 GiB for the system) / 192 MiB reserved per task (lambdas/contract/data-planes.ts): what ECS
    // places on it (stream-task/host/install.sh reserves the rest).
    expect(fleet).toMatchObject({ hosts: 1, perHost: 37, limitedBy: 'memory' });
    expect(fleet.overageGb).toBeCloseTo(25 * gbPerDestinationMonth(3) - cloud.includedGbPerMonth, 6);
    expect(fleet.usdPerMonth).toBeLessThan(2 * packHosts(cloud, 1, 3).usdPerMonth);
    // Dear overage: another host instead.
    const dearOverage: HostOffer = { ...cloud, overageUsdPerGb: 0.09 };
    expect(packHosts(dearOverage, 25, 3)).toMatchObject({ hosts: 2, perHost: 20, overageGb: 0 });
  });

  test('auto takes the cheaper offer: cloud servers for a few streams, dedicated ones for many', () => {
    expect(hostFleetFor('auto', 1, 6).offer.id).toBe('cloud-20tb');
    expect(hostFleetFor('auto', 25, 6).offer.id).toBe('cloud-20tb');
    expect(hostFleetFor('auto', 200, 6).offer.id).toBe('dedicated-1gbit');
    expect(hostFleetFor('dedicated-1gbit', 1, 6).offer.id).toBe('dedicated-1gbit');
  });

  test('200 streams at 6 Mbit/s cost about 1.8 USD each a month, all in; on Fargate about 140', () => {
    expect(streamMonthCost({ plane: 'external', videoMbps: 6, streams: 200 }).totalUsd).toBeCloseTo(1.8, 1);
    expect(streamMonthCost({ plane: 'fargate', videoMbps: 6, streams: 200 }).totalUsd).toBeCloseTo(137.1, 0); // 140.7 before the disk was sized to the stream
  });

  test('the host lines and the AWS egress of downloads and answers are priced per stream', () => {
    const cost = streamMonthCost({ plane: 'external', videoMbps: 6, streams: 200 });
    const hosts = cost.hostFleet!;
    expect(line(cost, 'host-rent') + line(cost, 'ecs-anywhere') + line(cost, 'host-ipv4') + line(cost, 'host-traffic')).toBeCloseTo(hosts.usdPerMonth / 200, 9);
    const downloadsAndAnswers = 2 * videoFileGb(6) + (120 * 730 * 1024) / 1e9;
    expect(line(cost, 'egress-10tb')).toBeCloseTo(((200 * downloadsAndAnswers - 100) * 0.09) / 200, 9);
  });
});

test('a scenario outside the model is refused', () => {
  expect(() => streamMonthCost({ plane: 'fargate', videoMbps: 6, streams: 0 })).toThrow(RangeError);
  expect(() => streamMonthCost({ plane: 'fargate', videoMbps: 6, streams: 2.5 })).toThrow(RangeError);
  expect(() => streamMonthCost({ plane: 'external', videoMbps: 0, streams: 1 })).toThrow(RangeError);
});

test("Stripe's fees: card 2.9 %, international 1.5 %, Billing 0.7 %, 0.30 a charge; break-even inverts them", () => {
  expect(stripeFeesUsd(8.99)).toBeCloseTo(8.99 * 0.051 + 0.3, 9);
  const price = breakEvenMonthlyPriceUsd(20);
  expect(price - stripeFeesUsd(price)).toBeCloseTo(20, 9);
});

describe('the price table', () => {
  test('every figure has a value, a unit, its source page, where it was read and a date', () => {
    for (const [id, figure] of Object.entries(prices as Record<string, PriceFigure>)) {
      expect([id, Number.isFinite(figure.value) && figure.value > 0]).toEqual([id, true]);
      expect([id, figure.source]).toEqual([id, expect.stringMatching(/^https:\/\//)]);
      expect([id, figure.unit.length > 0, figure.what.length > 0, figure.readFrom.length > 0]).toEqual([id, true, true, true]);
      expect([id, figure.asOf]).toEqual([id, expect.stringMatching(/\d{4}/)]);
    }
    // The figures no page was found for (or whose page was not read to the figure) say so.
    expect(
      Object.entries(prices)
        .filter(([, figure]) => (figure as PriceFigure).assumed)
        .map(([id]) => id),
    ).toEqual(['cloudFrontHttpsRequestTenThousand', 'dedicatedServerMonthEur']);
  });

  test('docs/costs.md carries the table as the model has it', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'costs.md'), 'utf8');
    expect(doc).toContain(priceTableText());
  });
});
