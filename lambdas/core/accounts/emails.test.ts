import { languageCodes } from '../languages';
import { checkNotDisposable, normalizeEmail } from './email-address';
import { confirmationEmail, passwordResetEmail } from './emails';

describe('account e-mails', () => {
  test.each(languageCodes)('confirmation in %s links to the confirm page in that language', (language) => {
    const mail = confirmationEmail({ email: 'a@b.co', displayName: 'Ana', language }, 'https://loopcast.app', 'tok/en+', 48 * 3600);
    const prefix = language === 'en' ? '' : `/${language}`;
    expect(mail.link).toBe(`https://loopcast.app${prefix}/app/auth/confirm?token=tok%2Fen%2B`);
    expect(mail.text).toContain(mail.link);
    expect(mail.text).toContain('Ana');
    expect(mail.text).toContain('48');
  });

  test('each language has its own wording', () => {
    const subjects = languageCodes.map((language) => passwordResetEmail({ email: 'a@b.co', displayName: 'A', language }, 'https://x', 't', 3600).subject);
    expect(new Set(subjects).size).toBe(languageCodes.length);
  });

  test('addresses are normalised and throwaway providers refused', async () => {
    expect(normalizeEmail('  Ana@Example.COM ')).toBe('ana@example.com');
    await expect(checkNotDisposable('x@mailinator.com')).rejects.toThrow('Temporary email addresses is not allowed');
    await expect(checkNotDisposable('x@guerrillamail.com')).rejects.toThrow();
    await expect(checkNotDisposable('ana@gmail.com')).resolves.toBeUndefined();
  });
});
