import { parseSupportArgs, UsageError } from './cli-args';

const refusal = (argv: string[]) => {
  try {
    parseSupportArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
};

describe('support command line', () => {
  test('a stage, a command, its account and options in any order, with --name=value too', () => {
    expect(parseSupportArgs(['--stage', 'prod', 'suspend', 'ana@example.com', '--reason=spam, ticket 7', '--operator', 'Bo', '--json'])).toEqual({
      target: { kind: 'stage', stage: 'prod' },
      command: { name: 'suspend', user: 'ana@example.com', reason: 'spam, ticket 7' },
      operator: 'Bo',
      json: true,
    });
    expect(parseSupportArgs(['find', 'u-1', '--local', '--table', 't', '--bucket', 'b'])).toEqual({
      target: { kind: 'local', table: 't', bucket: 'b' },
      command: { name: 'find', user: 'u-1' },
      json: false,
    });
    expect(parseSupportArgs(['--stage=dev', '--region', 'eu-west-1', 'reactivate', 'u-1'])).toMatchObject({
      target: { kind: 'stage', stage: 'dev', region: 'eu-west-1' },
      command: { name: 'reactivate', user: 'u-1' },
    });
    expect(parseSupportArgs(['--local', 'terminate', 'u-1', '--reason', 'closed', '--yes'])).toMatchObject({
      command: { name: 'terminate', reason: 'closed' },
    });
  });

  test('help without a command or with --help', () => {
    expect(parseSupportArgs([])).toBe('help');
    expect(parseSupportArgs(['--local', 'find', 'x', '--help'])).toBe('help');
  });

  test('refusals say what is missing', () => {
    expect(refusal(['find', 'x'])).toBe('choose where: --local or --stage <stage>');
    expect(refusal(['--local', '--stage', 'prod', 'find', 'x'])).toBe('choose where: --local or --stage <stage>');
    expect(refusal(['--local', 'delete', 'x'])).toBe('unknown command "delete"');
    expect(refusal(['--local', 'find'])).toBe('find needs the account: an e-mail address or a user id');
    expect(refusal(['--local', 'suspend', 'x'])).toBe('suspend needs --reason "..." (it is kept in the audit log)');
    expect(refusal(['--local', 'suspend', 'x', '--reason', '  '])).toBe('suspend needs --reason "..." (it is kept in the audit log)');
    expect(refusal(['--local', 'suspend', 'x', 'too', 'many', '--reason', 'r'])).toBe('unexpected "too many" (quote a reason: --reason "...")');
    expect(refusal(['--local', 'terminate', 'x', '--reason', 'r'])).toBe("terminate deletes the account's data for good: add --yes to go ahead");
    expect(refusal(['--local', 'find', 'x', '--reason', 'r'])).toBe('find takes no --reason');
    expect(refusal(['--local', 'find', 'x', '--reason'])).toBe('--reason needs a value');
    expect(refusal(['--local', 'find', 'x', '--json=yes'])).toBe('--json takes no value');
    expect(refusal(['--local', 'find', 'x', '--force'])).toBe('unknown option --force');
    expect(refusal(['--local', '--region', 'eu-west-1', 'find', 'x'])).toBe('--region is for --stage');
    expect(refusal(['--stage', 'prod', '--table', 't', 'find', 'x'])).toBe('--table and --bucket are for --local (a stage names its own)');
    expect(refusal(['--stage', 'Prod!', 'find', 'x'])).toBe('"Prod!" is not a stage name (lower-case letters, digits, dashes)');
  });
});
