import { plans } from '../plans';
import { DEFAULT_BITRATE_MBPS } from './assumptions';
import { planCostUsd, planMargins, priceMargin, useProfile } from './margins';
import { streamMonthCost, stripeFeesUsd } from './model';

const external200 = { plane: 'external', videoMbps: DEFAULT_BITRATE_MBPS, streams: 200 } as const;

describe('plan margins', () => {
  test("a price's margin is its monthly share less Stripe's fee on the one charge less the plan's cost", () => {
    const margin = priceMargin(external200, plans.basic, 'year');
    expect(margin.revenueUsd).toBeCloseTo(80.91 / 12, 9);
    expect(margin.stripeUsd).toBeCloseTo(stripeFeesUsd(80.91) / 12, 9);
    const cost = streamMonthCost(external200);
    expect(margin.costUsd.streams).toBeCloseTo(planCostUsd(cost, useProfile(plans.basic, 'streams', 6)), 9);
    expect(margin.marginUsd.streams).toBeCloseTo(margin.revenueUsd - margin.stripeUsd - margin.costUsd.streams, 9);
  });

  test("Pro's streams use is five streams to one destination; its full use five destinations each and 250 GB stored", () => {
    expect(useProfile(plans.pro, 'streams', 6)).toMatchObject({ streams: 5, destinationsPerStream: 1 });
    expect(useProfile(plans.pro, 'full', 6)).toMatchObject({ streams: 5, destinationsPerStream: 5 });
    expect(useProfile(plans.pro, 'full', 6).storageGb).toBeCloseTo((250 * 1024 ** 3) / 1e9, 6);
    const margin = priceMargin(external200, plans.pro, 'month');
    expect(margin.costUsd.full).toBeGreaterThan(margin.costUsd.streams * 2);
  });

  test('a plan is priced in a fleet at least as large as its own destinations', () => {
    const alone = priceMargin({ ...external200, streams: 1 }, plans.pro, 'month');
    const fiveOfThem = priceMargin({ ...external200, streams: 5 }, plans.pro, 'month');
    expect(alone.costUsd.streams).toBeCloseTo(fiveOfThem.costUsd.streams, 9);
  });

  test('every paid price earns money on the external data plane at the default bitrate in a fleet of 200', () => {
    const { priced } = planMargins(external200);
    expect(priced).toHaveLength(8);
    for (const margin of priced) expect([margin.plan, margin.period, margin.marginUsd.streams > 0]).toEqual([margin.plan, margin.period, true]);
  });

  test('and none on Fargate, at any fleet size', () => {
    for (const streams of [1, 25, 200]) {
      for (const margin of planMargins({ plane: 'fargate', videoMbps: DEFAULT_BITRATE_MBPS, streams }).priced)
        expect(margin.marginUsd.streams).toBeLessThan(-50);
    }
  });

  test('the trial costs its days of one stream; Custom has a break-even price for full use', () => {
    const { unpriced } = planMargins(external200);
    const trial = unpriced.find((plan) => plan.plan === 'trial')!;
    const basicStreams = priceMargin(external200, plans.basic, 'month').costUsd.streams;
    // One stream to one destination, like Basic's, for three days.
    expect(trial.trialCostUsd).toBeCloseTo((basicStreams * 72) / 730, 9);
    const custom = unpriced.find((plan) => plan.plan === 'custom')!;
    expect(custom.breakEvenUsd! - stripeFeesUsd(custom.breakEvenUsd!)).toBeCloseTo(custom.fullUseCostUsd!, 9);
  });
});
