import { periodTerms, plans } from '@loopcast/core/plans';
import { formatUsd, planPrice, storageSize } from './plan-prices';

describe('pricing figures from the plan definition', () => {
  test('USD amounts are formatted identically everywhere', () => {
    expect(formatUsd(899)).toBe('$8.99');
    expect(formatUsd(2500)).toBe('$25');
    expect(formatUsd(224_910)).toBe('$2,249.10');
  });

  test('longer periods cost less per month and show the saving', () => {
    const monthly = planPrice(plans.basic, 'month');
    const yearly = planPrice(plans.basic, 'year');
    if (monthly.kind !== 'paid' || yearly.kind !== 'paid') throw new Error('Basic is a paid plan');
    expect(monthly.perMonthCents).toBe(plans.basic.monthlyPriceCents);
    expect(monthly.savingCents).toBe(0);
    expect(yearly.totalCents).toBe(Math.round((plans.basic.monthlyPriceCents! * 12 * (100 - periodTerms.year.discountPercent)) / 100));
    expect(yearly.perMonthCents).toBeLessThan(monthly.perMonthCents);
    expect(yearly.savingCents).toBe(plans.basic.monthlyPriceCents! * 12 - yearly.totalCents);
    expect(yearly.discountPercent).toBe(periodTerms.year.discountPercent);
  });

  test('the trial is free and Custom is priced by agreement', () => {
    expect(planPrice(plans.trial, 'month')).toEqual({ kind: 'free' });
    expect(planPrice(plans.custom, 'year')).toEqual({ kind: 'by agreement' });
  });

  test('storage reads in GB, or TB from 1 TB on', () => {
    expect(storageSize(plans.basic.limits.storageBytes)).toEqual({ unit: 'gigabytes', count: 50 });
    expect(storageSize(2048 * 1024 ** 3)).toEqual({ unit: 'terabytes', count: 2 });
  });
});
