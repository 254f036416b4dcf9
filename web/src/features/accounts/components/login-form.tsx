import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { signIn, type Session } from '../api/accounts-api';
import { formProblemsOf, type FieldProblem } from '../form-errors';
import { useFormProblems, useProblemText } from '../hooks/use-form-problems';
import { EmailField } from './email-field';
import { FormProblemAlert } from './form-problem-alert';
import { PasswordField } from './password-field';
import { ResendConfirmation } from './resend-confirmation';

type Field = 'email' | 'password';
const fields: readonly Field[] = ['email', 'password'];

export function LoginForm({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const { t, language } = useI18n();
  const problemText = useProblemText();
  const { formRef, problems, fail, clear } = useFormProblems<Field>();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => signIn(email.trim(), password),
    onSuccess: onSignedIn,
    onError: (error) => fail(formProblemsOf(error, fields, { 'validation.bad_email': 'email' })),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const missing: Partial<Record<Field, FieldProblem>> = {};
    if (!email.trim()) missing.email = 'missing';
    if (!password) missing.password = 'missing';
    if (Object.keys(missing).length) return fail({ fields: missing });
    clear();
    login.mutate();
  }

  return (
    <form ref={formRef} className="auth-form" noValidate onSubmit={submit}>
      <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
      {problems.form === 'email not confirmed' && <ResendConfirmation email={email.trim()} label={t('auth.login.resendConfirmation')} />}
      <EmailField value={email} onChange={setEmail} error={problemText('email', problems.fields.email)} />
      <PasswordField
        id="password"
        label={t('auth.fields.password')}
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={problemText('password', problems.fields.password)}
      />
      <p className="auth-form__aside">
        <Link to={localizePath('/app/auth/forgot-password', language)}>{t('auth.login.forgotLink')}</Link>
      </p>
      <Button type="submit" size="large" fullWidth loading={login.isPending}>
        {t('auth.login.submit')}
      </Button>
      <p className="auth-form__switch">
        {t('auth.login.noAccount')} <Link to={localizePath('/app/auth/register', language)}>{t('auth.login.registerLink')}</Link>
      </p>
    </form>
  );
}
