// `npm run stripe:prices -- [--apply] (--stage <stage> [--region <region>] | --local)`: makes the Stripe Prices
// checkout sells (lookup keys `loopcast_<plan>_<period>`) follow lambdas/core/plans.ts (docs/deploy.md step 6.1).
// Without --apply it prints the plan and changes nothing. Exit codes: 0 nothing to do (or done), 1 changes needed
// (dry run), 2 usage or missing keys, 3 Stripe or AWS failed.
import { parseArgs } from 'node:util';
import Stripe from 'stripe';
import { changesNeeded, planText } from '../lambdas/core/billing/price-catalog';
import { stripeClient, type StripeConnection } from '../lambdas/adapters/stripe/client';
import { StripePriceSync, type ApplyResult } from '../lambdas/adapters/stripe/price-sync';
import { stageEnvironment, stageStripeSecretKey } from '../lambdas/adapters/support-deps';
import { supportEnvironmentParameterName } from '../lambdas/adapters/support-parameter';

const usage = `Usage: npm run stripe:prices -- [--apply] (--stage <stage> [--region <region>] | --local)

Compares the Stripe Prices with lookup keys loopcast_<plan>_<period> against lambdas/core/plans.ts.
  (no --apply)  print the plan; exit 0 when Stripe already matches, 1 when changes are needed
  --apply       create missing prices, replace differing ones (the new price takes the lookup key, the old is archived)
  --stage       use the secret key in the stage's StripeKeys secret (found through /loopcast/<stage>/support/environment)
  --region      the stage's region (default: the AWS SDK's)
  --local       use STRIPE_SECRET_KEY from the environment (and STRIPE_API_URL, for a fake Stripe, when set)
`;

class UsageError extends Error {}
/** A key that is not there: the operator has a step to do (docs/deploy.md, Stripe). */
class ConfigurationError extends Error {}

type Target = { kind: 'stage'; stage: string; region?: string } | { kind: 'local' };

function parse(argv: string[]): { apply: boolean; target: Target } | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        apply: { type: 'boolean', default: false },
        stage: { type: 'string' },
        region: { type: 'string' },
        local: { type: 'boolean', default: false },
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
  const target: Target = values.stage !== undefined
    ? { kind: 'stage', stage: values.stage, ...(values.region ? { region: values.region } : {}) }
    : { kind: 'local' };
  return { apply: values.apply, target };
}

function localConnection(env: NodeJS.ProcessEnv): StripeConnection {
  const secretKey = env.STRIPE_SECRET_KEY;
  if (!secretKey) throw new ConfigurationError('STRIPE_SECRET_KEY is not set: --local takes the Stripe secret key (sk_test_...) from the environment');
  return { secretKey, ...(env.STRIPE_API_URL ? { apiUrl: env.STRIPE_API_URL } : {}) };
}

/** The stage's Stripe secret key, found as the support tool finds it: the handler environment in SSM names the
 * StripeKeys secret. */
async function stageConnection(stage: string, region: string | undefined): Promise<StripeConnection> {
  const configuration = <T>(step: Promise<T>) => step.catch((error: unknown) => { throw new ConfigurationError((error as Error).message); });
  const { environment, region: resolvedRegion } = await configuration(stageEnvironment(stage, region));
  const secretArn = environment.STRIPE_SECRET_ARN;
  if (!secretArn) throw new ConfigurationError(`the stage "${stage}" names no StripeKeys secret (STRIPE_SECRET_ARN in ${supportEnvironmentParameterName(stage)}): deploy its Api stack`);
  const secretKey = await configuration(stageStripeSecretKey(resolvedRegion, secretArn));
  if (!secretKey) {
    throw new ConfigurationError(`the StripeKeys secret of stage "${stage}" holds no secretKey yet (${secretArn}): put it there first, docs/deploy.md, Stripe step 4`);
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

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = parse(argv);
  if (parsed === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  const { apply, target } = parsed;
  const connection = target.kind === 'local' ? localConnection(env) : await stageConnection(target.stage, target.region);
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
    const message = error instanceof Stripe.errors.StripeAuthenticationError
      ? `Stripe refused the key: ${error.message}`
      : error instanceof Stripe.errors.StripeError
        ? `Stripe answered ${error.statusCode ?? ''} ${error.type}: ${error.message}`
        : (error as Error).message;
    process.stderr.write(`stripe:prices: ${message}\n`);
    process.exit(3);
  },
);

