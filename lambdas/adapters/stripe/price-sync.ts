// Makes Stripe's Prices follow lambdas/core/plans.ts (`npm run stripe:prices`): reads the prices holding the
// catalog's lookup keys, and carries out the plan of lambdas/core/billing/price-catalog.ts with the real library.
import Stripe from 'stripe';
import {
  PRODUCT_PLAN_METADATA,
  planPriceActions,
  priceCatalog,
  priceNickname,
  productName,
  type CatalogPrice,
  type ExistingPrice,
  type PriceAction,
} from '../../core/billing/price-catalog';
import type { PlanId } from '../../core/plans';

/** What `apply` did for one catalog price. */
export type AppliedAction =
  | { kind: 'ok'; lookupKey: string; priceId: string }
  | { kind: 'created'; lookupKey: string; priceId: string; productId: string }
  | { kind: 'replaced'; lookupKey: string; priceId: string; productId: string; oldPriceId: string; oldDeactivated: boolean };

export interface ApplyResult {
  actions: AppliedAction[];
  /** Products this run made (one per plan that had none marked `loopcast_plan=<plan>`). */
  createdProducts: { plan: PlanId; id: string; name: string }[];
}

/** Stripe takes at most 10 lookup keys per list request. */
const LOOKUP_KEYS_PER_REQUEST = 10;

export class StripePriceSync {
  private readonly products = new Map<PlanId, Promise<{ id: string; created: boolean }>>();

  constructor(private readonly stripe: Stripe) {}

  /** The prices, active or archived, that hold any of `lookupKeys` (a key names one price at a time). */
  async existingPrices(lookupKeys: string[]): Promise<ExistingPrice[]> {
    const found: ExistingPrice[] = [];
    for (let i = 0; i < lookupKeys.length; i += LOOKUP_KEYS_PER_REQUEST) {
      const keys = lookupKeys.slice(i, i + LOOKUP_KEYS_PER_REQUEST);
      for await (const price of this.stripe.prices.list({ lookup_keys: keys, expand: ['data.product'], limit: 100 })) {
        if (price.lookup_key) found.push(existingPrice(price, price.lookup_key));
      }
    }
    return found;
  }

  /** What to do so that Stripe holds `catalog` (plans.ts's by default). */
  async plan(catalog: CatalogPrice[] = priceCatalog()): Promise<PriceAction[]> {
    return planPriceActions(catalog, await this.existingPrices(catalog.map((price) => price.lookupKey)));
  }

  /** Carries the plan out in order: new prices take their lookup key over (`transfer_lookup_key`), then the prices
   * they replace are archived. Stops at the first failure; running again picks up from what Stripe then holds. */
  async apply(actions: PriceAction[]): Promise<ApplyResult> {
    const done: AppliedAction[] = [];
    for (const action of actions) {
      const { lookupKey } = action.price;
      if (action.kind === 'ok') {
        done.push({ kind: 'ok', lookupKey, priceId: action.existing.id });
        continue;
      }
      const productId = (await this.productFor(action.price.plan)).id;
      const created = await this.createPrice(action.price, productId, action.kind === 'replace');
      if (action.kind === 'create') {
        done.push({ kind: 'created', lookupKey, priceId: created.id, productId });
        continue;
      }
      const { existing } = action;
      if (existing.active) await this.stripe.prices.update(existing.id, { active: false });
      done.push({ kind: 'replaced', lookupKey, priceId: created.id, productId, oldPriceId: existing.id, oldDeactivated: existing.active });
    }
    const createdProducts: ApplyResult['createdProducts'] = [];
    for (const [plan, product] of this.products) {
      const { id, created } = await product;
      if (created) createdProducts.push({ plan, id, name: productName(plan) });
    }
    return { actions: done, createdProducts };
  }

  private createPrice(price: CatalogPrice, productId: string, transferLookupKey: boolean): Promise<Stripe.Price> {
    return this.stripe.prices.create({
      product: productId,
      currency: price.currency,
      unit_amount: price.unitAmount,
      recurring: { interval: price.recurring.interval, interval_count: price.recurring.intervalCount },
      lookup_key: price.lookupKey,
      ...(transferLookupKey ? { transfer_lookup_key: true } : {}),
      nickname: priceNickname(price),
      metadata: { plan: price.plan, period: price.period },
    });
  }

  /** The plan's product: the active one marked `loopcast_plan=<plan>`, made when there is none. */
  private productFor(plan: PlanId): Promise<{ id: string; created: boolean }> {
    let product = this.products.get(plan);
    if (!product) {
      product = this.findOrCreateProduct(plan);
      this.products.set(plan, product);
    }
    return product;
  }

  private async findOrCreateProduct(plan: PlanId): Promise<{ id: string; created: boolean }> {
    // Stripe's product list has no metadata filter (its search API has, but is eventually consistent): filter here.
    for await (const product of this.stripe.products.list({ active: true, limit: 100 })) {
      if (product.metadata[PRODUCT_PLAN_METADATA] === plan) return { id: product.id, created: false };
    }
    const created = await this.stripe.products.create({ name: productName(plan), metadata: { [PRODUCT_PLAN_METADATA]: plan } });
    return { id: created.id, created: true };
  }
}

function existingPrice(price: Stripe.Price, lookupKey: string): ExistingPrice {
  const product = typeof price.product === 'object' && !price.product.deleted ? price.product : undefined;
  const productPlan = product?.metadata[PRODUCT_PLAN_METADATA];
  return {
    id: price.id,
    lookupKey,
    unitAmount: price.unit_amount,
    currency: price.currency,
    recurring: price.recurring ? { interval: price.recurring.interval, intervalCount: price.recurring.interval_count } : null,
    active: price.active,
    ...(productPlan ? { productPlan } : {}),
  };
}
