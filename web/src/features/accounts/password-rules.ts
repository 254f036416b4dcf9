// The password rules the server enforces (docs/accounts.md), as far as the browser can check them before
// submitting. The server also refuses the 49,000 most common passwords, which is not worth shipping to every page.

/** lambdas/core/accounts/passwords.ts PASSWORD_MIN_LENGTH (that module hashes passwords: server-only). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MIN_DISTINCT = 4;

export type PasswordRule = 'length' | 'distinct' | 'notEmail';

export function passwordRules(password: string, email: string): Record<PasswordRule, boolean> {
  const lower = password.toLowerCase();
  const address = email.trim().toLowerCase();
  const localPart = address.split('@')[0] ?? '';
  return {
    length: [...password].length >= PASSWORD_MIN_LENGTH,
    distinct: new Set(password).size >= PASSWORD_MIN_DISTINCT,
    notEmail: password === '' || (lower !== address && (localPart === '' || lower !== localPart)),
  };
}

export const meetsPasswordRules = (password: string, email: string): boolean => Object.values(passwordRules(password, email)).every(Boolean);

/** The first rule a refused password breaks; 'common' when it passes every rule the browser can check. */
export function failedPasswordRule(password: string, email: string): PasswordRule | 'common' {
  const met = passwordRules(password, email);
  return (Object.keys(met) as PasswordRule[]).find((rule) => !met[rule]) ?? 'common';
}
