import { AppError } from '../errors';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
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

  test.each([
    ['too short', 'abc123xyz'],
    ['a common password', 'iloveyou12'],
    ['repeated characters', 'aaaaaaaaaaaa'],
    ['the e-mail itself', 'ana@example.com'],
    ['the e-mail local part', 'ANA.CREATOR'.toLowerCase()],
  ])('refuses %s', (_, password) => {
    const email = password.includes('@') ? password : 'ana.creator@example.com';
    expect(() => checkPasswordPolicy(password, email)).toThrow(new AppError('weak password'));
  });

  test('accepts a long passphrase', () => {
    expect(() => checkPasswordPolicy('correct horse battery staple', 'ana@example.com')).not.toThrow();
  });
});
