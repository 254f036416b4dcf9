import { defaultQuality, outputProfileIds } from './media-spec';
import { billingPeriods, isBillingPeriod, isPlanId, periodPriceCents, periodSavingCents, plans, stripeLookupKey } from './plans';

describe('plans', () => {
  test('longer periods cost less per month, with the saving shown', () => {
    const basic = plans.basic;
    expect(periodPriceCents(basic, 'month')).toBe(899);
    expect(periodPriceCents(basic, '3months')).toBe(2427); // 3 x 8.99 less 10 %
    expect(periodPriceCents(basic, 'year')).toBe(8091); // 12 x 8.99 less 25 %
    expect(periodSavingCents(basic, 'year')).toBe(12 * 899 - 8091);
    const perMonth = billingPeriods.map((p) => periodPriceCents(basic, p)! / { month: 1, '3months': 3, '6months': 6, year: 12 }[p]);
    expect([...perMonth].sort((a, b) => b - a)).toEqual(perMonth);
  });

  test('the trial and Custom have no self-serve price', () => {
    expect(periodPriceCents(plans.trial, 'month')).toBeUndefined();
    expect(periodPriceCents(plans.custom, 'year')).toBeUndefined();
    expect(periodSavingCents(plans.custom, 'year')).toBe(0);
  });

  test('multistreaming is for Pro and Custom only; scheduled start and multiplatform are on every plan', () => {
    expect(
      Object.values(plans)
        .filter((p) => p.features.multistreaming === 'included')
        .map((p) => p.id),
    ).toEqual(['pro', 'custom']);
    for (const plan of Object.values(plans)) {
      expect(plan.features.scheduledStart).toBe('included');
      expect(plan.features.multiplatform).toBe('included');
      expect(plan.features.noWatermark).toBe('included');
      expect(plan.limits.destinationsPerStream > 1).toBe(plan.features.multistreaming === 'included');
    }
  });

  test('output profiles: Full HD at 30 fps on every plan; 60 fps, 1440p and 4K on Pro and Custom only', () => {
    expect(plans.trial.limits.outputProfiles).toEqual(['720p30', '1080p30']);
    expect(plans.basic.limits.outputProfiles).toEqual(['720p30', '1080p30']);
    expect(plans.pro.limits.outputProfiles).toEqual(outputProfileIds);
    expect(plans.custom.limits.outputProfiles).toEqual(outputProfileIds);
    for (const plan of Object.values(plans)) expect(plan.limits.outputProfiles).toContain(defaultQuality.profile);
  });

  test('limits grow with the plan', () => {
    const order = [plans.trial, plans.basic, plans.pro, plans.custom];
    for (const key of ['storageBytes', 'uploadsPerCycle', 'concurrentStreams'] as const) {
      const values = order.map((p) => p.limits[key]);
      expect([...values].sort((a, b) => a - b)).toEqual(values);
    }
  });

  test('guards and Stripe lookup keys', () => {
    expect(isPlanId('pro')).toBe(true);
    expect(isPlanId('gold')).toBe(false);
    expect(isBillingPeriod('6months')).toBe(true);
    expect(isBillingPeriod('week')).toBe(false);
    expect(stripeLookupKey('pro', 'year')).toBe('loopcast_pro_year');
  });
});
