import MailChecker from 'mailchecker';
import { AppError } from '../errors';

/** E-mail addresses compare case-insensitively and without surrounding spaces. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Refuses throwaway addresses with mailchecker's maintained list (thousands of providers). The syntax itself is
 * checked by the request schema ('validation.bad_email'). */
export function checkNotDisposable(email: string): void {
  if (!MailChecker.isValid(email)) throw new AppError('disposable email');
}
