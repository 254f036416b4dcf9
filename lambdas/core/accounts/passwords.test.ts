import { AppError } from '../errors';
import { checkPasswordPolicy, decoyHash, hashPassword, PASSWORD_COST, verifyPassword } from './passwords';

/** A cost below the product's, as the test stacks use. */
const CHEAP = { N: 1024, r: 8, p: 1 };

describe('passwords', () => {
  test("the product's cost: OWASP's scrypt floor (N=2^15, r=8, p=1)", () => {
    expect(PASSWORD_COST).toEqual({ N: 32768, r: 8, p: 1 });
  });

  test('a hash verifies its password only, and never contains it', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('horse');
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash); // salted
  });

  test('unicode passwords are normalised (NFKC) before hashing', async () => {
    const hash = await hashPassword('ｐａｓｓｗｏｒｄ　ｌｏｎｇ　ｅｎｏｕｇｈ');
    expect(await verifyPassword('password long enough', hash)).toBe(true);
  });

  test('malformed stored hashes never verify', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$salt$key')).toBe(false);
  });

  test('a hash names its cost, and verifies whatever the cost now is', async () => {
    const hash = await hashPassword('correct horse battery staple', CHEAP);
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
  });

  test.each([
    ["the product's cost", PASSWORD_COST],
    ['a cheaper cost', CHEAP],
  ])('the decoy an unknown e-mail is verified against costs what a real hash costs (%s), and matches nothing', async (_, cost) => {
    // The same scheme, parameters, salt length and key length as a real hash: the same scrypt work and comparison.
    const shape = (hash: string) => hash.split('$').map((field, i) => (i < 4 ? field : Buffer.from(field, 'base64').length));
    expect(shape(decoyHash(cost))).toEqual(shape(await hashPassword('correct horse battery staple', cost)));
    expect(await verifyPassword('', decoyHash(cost))).toBe(false);
    expect(await verifyPassword('correct horse battery staple', decoyHash(cost))).toBe(false);
  });

  test.each([
    ['too short', 'abc123xyz'],
    ['a common password', 'iloveyou12'],
    ['repeated characters', 'aaaaaaaaaaaa'],
    ['the e-mail itself', 'ana@example.com'],
    ['the e-mail local part', 'ANA.CREATOR'.toLowerCase()],
  ])('refuses %s', async (_, password) => {
    const email = password.includes('@') ? password : 'ana.creator@example.com';
    await expect(checkPasswordPolicy(password, email)).rejects.toThrow(new AppError('weak password'));
  });

  test('accepts a long passphrase', async () => {
    await expect(checkPasswordPolicy('correct horse battery staple', 'ana@example.com')).resolves.toBeUndefined();
  });
});
