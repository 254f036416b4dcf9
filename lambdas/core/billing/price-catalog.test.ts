import { plans, type Plan, type PlanId } from '../plans';
import { changesNeeded, periodRecurrence, planPriceActions, planText, priceCatalog, priceNickname, productName, type ExistingPrice } from './price-catalog';

const existingFor = (lookupKey: string, change: Partial<ExistingPrice> = {}): ExistingPrice => {
  const price = priceCatalog().find((each) => each.lookupKey === lookupKey)!;
  return {
    id: `price_${lookupKey}`,
    lookupKey,
    unitAmount: price.unitAmount,
    currency: 'usd',
    recurring: { ...price.recurring },
    active: true,
    productPlan: price.plan,
    ...change,
  };
};

describe('price catalog', () => {
  test('every self-serve plan in every billing period, amounts from plans.ts', () => {
    const catalog = priceCatalog();
    expect(catalog).toHaveLength(8);
    expect(catalog.map((price) => price.lookupKey)).toEqual([
      'loopcast_basic_month',
      'loopcast_basic_3months',
      'loopcast_basic_6months',
      'loopcast_basic_year',
      'loopcast_pro_month',
      'loopcast_pro_3months',
      'loopcast_pro_6months',
      'loopcast_pro_year',
    ]);
    expect(catalog.find((price) => price.lookupKey === 'loopcast_pro_3months')).toEqual({
      lookupKey: 'loopcast_pro_3months',
      plan: 'pro',
      period: '3months',
      unitAmount: 6747,
      currency: 'usd',
      recurring: { interval: 'month', intervalCount: 3 },
    });
    expect(catalog.map((price) => price.unitAmount)).toEqual([899, 2427, 4585, 8091, 2499, 6747, 12745, 22491]);
    expect(catalog.some((price) => price.plan === 'trial' || price.plan === 'custom')).toBe(false);
  });

  test('billing periods map to Stripe intervals as checkout bills them', () => {
    expect(periodRecurrence('month')).toEqual({ interval: 'month', intervalCount: 1 });
    expect(periodRecurrence('3months')).toEqual({ interval: 'month', intervalCount: 3 });
    expect(periodRecurrence('6months')).toEqual({ interval: 'month', intervalCount: 6 });
    expect(periodRecurrence('year')).toEqual({ interval: 'year', intervalCount: 1 });
  });

  test('names: one product per plan, a nickname per price', () => {
    expect(productName('basic')).toBe('Loopcast Basic');
    expect(priceNickname(priceCatalog()[1]!)).toBe('Loopcast Basic, every 3 months');
  });

  test('a plan made self-serve with a price joins the catalog', () => {
    const source: Record<PlanId, Plan> = { ...plans, custom: { ...plans.custom, selfServe: true, monthlyPriceCents: 10_000 } };
    expect(
      priceCatalog(source)
        .filter((price) => price.plan === 'custom')
        .map((price) => price.unitAmount),
    ).toEqual([10_000, 27_000, 51_000, 90_000]);
  });
});

describe('plan of actions', () => {
  const catalog = priceCatalog();

  test('nothing in Stripe: create all eight', () => {
    const actions = planPriceActions(catalog, []);
    expect(actions.map((action) => action.kind)).toEqual(Array(8).fill('create'));
    expect(changesNeeded(actions)).toBe(true);
  });

  test('the same amounts, currency, intervals, all active: nothing to do', () => {
    const actions = planPriceActions(
      catalog,
      catalog.map((price) => existingFor(price.lookupKey)),
    );
    expect(actions.every((action) => action.kind === 'ok')).toBe(true);
    expect(changesNeeded(actions)).toBe(false);
    // Stripe answers currencies in lower case; a product made by hand has no plan marker: both fine.
    const handMade = planPriceActions(catalog, [existingFor('loopcast_basic_month', { currency: 'USD', productPlan: undefined })]);
    expect(handMade[0]?.kind).toBe('ok');
  });

  test('a different amount, currency, interval, product plan or an archived price is replaced', () => {
    const existing = [
      existingFor('loopcast_basic_month', { unitAmount: 999 }),
      existingFor('loopcast_basic_3months', { currency: 'eur' }),
      existingFor('loopcast_basic_6months', { recurring: { interval: 'month', intervalCount: 1 } }),
      existingFor('loopcast_basic_year', { active: false }),
      existingFor('loopcast_pro_month', { productPlan: 'basic' }),
      existingFor('loopcast_pro_3months', { recurring: null, unitAmount: null }),
      existingFor('loopcast_pro_6months'),
    ];
    const actions = planPriceActions(catalog, existing);
    const byKey = Object.fromEntries(actions.map((action) => [action.price.lookupKey, action]));
    expect(byKey.loopcast_basic_month).toMatchObject({
      kind: 'replace',
      existing: { id: 'price_loopcast_basic_month' },
      differences: ['amount 9.99 USD → 8.99 USD'],
    });
    expect(byKey.loopcast_basic_3months).toMatchObject({ kind: 'replace', differences: ['amount 24.27 EUR → 24.27 USD'] });
    expect(byKey.loopcast_basic_6months).toMatchObject({ kind: 'replace', differences: ['interval every 1 month → every 6 months'] });
    expect(byKey.loopcast_basic_year).toMatchObject({ kind: 'replace', differences: ['archived'] });
    expect(byKey.loopcast_pro_month).toMatchObject({ kind: 'replace', differences: ['product of plan basic → pro'] });
    expect(byKey.loopcast_pro_3months).toMatchObject({
      kind: 'replace',
      differences: ['amount (no amount) → 67.47 USD', 'interval one-time → every 3 months'],
    });
    expect(byKey.loopcast_pro_6months).toMatchObject({ kind: 'ok' });
    expect(byKey.loopcast_pro_year).toMatchObject({ kind: 'create' });
  });

  test('the plan as a table with a summary', () => {
    const text = planText(planPriceActions(catalog, [existingFor('loopcast_basic_month', { unitAmount: 999 }), existingFor('loopcast_basic_year')]));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^LOOKUP KEY\s+AMOUNT\s+INTERVAL\s+ACTION$/);
    expect(lines[2]).toMatch(/^loopcast_basic_month\s+8\.99 USD\s+every 1 month\s+replace price_loopcast_basic_month: amount 9\.99 USD → 8\.99 USD$/);
    expect(lines[3]).toMatch(/^loopcast_basic_3months\s+24\.27 USD\s+every 3 months\s+create$/);
    expect(lines[5]).toMatch(/^loopcast_basic_year\s+80\.91 USD\s+every 1 year\s+ok \(price_loopcast_basic_year\)$/);
    expect(lines.at(-1)).toBe('8 prices: 1 ok, 6 to create, 1 to replace.');
    expect(
      planText(
        planPriceActions(
          catalog,
          catalog.map((price) => existingFor(price.lookupKey)),
        ),
      )
        .split('\n')
        .at(-1),
    ).toBe('8 prices: all match lambdas/core/plans.ts.');
  });
});
