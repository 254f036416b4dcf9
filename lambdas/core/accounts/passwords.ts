// Passwords: scrypt (memory-hard, node:crypto) with a random salt, compared in constant time; a policy that
// refuses short and common passwords (49k most common ones, from @zxcvbn-ts/language-common).
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from '../errors';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

// N=2^15, r=8: 32 MiB and ~100 ms per hash on a Lambda with 512 MB; OWASP's recommended scrypt floor.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$key`, so parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A stored hash of a random password: verifying against it costs what a real check costs, so an unknown
 * e-mail takes as long as a wrong password and response times do not reveal which accounts exist. */
export const DECOY_HASH = hashPassword(randomBytes(24).toString('base64'));

let commonPasswords: Set<string> | undefined;
const isCommon = (password: string) => (commonPasswords ??= new Set(dictionary['passwords-common'] as string[])).has(password.toLowerCase());

export function checkPasswordPolicy(password: string, email: string): void {
  const tooShort = [...password].length < PASSWORD_MIN_LENGTH;
  const sameAsEmail = password.toLowerCase() === email.toLowerCase() || password.toLowerCase() === email.split('@')[0]?.toLowerCase();
  if (tooShort || sameAsEmail || isCommon(password) || new Set(password).size < 4) throw new AppError('weak password');
}
