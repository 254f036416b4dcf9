// Entry point of `npm start`, `npm test` and the other npm scripts: set the machine up, then run the real
// command on Node 24 with the project's binaries on PATH.
//   node scripts/run.mjs start            the whole local stack
//   node scripts/run.mjs test [jest args]  type checks, the boundaries' lint, web build, then the jest suite
//   node scripts/run.mjs lint              the boundaries' lint (.dependency-cruiser.cjs) and the format check alone
//   node scripts/run.mjs support [args]    the support tool (bin/support.ts)
//   node scripts/run.mjs stripe-prices [args]  Stripe's prices from the plan table (bin/stripe-prices.ts)
//   node scripts/run.mjs costs [args]      the cost model: a stream-month by line, plan margins (bin/costs.ts)
//   node scripts/run.mjs <bin> [args]      any project binary or script (cdk, tsx, vite, ...) on Node 24
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, setup, toolEnv } from './setup.mjs';

const [command = 'start', ...rest] = process.argv.slice(2);
// Only the local stack needs the Debian packages and DynamoDB Local; deploying and supporting a stage do not.
// The Stripe prices tool talks to Stripe only, also with --local (its key comes from the environment); the cost
// model is arithmetic.
const awsOnly = ['cdk', 'cdk-app', 'stripe-prices', 'costs'].includes(command) || (command === 'support' && !rest.includes('--local'));
const nodeBin = setup({ localStack: !awsOnly });
// Handler logs are JSON lines for CloudWatch; locally only warnings and errors are worth printing, and metrics
// (CloudWatch embedded format) have nowhere to go.
const env = { POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true', ...toolEnv(nodeBin) };
const bin = (name) => join(root, 'node_modules', '.bin', name);

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, entry) => Math.max(max, newestMtime(join(path, entry))), stat.mtimeMs);
}

/**
 * The web build's configuration, read by Vite at build time (web/src/config, docs/web.md): the support contacts and
 * the tag manager. The CDK app also takes the support contacts as context (`cdk deploy -c supportEmail=...`), which
 * the CDK CLI hands to the app in CDK_CONTEXT_JSON and, when that is too long, in the file CONTEXT_OVERFLOW_LOCATION_ENV
 * names; context wins over the environment.
 */
function webBuildConfig({ fromCdkContext }) {
  const fromContext = { VITE_SUPPORT_EMAIL: 'supportEmail', VITE_SUPPORT_CHAT_URL: 'supportChatUrl', VITE_SUPPORT_TELEGRAM_URL: 'supportTelegramUrl' };
  const overflow = process.env.CONTEXT_OVERFLOW_LOCATION_ENV;
  const context = fromCdkContext
    ? { ...JSON.parse(process.env.CDK_CONTEXT_JSON || '{}'), ...(overflow && existsSync(overflow) ? JSON.parse(readFileSync(overflow, 'utf8')) : {}) }
    : {};
  const config = {};
  for (const name of ['VITE_GTM_ID', ...Object.keys(fromContext)]) {
    const value = typeof context[fromContext[name]] === 'string' ? context[fromContext[name]] : process.env[name];
    if (value) config[name] = value;
  }
  return config;
}

/** Builds the web app unless its output is newer than every source it depends on and was built with this configuration. */
function buildWebIfStale({ fromCdkContext = false } = {}) {
  const stamp = join(root, 'web', 'build', '.built');
  const sources = [
    'web/src',
    'web/public',
    'web/edge',
    'web/vite.config.ts',
    'web/react-router.config.ts',
    'lambdas/core',
    'lambdas/contract',
    'package-lock.json',
  ];
  const newestSource = Math.max(...sources.map((s) => newestMtime(join(root, s))));
  const config = JSON.stringify(webBuildConfig({ fromCdkContext }));
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource && readFileSync(stamp, 'utf8').split('\n')[1] === config) return;
  process.stderr.write('[setup] building the web app\n');
  const result = spawnSync(bin('react-router'), ['build'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd: join(root, 'web'),
    env: { ...env, ...JSON.parse(config) },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n${config}`);
}

function runOrExit(node, args, nodeFlags = []) {
  const result = spawnSync(node, [...nodeFlags, ...args], { stdio: 'inherit', cwd: root, env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The boundaries between the code's parts (.dependency-cruiser.cjs; docs/architecture.md lists them). */
function lint() {
  runOrExit(nodeBin, [bin('depcruise'), 'bin', 'lib', 'lambdas', 'local', 'stream-task/src', 'test', 'bench', 'web/src', '--output-type', 'err']);
  // The code's formatting (.prettierrc.json; `npm run format` rewrites it).
  runOrExit(nodeBin, [bin('prettier'), '--check', '--log-level', 'warn', '.']);
}

/** Runs the final command as our only child; Ctrl-C reaches it too (same process group), and we wait for it. */
function handOver(file, args) {
  const child = spawn(file, args, { stdio: 'inherit', cwd: root, env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 1 : 1)));
}

switch (command) {
  case 'start':
    buildWebIfStale();
    handOver(nodeBin, ['--import', 'tsx', join(root, 'bin', 'local.ts'), ...rest]);
    break;
  case 'test':
    runOrExit(nodeBin, [bin('tsc'), '-p', 'tsconfig.json', '--noEmit']);
    runOrExit(nodeBin, [bin('tsc'), '-p', 'web/tsconfig.json', '--noEmit']);
    lint();
    buildWebIfStale();
    handOver(nodeBin, ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', join(root, 'node_modules', 'jest', 'bin', 'jest.js'), ...rest]);
    break;
  case 'support':
  case 'stripe-prices':
  case 'costs':
    handOver(nodeBin, ['--import', 'tsx', join(root, 'bin', `${command}.ts`), ...rest]);
    break;
  case 'lint':
    lint();
    break;
  case 'build-web':
    buildWebIfStale();
    break;
  case 'cdk-app':
    // The CDK app as cdk.json runs it: the web build is one of its assets.
    buildWebIfStale({ fromCdkContext: true });
    handOver(nodeBin, ['--import', 'tsx', join(root, 'bin', 'app.ts'), ...rest]);
    break;
  default:
    handOver(existsSync(bin(command)) ? bin(command) : command, rest);
}
