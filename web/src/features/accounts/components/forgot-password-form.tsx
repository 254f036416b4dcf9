import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { requestPasswordReset } from '../api/accounts-api';
import { formProblemsOf } from '../form-errors';
import { useFormProblems, useProblemText } from '../hooks/use-form-problems';
import { EmailField } from './email-field';
import { FormAlert } from './form-alert';
import { FormProblemAlert } from './form-problem-alert';

/** Asks for a reset link. The answer is the same whether or not an account uses the address. */
export function ForgotPasswordForm() {
  const { t, language } = useI18n();
  const problemText = useProblemText();
  const { formRef, problems, fail, clear } = useFormProblems<'email'>();
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: (address: string) => requestPasswordReset(address),
    onError: (error) => fail(formProblemsOf(error, ['email'], { 'validation.bad_email': 'email' })),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) return fail({ fields: { email: 'missing' } });
    clear();
    request.mutate(email.trim());
  }

  const backToLogin = (
    <p className="auth-form__switch">
      <Link to={localizePath('/app/auth/login', language)}>{t('auth.forgotPassword.backToLogin')}</Link>
    </p>
  );
  if (request.isSuccess) {
    return (
      <div className="auth-form">
        <FormAlert tone="success">{t('auth.forgotPassword.sent', { email: request.variables })}</FormAlert>
        {backToLogin}
      </div>
    );
  }
  return (
    <form ref={formRef} className="auth-form" noValidate onSubmit={submit}>
      <p className="auth-form__lead">{t('auth.forgotPassword.lead')}</p>
      <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
      <EmailField value={email} onChange={setEmail} error={problemText('email', problems.fields.email)} />
      <Button type="submit" size="large" fullWidth loading={request.isPending}>
        {t('auth.forgotPassword.submit')}
      </Button>
      {backToLogin}
    </form>
  );
}
