// `npm run support -- ...`: the operator's support tool (docs/operations.md, "Support tool"). Parses the command
// line, builds the Deps of a deployed stage or of the local stack, runs one use case of lambdas/core/support and
// prints its result. Exit codes: 0 done, 1 refused or failed, 2 usage.
import { userInfo } from 'node:os';
import { supportContext } from '../lambdas/wiring/support';
import { localSupportRuntime, stageSupportRuntime, type SupportRuntime } from '../lambdas/wiring/support-runtime';
import { mediaBucket } from '../lambdas/contract/buckets';
import { appTable } from '../lambdas/contract/tables';
import { AppError } from '../lambdas/core/errors';
import { parseSupportArgs, supportUsage, UsageError, type SupportInvocation, type SupportTarget } from '../lambdas/core/support/cli-args';
import { auditTrail, findUser, reactivateUser, suspendUser, SupportRefusal, terminateUser, type SupportContext } from '../lambdas/core/support/support';
import { actionText, auditText, findText } from '../lambdas/core/support/text';
import { localCredentialsIn } from '../lambdas/contract/local-credentials';
import { readDataFolderCredentials, useLocalCredentials } from '../local/credentials';
import { defaultDataDir, readRealtimeManagementUrl } from '../local/paths';

/** What `npm start` names its table and bucket (bin/local.ts). */
const LOCAL_NAME_PREFIX = 'loopcast-local-';

function localRuntime(target: Extract<SupportTarget, { kind: 'local' }>, env: NodeJS.ProcessEnv): SupportRuntime {
  const port = (name: string, fallback: number) => env[name] ?? String(fallback);
  const dataDir = env.LOOPCAST_DATA_DIR ?? defaultDataDir;
  // The stand-ins take the stack's credentials only: those it handed this process, else its data folder's.
  const credentials = localCredentialsIn(env) ?? readDataFolderCredentials(dataDir);
  if (!credentials) throw new Error(`no local stack credentials in ${dataDir}: run "npm start" once, or set LOOPCAST_DATA_DIR`);
  useLocalCredentials(credentials);
  return localSupportRuntime({
    dataDir,
    table: target.table ?? `${LOCAL_NAME_PREFIX}${appTable.id}`,
    bucket: target.bucket ?? `${LOCAL_NAME_PREFIX}${mediaBucket.id}`,
    endpoints: {
      dynamodb: env.LOOPCAST_DYNAMODB_ENDPOINT ?? `http://127.0.0.1:${port('LOOPCAST_DYNAMODB_PORT', 8000)}`,
      s3: env.LOOPCAST_S3_ENDPOINT ?? `http://127.0.0.1:${port('LOOPCAST_S3_PORT', 4569)}`,
    },
    // The running stack's (its address changes every start); without one, no socket is open to notify.
    realtimeManagementUrl: readRealtimeManagementUrl(dataDir) ?? `http://127.0.0.1:${port('LOOPCAST_REALTIME_PORT', 8081)}`,
    publicUrl: `http://localhost:${port('LOOPCAST_PORT', 8080)}`,
    ...(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET ? { stripe: { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET } } : {}),
    ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? { google: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } } : {}),
  });
}

async function run(invocation: SupportInvocation, context: SupportContext): Promise<{ json: unknown; text: string }> {
  const { command } = invocation;
  switch (command.name) {
    case 'find': {
      const result = await findUser(context, command.user);
      return { json: result, text: findText(result) };
    }
    case 'audit': {
      const entries = await auditTrail(context, command.user);
      return { json: entries, text: auditText(entries) };
    }
    case 'suspend':
    case 'reactivate':
    case 'terminate': {
      const action = { suspend: suspendUser, reactivate: reactivateUser, terminate: terminateUser }[command.name];
      const entry = await action(context, command.user, command.reason);
      return { json: entry, text: actionText(entry) };
    }
  }
}

async function main(argv: string[]): Promise<number> {
  let invocation: SupportInvocation | 'help';
  try {
    invocation = parseSupportArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${supportUsage}`);
    return 2;
  }
  if (invocation === 'help') {
    process.stdout.write(supportUsage);
    return 0;
  }
  const { target } = invocation;
  const runtime = target.kind === 'local' ? localRuntime(target, process.env) : await stageSupportRuntime(target.stage, target.region);
  const operator = { name: invocation.operator ?? userInfo().username, credentials: runtime.credentials };
  const context = await supportContext(runtime.deps, { operator, ...(runtime.subscriptions ? { subscriptions: runtime.subscriptions } : {}) });
  try {
    const { json, text } = await run(invocation, context);
    process.stdout.write(`${invocation.json ? JSON.stringify(json, null, 2) : text}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof SupportRefusal || error instanceof AppError)) throw error;
    process.stderr.write(`${invocation.command.name}: ${error.message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`support: ${error.message}\n`);
    process.exit(1);
  },
);
