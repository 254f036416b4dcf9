// The local stand-ins' credentials (DynamoDB Local, s3rver, the Scheduler stand-in). They listen on 127.0.0.1, where
// every user of the machine can reach them: constant credentials from the public repository (s3rver's S3RVER pair;
// DynamoDB Local took any) let another user read password hashes and write sessions. So each data folder gets random
// ones, made once and kept in a file only this user reads (0600, in the 0700 data folder); the stack hands them to its
// own processes through the environment (lambdas/contract/local-credentials.ts), and the stand-ins verify every
// request's signature with them.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localCredentialsEnvironment, localCredentialsIn, validLocalCredentials, type LocalCredentials } from '../lambdas/contract/local-credentials';

export type { LocalCredentials } from '../lambdas/contract/local-credentials';

export const localCredentialsFile = (dataDir: string): string => join(dataDir, 'local-credentials.json');

/** A random access key id (it is no secret: presigned URLs carry it) and 256 random bits of secret key, which the
 * stand-ins verify every signature with. */
export const randomLocalCredentials = (): LocalCredentials => ({
  accessKeyId: `LOOPCAST${randomBytes(16).toString('hex').toUpperCase()}`,
  secretAccessKey: randomBytes(32).toString('base64url'),
});

/** The data folder's credentials, or undefined when no stack has made them there yet. */
export function readDataFolderCredentials(dataDir: string): LocalCredentials | undefined {
  let text: string;
  try {
    text = readFileSync(localCredentialsFile(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!validLocalCredentials(parsed)) {
    throw new Error(`${localCredentialsFile(dataDir)} does not hold the local credentials: delete it, the next start makes new ones`);
  }
  return { accessKeyId: parsed.accessKeyId, secretAccessKey: parsed.secretAccessKey };
}

/** The data folder's credentials, made on its first use (created exclusively, 0600, also when an older file was
 * left readable to others). The folder must exist. */
export function dataFolderCredentials(dataDir: string): LocalCredentials {
  const file = localCredentialsFile(dataDir);
  try {
    writeFileSync(file, `${JSON.stringify(randomLocalCredentials())}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  return readDataFolderCredentials(dataDir)!;
}

/** This process, its in-process handlers and the children that inherit its environment use `credentials`. */
export function useLocalCredentials(credentials: LocalCredentials): void {
  Object.assign(process.env, localCredentialsEnvironment(credentials));
}

/** The credentials of this process's environment, or new random ones put there (a process that starts stand-ins of
 * its own, such as the test run's global setup or a benchmark, and hands them to its children). */
export function processLocalCredentials(): LocalCredentials {
  const known = localCredentialsIn(process.env);
  if (known) return known;
  const made = randomLocalCredentials();
  useLocalCredentials(made);
  return made;
}
