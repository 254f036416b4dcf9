// Passwords: scrypt (memory-hard, node:crypto) with a random salt, compared in constant time; a policy that
// refuses short and common passwords (49k most common ones, from @zxcvbn-ts/language-common).
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../errors';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/** scrypt's cost parameters; a stored hash names the ones it was made with, so they can be raised later. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** What every deployed function and `npm start` hash with. N=2^15, r=8: 32 MiB and ~100 ms per hash on a Lambda with
 * 512 MB; OWASP's recommended scrypt floor. (Only the test suite's stacks choose less: test/helpers/stack.ts.) */
export const PASSWORD_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$key`, so parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string, cost: ScryptCost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** What a sign-in with an unknown e-mail verifies against: the current cost and a key of the real length, so it costs
 * what a real check costs and response times do not reveal which accounts exist. No password needs to match it (an
 * unknown e-mail is refused whatever the result), so it is made of zeros: hashing a random password when the module
 * loads cost every Lambda container's cold start about 100 ms of CPU and 32 MiB (scrypt's memory). */
export const decoyHash = (cost: ScryptCost = PASSWORD_COST): string =>
  ['scrypt', cost.N, cost.r, cost.p, Buffer.alloc(16).toString('base64'), Buffer.alloc(KEY_LENGTH).toString('base64')].join('$');

let commonPasswords: Promise<Set<string>> | undefined;
/** The list loads on the first check, not with the module (as email-address.ts's). */
const isCommon = async (password: string) =>
  (await (commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'] as string[])))).has(
    password.toLowerCase(),
  );

export async function checkPasswordPolicy(password: string, email: string): Promise<void> {
  const tooShort = [...password].length < PASSWORD_MIN_LENGTH;
  const sameAsEmail = password.toLowerCase() === email.toLowerCase() || password.toLowerCase() === email.split('@')[0]?.toLowerCase();
  if (tooShort || sameAsEmail || (await isCommon(password)) || new Set(password).size < 4) throw new AppError('weak password');
}
