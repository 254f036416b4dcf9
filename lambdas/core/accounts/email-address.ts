import { AppError } from '../errors';

/** E-mail addresses compare case-insensitively and without surrounding spaces. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Refuses throwaway addresses with mailchecker's maintained list (thousands of providers). The syntax itself is
 * checked by the request schema ('validation.bad_email'). The list loads on the first check, not with the module:
 * every Lambda imports the accounts domain, and few of them take addresses (docs/decisions.md, cold starts). */
export async function checkNotDisposable(email: string): Promise<void> {
  const { default: MailChecker } = await import('mailchecker');
  if (!MailChecker.isValid(email)) throw new AppError('disposable email');
}
