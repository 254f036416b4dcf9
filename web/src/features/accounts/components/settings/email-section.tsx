import { useState, type FormEvent } from 'react';
import { Button } from '../../../../components/button/button';
import { useI18n } from '../../../../i18n/i18n-context';
import { useRequestEmailChange, type AccountView } from '../../api/account-settings-api';
import { formProblemsOf } from '../../form-errors';
import { useFormProblems, useNextStepText, useProblemText } from '../../hooks/use-form-problems';
import { FormAlert } from '../form-alert';
import { FormProblemAlert } from '../form-problem-alert';
import { PasswordField } from '../password-field';
import { TextField } from '../text-field';
import { SettingsSection } from './settings-section';

const dateTime = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));

/** The address the account signs in with and gets its e-mails at; a new one takes effect when its link is followed. */
export function EmailSection({ account }: { account: AccountView }) {
  const { t, language } = useI18n();
  const problemText = useProblemText();
  const nextStep = useNextStepText();
  const { formRef, problems, fail, clear } = useFormProblems<'email' | 'password'>();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const request = useRequestEmailChange();
  const pending = account.pendingEmail;

  function submit(event: FormEvent) {
    event.preventDefault();
    const missing = { ...(!email.trim() ? { email: 'missing' as const } : {}), ...(!password ? { password: 'missing' as const } : {}) };
    if (Object.keys(missing).length) return fail({ fields: missing });
    clear();
    request.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          setEmail('');
          setPassword('');
        },
        onError: (error) =>
          fail(
            formProblemsOf(error, ['email', 'password'], {
              'validation.bad_email': 'email',
              'disposable email': 'email',
              'same email': 'email',
              'wrong password': 'password',
            }),
          ),
      },
    );
  }

  return (
    <SettingsSection name="email" title={t('account.email.title')} lead={t('account.email.lead')}>
      <p className="settings-current">
        <span className="settings-current__label">{t('account.email.current')}</span> <strong>{account.user.email}</strong>
      </p>
      {pending && (
        <FormAlert tone="info">
          <p>{t('account.email.pending', { email: pending.email, until: dateTime(pending.expiresAt, language.htmlLang) })}</p>
          <p>{t('account.email.pendingStays', { email: account.user.email })}</p>
        </FormAlert>
      )}
      <form ref={formRef} className="settings-form" noValidate onSubmit={submit}>
        <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
        <TextField
          id="account-new-email"
          label={t('account.email.new')}
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={problemText('email', problems.fields.email)}
          next={nextStep('email', problems.fields.email)}
        />
        <PasswordField
          id="account-email-password"
          label={t('account.currentPassword')}
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          error={problemText('password', problems.fields.password)}
        />
        <div className="settings-form__actions">
          <Button type="submit" loading={request.isPending}>
            {t('account.email.submit')}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
