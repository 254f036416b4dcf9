// The support tool's command line (bin/support.ts), parsed without side effects.

export type SupportTarget = { kind: 'local'; table?: string; bucket?: string } | { kind: 'stage'; stage: string; region?: string };

export type SupportCommand = { name: 'find' | 'audit'; user: string } | { name: 'suspend' | 'reactivate' | 'terminate'; user: string; reason?: string };

export interface SupportInvocation {
  target: SupportTarget;
  command: SupportCommand;
  operator?: string;
  json: boolean;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const supportUsage = `Loopcast support tool (docs/operations.md, "Support tool")

usage: npm run support -- (--local | --stage <stage> [--region <region>]) <command> [options]

commands:
  find <email-or-id>                         the account: status, plan, usage, streams, audit trail
  suspend <user> --reason "..."              refuse sign-in, end sessions, stop streams; nothing is deleted
  reactivate <user> [--reason "..."]         end a suspension
  terminate <user> --reason "..." --yes      stop everything and delete the account's data
  audit <user>                               the account's audit trail (also after termination)

where:
  --local               the local stack's data (.data, table loopcast-local-app; LOOPCAST_* variables as for npm start)
  --table, --bucket     with --local: another table or media bucket
  --stage <stage>       a deployed stage, with your AWS credentials (its Ops stack keeps the settings in SSM)
  --region <region>     the stage's region (default: AWS_REGION or your profile's)
  --operator <name>     who you are, for the audit log (default: your OS user name)
  --json                machine-readable output
`;

const COMMANDS = ['find', 'audit', 'suspend', 'reactivate', 'terminate'] as const;
const VALUE_OPTIONS = ['stage', 'region', 'table', 'bucket', 'operator', 'reason'] as const;
const FLAGS = ['local', 'json', 'yes', 'help'] as const;
type ValueOption = (typeof VALUE_OPTIONS)[number];
type Flag = (typeof FLAGS)[number];

const STAGE_NAME = /^[a-z][a-z0-9-]{0,15}$/;

function includes<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** The invocation, or 'help'; a UsageError says what is wrong. */
export function parseSupportArgs(argv: string[]): SupportInvocation | 'help' {
  const values: Partial<Record<ValueOption, string>> = {};
  const flags = new Set<Flag>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (includes(FLAGS, name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      flags.add(name);
    } else if (includes(VALUE_OPTIONS, name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      values[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  if (flags.has('help') || !positional.length) return 'help';

  const [name, user, ...extra] = positional as [string, ...string[]];
  if (!includes(COMMANDS, name)) throw new UsageError(`unknown command "${name}"`);
  if (!user) throw new UsageError(`${name} needs the account: an e-mail address or a user id`);
  if (extra.length) throw new UsageError(`unexpected "${extra.join(' ')}" (quote a reason: --reason "...")`);

  const command: SupportCommand =
    name === 'find' || name === 'audit' ? { name, user } : { name, user, ...(values.reason !== undefined ? { reason: values.reason } : {}) };
  if ((name === 'find' || name === 'audit') && values.reason !== undefined) throw new UsageError(`${name} takes no --reason`);
  if ((name === 'suspend' || name === 'terminate') && !values.reason?.trim())
    throw new UsageError(`${name} needs --reason "..." (it is kept in the audit log)`);
  if (name === 'terminate' && !flags.has('yes')) throw new UsageError("terminate deletes the account's data for good: add --yes to go ahead");

  return { target: targetOf(flags.has('local'), values), command, ...(values.operator ? { operator: values.operator } : {}), json: flags.has('json') };
}

function targetOf(local: boolean, values: Partial<Record<ValueOption, string>>): SupportTarget {
  if (local === (values.stage !== undefined)) throw new UsageError('choose where: --local or --stage <stage>');
  if (local) {
    if (values.region !== undefined) throw new UsageError('--region is for --stage');
    return { kind: 'local', ...(values.table ? { table: values.table } : {}), ...(values.bucket ? { bucket: values.bucket } : {}) };
  }
  if (values.table !== undefined || values.bucket !== undefined) throw new UsageError('--table and --bucket are for --local (a stage names its own)');
  if (!STAGE_NAME.test(values.stage!)) throw new UsageError(`"${values.stage}" is not a stage name (lower-case letters, digits, dashes)`);
  return { kind: 'stage', stage: values.stage!, ...(values.region ? { region: values.region } : {}) };
}
