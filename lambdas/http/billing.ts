// Handler group "billing": plans, the user's subscription and usage, Stripe Checkout and the Customer Portal.
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import * as billing from '../core/billing/billing';
import { languageCodes } from '../core/languages';
import { billingPeriods, periodPriceCents, periodSavingCents, periodTerms, planIds, plans } from '../core/plans';
import { json, publicRoute, userRoute } from './api';
import { billingContext } from '../wiring/billing';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';

/** The plan table as the pricing pages show it, with each period's price and saving computed once here. */
const listPlans = publicRoute({
  async handle() {
    return json(
      200,
      {
        currency: 'usd',
        plans: planIds.map((id) => {
          const plan = plans[id];
          return {
            id,
            selfServe: plan.selfServe,
            limits: plan.limits,
            features: plan.features,
            prices:
              plan.monthlyPriceCents === undefined
                ? []
                : billingPeriods.map((period) => ({
                    period,
                    months: periodTerms[period].months,
                    cents: periodPriceCents(plan, period),
                    savingCents: periodSavingCents(plan, period),
                  })),
          };
        }),
      },
      { 'cache-control': 'public, max-age=300' },
    );
  },
});

const subscription = userRoute({
  async handle(request, deps) {
    return json(200, await billing.subscriptionOverview(await billingContext(deps), request.auth.userId));
  },
});

const checkout = userRoute({
  // Strings, not enums: an unknown plan or period is the catalogued 'unknown plan', not a schema error.
  body: z.object({ plan: z.string().max(32), period: z.string().max(32).default('month'), language: z.enum(languageCodes).optional() }),
  async handle(request, deps) {
    return json(
      200,
      await billing.startCheckout(await billingContext(deps), request.auth.userId, request.body.plan, request.body.period, request.body.language),
    );
  },
});

const checkoutStatus = userRoute({
  async handle(request, deps) {
    const sessionId = request.params.id ?? '';
    return json(200, await billing.checkoutStatus(await billingContext(deps), request.auth.userId, sessionId));
  },
});

const portal = userRoute({
  body: z.object({ language: z.enum(languageCodes).optional() }),
  async handle(request, deps) {
    return json(200, await billing.openPortal(await billingContext(deps), request.auth.userId, request.body.language));
  },
});

export const createBillingHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({
    group: 'billing',
    deps,
    authenticate: authenticateSession,
    unknownId: 'wrong order id',
    routes: {
      'GET /api/plans': listPlans,
      'GET /api/subscription': subscription,
      'POST /api/billing/checkout': checkout,
      'GET /api/billing/checkout/{id}': checkoutStatus,
      'POST /api/billing/portal': portal,
    },
  });

export const handler = createBillingHandler(depsFromEnvironment);
