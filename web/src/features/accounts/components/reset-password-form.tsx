import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { resetPassword, type Session } from '../api/accounts-api';
import { formProblemsOf } from '../form-errors';
import { useFormProblems, useNextStepText, useProblemText } from '../hooks/use-form-problems';
import { meetsPasswordRules } from '../password-rules';
import { FormAlert } from './form-alert';
import { FormProblemAlert } from './form-problem-alert';
import { PasswordField } from './password-field';

/** A new password for the account of the e-mailed link (`token`); success signs the user in. */
export function ResetPasswordForm({ token, onSignedIn }: { token: string | null; onSignedIn: (session: Session) => void }) {
  const { t, language } = useI18n();
  const problemText = useProblemText();
  const nextStep = useNextStepText();
  const { formRef, problems, fail, clear } = useFormProblems<'password'>();
  const [password, setPassword] = useState('');
  const reset = useMutation({
    mutationFn: () => resetPassword(token ?? '', password),
    onSuccess: onSignedIn,
    onError: (error) => fail(formProblemsOf(error, ['password'], { 'weak password': 'password' })),
  });
  const requestNewLink = (
    <p className="auth-form__switch">
      <Link to={localizePath('/app/auth/forgot-password', language)}>{t('auth.resetPassword.requestNew')}</Link>
    </p>
  );

  if (!token) {
    return (
      <div className="auth-form">
        <FormAlert tone="error">{t('auth.resetPassword.missingToken')}</FormAlert>
        {requestNewLink}
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return fail({ fields: { password: 'missing' } });
    // The e-mail is not known here; the server checks that rule.
    if (!meetsPasswordRules(password, '')) return fail({ fields: { password: 'weak password' } });
    clear();
    reset.mutate();
  }

  return (
    <form ref={formRef} className="auth-form" noValidate onSubmit={submit}>
      <p className="auth-form__lead">{t('auth.resetPassword.lead')}</p>
      <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
      <PasswordField
        id="password"
        label={t('auth.fields.newPassword')}
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        error={problemText('password', problems.fields.password)}
        next={nextStep('password', problems.fields.password, { password, email: '' })}
        rulesFor={{}}
      />
      <Button type="submit" size="large" fullWidth loading={reset.isPending}>
        {t('auth.resetPassword.submit')}
      </Button>
      {problems.form === 'invalid token' && requestNewLink}
    </form>
  );
}
