// `npm run stripe:prices -- [--apply] (--stage <stage> [--region <region>] | --local)`: makes the Stripe Prices
// checkout sells (lookup keys `loopcast_<plan>_<period>`) follow lambdas/core/plans.ts (docs/deploy.md step 6.1).
// Without --apply it prints the plan and changes nothing. First it checks each price against what its plan costs on
// the stage's data plane (lambdas/core/costs/, docs/costs.md): --apply refuses prices below cost unless told to sell
// at a loss. Exit codes: 0 nothing to do (or done), 1 changes needed (dry run), 2 usage or missing keys, 3 Stripe or
// AWS failed, 4 refused: prices below cost.
import { parseArgs } from 'node:util';
import Stripe from 'stripe';
import { DEFAULT_DATA_PLANE, dataPlanes, isDataPlane, type DataPlane } from '../lambdas/contract/data-planes';
import { changesNeeded, planText, priceCatalog } from '../lambdas/core/billing/price-catalog';
import { DEFAULT_FLEET_STREAMS } from '../lambdas/core/costs/assumptions';
import { checkPriceCosts, costCheckText, pricesBelowCost, type CostCheck } from '../lambdas/core/costs/price-check';
import { stripeClient, type StripeConnection } from '../lambdas/adapters/stripe/client';
import { StripePriceSync, type ApplyResult } from '../lambdas/adapters/stripe/price-sync';
import { stageEnvironment, stageStripeSecretKey } from '../lambdas/wiring/support-runtime';
import { supportEnvironmentParameterName } from '../lambdas/adapters/support-parameter';

const usage = `Usage: npm run stripe:prices -- [--apply] (--stage <stage> [--region <region>] | --local) [--plane <plane>] [--streams <n>] [--allow-below-cost]

Compares the Stripe Prices with lookup keys loopcast_<plan>_<period> against lambdas/core/plans.ts, after checking
each price against what its plan costs on the data plane (docs/costs.md).
  (no --apply)        print the plan; exit 0 when Stripe already matches, 1 when changes are needed
  --apply             create missing prices, replace differing ones (the new price takes the lookup key, the old is
                      archived); refused (exit 4) while a price is below its plan's cost
  --stage             use the secret key in the stage's StripeKeys secret (found through /loopcast/<stage>/support/environment)
  --region            the stage's region (default: the AWS SDK's)
  --local             use STRIPE_SECRET_KEY from the environment (and STRIPE_API_URL, for a fake Stripe, when set)
  --plane             the data plane to check against: ${dataPlanes.join(' or ')} (default: the stage's, ${DEFAULT_DATA_PLANE} with --local)
  --streams           the fleet to check at (default: ${DEFAULT_FLEET_STREAMS} streams)
  --allow-below-cost  apply even prices below cost (a deliberate loss, e.g. in test mode)
`;

class UsageError extends Error {}
/** A key that is not there: the operator has a step to do (docs/deploy.md, Stripe). */
class ConfigurationError extends Error {}
/** --apply with prices below cost, not allowed to sell at a loss. */
class BelowCostError extends Error {}

type Target = { kind: 'stage'; stage: string; region?: string } | { kind: 'local' };

interface Options {
  apply: boolean;
  target: Target;
  plane?: DataPlane;
  streams: number;
  allowBelowCost: boolean;
}

function parse(argv: string[]): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        apply: { type: 'boolean', default: false },
        stage: { type: 'string' },
        region: { type: 'string' },
        local: { type: 'boolean', default: false },
        plane: { type: 'string' },
        streams: { type: 'string' },
        'allow-below-cost': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  if (values.local === (values.stage !== undefined)) throw new UsageError('give either --stage <stage> or --local');
  if (values.stage === '') throw new UsageError('--stage needs a stage name');
  if (values.local && values.region !== undefined) throw new UsageError('--region goes with --stage');
  const target: Target =
    values.stage !== undefined ? { kind: 'stage', stage: values.stage, ...(values.region ? { region: values.region } : {}) } : { kind: 'local' };
  const { plane } = values;
  if (plane !== undefined && !isDataPlane(plane)) throw new UsageError(`--plane "${plane}" is not one of ${dataPlanes.join(', ')}`);
  const streams = values.streams === undefined ? DEFAULT_FLEET_STREAMS : Number(values.streams);
  if (!Number.isInteger(streams) || streams < 1) throw new UsageError(`--streams "${values.streams}" is not a whole number of at least 1`);
  return { apply: values.apply, target, ...(plane ? { plane } : {}), streams, allowBelowCost: values['allow-below-cost'] };
}

function localConnection(env: NodeJS.ProcessEnv): StripeConnection {
  const secretKey = env.STRIPE_SECRET_KEY;
  if (!secretKey) throw new ConfigurationError('STRIPE_SECRET_KEY is not set: --local takes the Stripe secret key (sk_test_...) from the environment');
  return { secretKey, ...(env.STRIPE_API_URL ? { apiUrl: env.STRIPE_API_URL } : {}) };
}

const configuration = <T>(step: Promise<T>) =>
  step.catch((error: unknown) => {
    throw new ConfigurationError((error as Error).message);
  });

/** The stage's settings as the support tool finds them: the handler environment in SSM (written by the ops stack). */
const stageSettings = (stage: string, region: string | undefined) => configuration(stageEnvironment(stage, region));

/** The data plane the stage was deployed with (DATA_PLANE beside the handler environment). */
function stageDataPlane(stage: string, environment: Record<string, string>): DataPlane {
  const plane = environment.DATA_PLANE;
  if (plane === undefined) return DEFAULT_DATA_PLANE;
  if (!isDataPlane(plane))
    throw new ConfigurationError(`the stage "${stage}" names an unknown data plane "${plane}" (DATA_PLANE in ${supportEnvironmentParameterName(stage)})`);
  return plane;
}

/** The stage's Stripe secret key: the handler environment names the StripeKeys secret. */
async function stageConnection(stage: string, environment: Record<string, string>, resolvedRegion: string): Promise<StripeConnection> {
  const secretArn = environment.STRIPE_SECRET_ARN;
  if (!secretArn)
    throw new ConfigurationError(
      `the stage "${stage}" names no StripeKeys secret (STRIPE_SECRET_ARN in ${supportEnvironmentParameterName(stage)}): deploy its Api stack`,
    );
  const secretKey = await configuration(stageStripeSecretKey(resolvedRegion, secretArn));
  if (!secretKey) {
    throw new ConfigurationError(
      `the StripeKeys secret of stage "${stage}" holds no secretKey yet (${secretArn}): put it there first, docs/deploy.md, Stripe step 4`,
    );
  }
  return { secretKey };
}

const keyMode = (key: string) => (/^[sr]k_live_/.test(key) ? 'live mode' : /^[sr]k_test_/.test(key) ? 'test mode' : 'unknown mode');

function appliedText(result: ApplyResult): string {
  const lines = result.createdProducts.map((product) => `created product ${product.id} (${product.name}, loopcast_plan=${product.plan})`);
  for (const action of result.actions) {
    switch (action.kind) {
      case 'ok':
        break;
      case 'created':
        lines.push(`created ${action.lookupKey}: ${action.priceId} on ${action.productId}`);
        break;
      case 'replaced':
        lines.push(
          `replaced ${action.lookupKey}: ${action.priceId} on ${action.productId} took the lookup key from ${action.oldPriceId}` +
            (action.oldDeactivated ? ', which is now archived' : ' (already archived)'),
        );
        break;
    }
  }
  const changed = result.actions.filter((action) => action.kind !== 'ok').length;
  lines.push(changed === 0 ? 'Nothing to do: Stripe matches lambdas/core/plans.ts.' : `Done: ${changed} of ${result.actions.length} prices changed.`);
  return lines.join('\n');
}

/** Prints the cost check; prices below cost are a loud warning on a dry run and refuse --apply unless allowed. */
function reportCosts(check: CostCheck, { apply, allowBelowCost }: Options): void {
  process.stdout.write(`${costCheckText(check)}\n\n`);
  const below = pricesBelowCost(check);
  const atFullUse = check.prices.filter((price) => !price.belowCost && price.belowCostAtFullUse);
  if (atFullUse.length) {
    process.stderr.write(
      `stripe:prices: WARNING: ${atFullUse.length} price${atFullUse.length === 1 ? '' : 's'} lose money when every destination and the whole storage allowance are used on the ${check.plane} data plane: ${atFullUse.map((price) => price.lookupKey).join(', ')}\n`,
    );
  }
  if (!below.length) return;
  const what = `${below.length} of ${check.prices.length} prices are below their plan's cost on the ${check.plane} data plane: ${below.map((price) => price.lookupKey).join(', ')}`;
  if (apply && !allowBelowCost) {
    throw new BelowCostError(
      `refusing to apply: ${what}. Raise the prices in lambdas/core/plans.ts, run the stage on a cheaper data plane (docs/costs.md), or pass --allow-below-cost to sell at a loss knowingly.`,
    );
  }
  process.stderr.write(`stripe:prices: WARNING: ${what}${apply ? ' (applied anyway: --allow-below-cost)' : '; --apply will refuse them'}.\n`);
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = parse(argv);
  if (parsed === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  const { apply, target } = parsed;
  const stage = target.kind === 'stage' ? await stageSettings(target.stage, target.region) : undefined;
  const plane = parsed.plane ?? (target.kind === 'stage' ? stageDataPlane(target.stage, stage!.environment) : DEFAULT_DATA_PLANE);
  reportCosts(checkPriceCosts(priceCatalog(), { plane, streams: parsed.streams }), parsed);
  const connection = target.kind === 'local' ? localConnection(env) : await stageConnection(target.stage, stage!.environment, stage!.region);
  const where = target.kind === 'local' ? `--local${connection.apiUrl ? ` (${connection.apiUrl})` : ''}` : `stage ${target.stage}`;
  process.stdout.write(`Stripe prices for ${where}, ${keyMode(connection.secretKey)} key${apply ? '' : ', dry run'}:\n\n`);
  const sync = new StripePriceSync(stripeClient(connection));
  const actions = await sync.plan();
  process.stdout.write(`${planText(actions)}\n`);
  if (!apply) {
    if (changesNeeded(actions)) process.stdout.write('Run again with --apply to make these changes.\n');
    return changesNeeded(actions) ? 1 : 0;
  }
  if (!changesNeeded(actions)) return 0;
  process.stdout.write('\n');
  const result = await sync.apply(actions);
  process.stdout.write(`${appliedText(result)}\n`);
  return 0;
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`stripe:prices: ${error.message}\n\n${usage}`);
      process.exit(2);
    }
    if (error instanceof ConfigurationError) {
      process.stderr.write(`stripe:prices: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof BelowCostError) {
      process.stderr.write(`stripe:prices: ${error.message}\n`);
      process.exit(4);
    }
    const message =
      error instanceof Stripe.errors.StripeAuthenticationError
        ? `Stripe refused the key: ${error.message}`
        : error instanceof Stripe.errors.StripeError
          ? `Stripe answered ${error.statusCode ?? ''} ${error.type}: ${error.message}`
          : (error as Error).message;
    process.stderr.write(`stripe:prices: ${message}\n`);
    process.exit(3);
  },
);
