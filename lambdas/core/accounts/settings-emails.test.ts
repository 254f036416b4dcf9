import { languageCodes } from '../languages';
import {
  accountClosedEmail,
  closeAccountEmail,
  emailChangedEmail,
  emailChangeEmail,
  emailInUseEmail,
  maskedAddress,
  passwordChangedEmail,
} from './settings-emails';
import { lastUseDue } from './settings';

const ana = (language: (typeof languageCodes)[number]) => ({ email: 'ana@example.com', displayName: 'Ana', language });

describe('account page e-mails', () => {
  test.each(languageCodes)('in %s, each links to its page in that language', (language) => {
    const prefix = language === 'en' ? '' : `/${language}`;
    const change = emailChangeEmail(ana(language), 'new@example.org', 'https://loopcast.app', 'tok/+', 48 * 3600);
    expect(change).toMatchObject({ to: 'new@example.org', link: `https://loopcast.app${prefix}/app/auth/change-email?token=tok%2F%2B` });
    expect(change.text).toContain(change.link);
    expect(change.text).toContain('48');
    const close = closeAccountEmail(ana(language), 'https://loopcast.app', 't', 24 * 3600);
    expect(close).toMatchObject({ to: 'ana@example.com', link: `https://loopcast.app${prefix}/app/auth/close-account?token=t` });
    expect(close.text).toContain('24');
    expect(passwordChangedEmail(ana(language), 'https://loopcast.app').link).toBe(`https://loopcast.app${prefix}/app/auth/forgot-password`);
    expect(emailInUseEmail(language, 'taken@example.org', 'https://loopcast.app')).toMatchObject({
      to: 'taken@example.org',
      link: `https://loopcast.app${prefix}/app/auth/login`,
    });
    expect(accountClosedEmail(ana(language), 'https://loopcast.app').text).toContain('Ana');
  });

  test('every e-mail has its own wording in each language', () => {
    const subjects = languageCodes.flatMap((language) => [
      emailChangeEmail(ana(language), 'n@x.org', 'https://x', 't', 3600).subject,
      emailInUseEmail(language, 'n@x.org', 'https://x').subject,
      emailChangedEmail(ana(language), 'ana@example.com', 'n@x.org', 'https://x').subject,
      passwordChangedEmail(ana(language), 'https://x').subject,
      closeAccountEmail(ana(language), 'https://x', 't', 3600).subject,
      accountClosedEmail(ana(language), 'https://x').subject,
    ]);
    expect(new Set(subjects).size).toBe(subjects.length);
  });

  test('the old address learns the new one only masked', () => {
    expect(maskedAddress('nora.lofi@gmail.com')).toBe('n•••@gmail.com');
    const notice = emailChangedEmail(ana('en'), 'ana@example.com', 'nora.lofi@gmail.com', 'https://x');
    expect(notice).toMatchObject({ to: 'ana@example.com' });
    expect(notice.text).toContain('n•••@gmail.com');
    expect(notice.text).not.toContain('nora.lofi');
  });
});

describe('recording when a session was last used', () => {
  const at = (iso: string) => new Date(iso);
  test('at most once an hour', () => {
    expect(lastUseDue({ createdAt: '2026-11-24T10:00:00.000Z' }, at('2026-11-24T10:59:59.000Z'))).toBe(false);
    expect(lastUseDue({ createdAt: '2026-11-24T10:00:00.000Z' }, at('2026-11-24T11:00:00.000Z'))).toBe(true);
    expect(lastUseDue({ createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: '2026-11-24T10:30:00.000Z' }, at('2026-11-24T11:00:00.000Z'))).toBe(false);
  });
});
