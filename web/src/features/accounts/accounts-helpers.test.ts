import { ApiError } from '../../api/client';
import { languageByCode } from '../../i18n/languages';
import { formProblemsOf } from './form-errors';
import { failedPasswordRule, passwordRules, PASSWORD_MIN_LENGTH, meetsPasswordRules } from './password-rules';
import { PASSWORD_MIN_LENGTH as SERVER_MIN_LENGTH } from '@loopcast/core/accounts/passwords';
import { pathAfterSignIn, withReturnPath } from './return-path';
import { formatWait } from './wait-time';

describe('where signing in leads', () => {
  const ru = languageByCode('ru');
  test.each([
    ['/ru/app/videos', '/ru/app/videos'],
    ['/app/billing?checkout=cs_1', '/app/billing?checkout=cs_1'],
    [null, '/ru/app/streams'],
    ['', '/ru/app/streams'],
    ['//evil.example/app/videos', '/ru/app/streams'],
    ['https://evil.example/app/videos', '/ru/app/streams'],
    ['/\\evil.example', '/ru/app/streams'],
    ['/app/auth/login', '/ru/app/streams'],
    ['/pricing', '/ru/app/streams'],
  ])('next=%p goes to %p', (next, target) => {
    expect(pathAfterSignIn(next, ru)).toBe(target);
  });

  test('the guard adds the page it sent away from, for the login page only', () => {
    expect(withReturnPath('/es/app/auth/login', new URL('https://x/es/app/videos?tab=2'))).toBe('/es/app/auth/login?next=%2Fes%2Fapp%2Fvideos%3Ftab%3D2');
    expect(withReturnPath('/app/auth/login', new URL('https://x/app'))).toBe('/app/auth/login');
    expect(withReturnPath('/app/auth/login', new URL('https://x/app/auth/error'))).toBe('/app/auth/login');
    expect(withReturnPath('/app/streams', new URL('https://x/app/auth/login'))).toBe('/app/streams');
  });
});

describe('form problems from API refusals', () => {
  const fields = ['displayName', 'email', 'password', 'acceptTerms'] as const;
  test('validation details name the fields, with their catalogue key or "invalid"', () => {
    const error = new ApiError('registration error', 400, {
      fields: { acceptTerms: 'registration error', displayName: 'Too small: expected string to have >=1 characters' },
    });
    expect(formProblemsOf(error, fields)).toEqual({ fields: { acceptTerms: 'registration error', displayName: 'invalid' } });
  });

  test('a key known to concern a field goes there; other keys are about the whole form', () => {
    expect(formProblemsOf(new ApiError('already exists', 409), fields, { 'already exists': 'email' })).toEqual({ fields: { email: 'already exists' } });
    expect(formProblemsOf(new ApiError('invalid credentials', 401), fields, { 'already exists': 'email' })).toEqual({
      fields: {},
      form: 'invalid credentials',
    });
    expect(formProblemsOf(new ApiError('network error', 0), fields)).toEqual({ fields: {}, form: 'network error' });
    expect(formProblemsOf(new Error('bug'), fields)).toEqual({ fields: {}, form: 'internal error' });
  });

  test('too many requests carries the seconds to wait', () => {
    expect(formProblemsOf(new ApiError('too many requests', 429, { retryAfterSeconds: 840 }), fields)).toEqual({
      fields: {},
      form: 'too many requests',
      retryAfterSeconds: 840,
    });
  });
});

describe('password rules', () => {
  test('the length is the server’s', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(SERVER_MIN_LENGTH);
  });

  test.each([
    ['short', 'a@b.co', { length: false, distinct: true, notEmail: true }],
    ['aaaaaaaaaaaa', 'a@b.co', { length: true, distinct: false, notEmail: true }],
    ['ana.creator', 'Ana.Creator@example.com', { length: true, distinct: true, notEmail: false }],
    ['ana.creator@example.com', 'ana.creator@example.com', { length: true, distinct: true, notEmail: false }],
    ['correct horse battery', 'ana@example.com', { length: true, distinct: true, notEmail: true }],
  ])('%p with %p', (password, email, expected) => {
    expect(passwordRules(password, email)).toEqual(expected);
    expect(meetsPasswordRules(password, email)).toBe(Object.values(expected).every(Boolean));
  });
});

test('waiting times read naturally in the page language', () => {
  expect(formatWait(30, 'en')).toBe('30 seconds');
  expect(formatWait(840, 'en')).toBe('14 minutes');
  expect(formatWait(61, 'ru')).toBe('61 секунда');
  expect(formatWait(900, 'uk')).toBe('15 хвилин');
});

test("a refused password names the rule it broke; one that passes the browser's rules broke the common-password rule", () => {
  expect(failedPasswordRule('short', 'ana@example.com')).toBe('length');
  expect(failedPasswordRule('aaaaabbbbb', 'ana@example.com')).toBe('distinct');
  expect(failedPasswordRule('ana@example.com', 'ana@example.com')).toBe('notEmail');
  expect(failedPasswordRule('password123', 'ana@example.com')).toBe('common');
});
