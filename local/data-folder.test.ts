// Security audit L7: the data folder holds live confirmation and reset links (outbox), DynamoDB's files with
// password hashes, the key that opens stream keys, and logs. Another user of the machine must read none of it: the
// folder is 0700 (also when an earlier run left it 0755) and each outbox message 0600. The stand-ins' credentials
// are the folder's own, in a 0600 file (local/credentials.ts).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, strongPassword, uniqueEmail } from '../test/helpers/accounts';
import { startTestStack } from '../test/helpers/stack';
import { dataFolderCredentials, localCredentialsFile, readDataFolderCredentials } from './credentials';
import type { LocalStack } from './stack';

const mode = (path: string) => statSync(path).mode & 0o777;

let stack: LocalStack;
let dataDir: string;
beforeAll(async () => {
  dataDir = join(mkdtempSync(join(tmpdir(), 'loopcast-data-')), 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  stack = await startTestStack({ dataDir });
});
afterAll(() => stack.stop());

test('the data folder is private to this user, its outbox folder and every message too', async () => {
  const email = uniqueEmail();
  const registered = await api(stack, 'POST', '/register', {
    body: { displayName: 'Ana', email, password: strongPassword, acceptTerms: true, ageConfirmed: true },
  });
  expect(registered.status).toBe(202);
  const messages = readdirSync(stack.outbox);
  expect(messages.length).toBeGreaterThan(0);
  expect({ data: mode(dataDir), outbox: mode(stack.outbox), messages: messages.map((name) => mode(join(stack.outbox, name))) }).toEqual({
    data: 0o700,
    outbox: 0o700,
    messages: messages.map(() => 0o600),
  });
  expect(mode(join(dataDir, 'secrets.key'))).toBe(0o600);
});

test('each data folder has its own stand-in credentials, made once, in a file only this user reads', () => {
  const folder = () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'loopcast-data-')), 'data');
    mkdirSync(dir, { mode: 0o700 });
    return dir;
  };
  const [one, other] = [folder(), folder()];
  expect(readDataFolderCredentials(one)).toBeUndefined();
  const made = dataFolderCredentials(one);
  expect(mode(localCredentialsFile(one))).toBe(0o600);
  expect(dataFolderCredentials(one)).toEqual(made);
  const another = dataFolderCredentials(other);
  expect(another.accessKeyId).not.toBe(made.accessKeyId);
  expect(another.secretAccessKey).not.toBe(made.secretAccessKey);
  // A file an older version (or a copy) left readable by others is made private again, its credentials kept.
  chmodSync(localCredentialsFile(one), 0o644);
  expect(dataFolderCredentials(one)).toEqual(made);
  expect(mode(localCredentialsFile(one))).toBe(0o600);
});
