import { priceCatalog } from '../billing/price-catalog';
import { checkPriceCosts, costCheckText, pricesBelowCost } from './price-check';

describe('the Stripe prices cost check', () => {
  test('on Fargate every price is below cost', () => {
    const check = checkPriceCosts(priceCatalog(), { plane: 'fargate' });
    expect(check).toMatchObject({ plane: 'fargate', streams: 25, videoMbps: 6 });
    expect(pricesBelowCost(check).map((price) => price.lookupKey)).toEqual(priceCatalog().map((price) => price.lookupKey));
    expect(costCheckText(check)).toMatch(/^loopcast_basic_month\s+8\.99\s+0\.76\s+\d+\.\d\d\s+-\d+\.\d\d\s+-\d+\.\d\d\s+BELOW COST$/m);
  });

  test('on the external data plane with 200 streams none is; Pro loses only at full use (five destinations a stream)', () => {
    const check = checkPriceCosts(priceCatalog(), { plane: 'external', streams: 200 });
    expect(pricesBelowCost(check)).toEqual([]);
    expect(check.prices.filter((price) => price.belowCostAtFullUse).map((price) => price.lookupKey)).toEqual([
      'loopcast_pro_month',
      'loopcast_pro_3months',
      'loopcast_pro_6months',
      'loopcast_pro_year',
    ]);
    expect(costCheckText(check)).toContain('Cost check on the external data plane: a fleet of 200 streams at 6 Mbit/s');
    expect(costCheckText(check)).toMatch(/^loopcast_pro_year\s.*below cost at full use$/m);
  });
});
