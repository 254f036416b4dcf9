import type { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { matchesOriginVerify, originVerifyFromSecret } from './origin-verify';

describe('matchesOriginVerify', () => {
  test('matches any accepted value exactly, nothing else', () => {
    expect(matchesOriginVerify('abc', ['zzz', 'abc'])).toBe(true);
    expect(matchesOriginVerify('abc', ['abcd'])).toBe(false);
    expect(matchesOriginVerify('abcd', ['abc'])).toBe(false);
    expect(matchesOriginVerify('ABC', ['abc'])).toBe(false);
    expect(matchesOriginVerify('abc', [])).toBe(false);
  });

  test('an empty value never matches, even an empty accepted value', () => {
    expect(matchesOriginVerify('', [''])).toBe(false);
    expect(matchesOriginVerify('', ['abc'])).toBe(false);
  });
});

describe('originVerifyFromSecret', () => {
  type Versions = Partial<Record<'AWSCURRENT' | 'AWSPREVIOUS', string>>;
  function fakeSecretsManager(initial: Versions) {
    const state = { versions: initial, failing: false, calls: [] as string[] };
    const client = {
      send: async (command: GetSecretValueCommand) => {
        const stage = command.input.VersionStage as keyof Versions;
        state.calls.push(`${command.input.SecretId}:${stage}`);
        if (state.failing) throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
        const value = state.versions[stage];
        if (value === undefined) throw Object.assign(new Error('no such version'), { name: 'ResourceNotFoundException' });
        return { SecretString: value };
      },
    };
    return { state, client: client as never };
  }

  test('reads the current and previous versions once, then again after the refresh interval', async () => {
    const { state, client } = fakeSecretsManager({ AWSCURRENT: 'new', AWSPREVIOUS: 'old' });
    let now = 0;
    const values = originVerifyFromSecret('us-east-1', 'arn:secret', { client, refreshMs: 1000, now: () => now });
    expect(await values()).toEqual(['new', 'old']);
    now = 999;
    expect(await values()).toEqual(['new', 'old']);
    expect(state.calls).toEqual(['arn:secret:AWSCURRENT', 'arn:secret:AWSPREVIOUS']);
    state.versions = { AWSCURRENT: 'newer', AWSPREVIOUS: 'new' };
    now = 1000;
    expect(await values()).toEqual(['newer', 'new']);
    expect(state.calls).toHaveLength(4);
  });

  test('a secret never rotated has only its current value', async () => {
    const { client } = fakeSecretsManager({ AWSCURRENT: 'only' });
    expect(await originVerifyFromSecret('us-east-1', 'arn:secret', { client })()).toEqual(['only']);
  });

  test('a failed first read fails that call and is tried again; a failed refresh keeps the values read before', async () => {
    const { state, client } = fakeSecretsManager({ AWSCURRENT: 'v1' });
    let now = 0;
    const values = originVerifyFromSecret('us-east-1', 'arn:secret', { client, refreshMs: 1000, now: () => now });
    state.failing = true;
    await expect(values()).rejects.toThrow('throttled');
    state.failing = false;
    expect(await values()).toEqual(['v1']);
    state.failing = true;
    now = 5000;
    expect(await values()).toEqual(['v1']);
    state.failing = false;
    state.versions = { AWSCURRENT: 'v2', AWSPREVIOUS: 'v1' };
    now = 6000;
    expect(await values()).toEqual(['v2', 'v1']);
  });
});
