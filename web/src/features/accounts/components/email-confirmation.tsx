import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { confirmEmail, resendConfirmation, type Session } from '../api/accounts-api';
import { formProblemsOf } from '../form-errors';
import { useFormProblems, useProblemText } from '../hooks/use-form-problems';
import { EmailField } from './email-field';
import { FormAlert } from './form-alert';
import { FormProblemAlert } from './form-problem-alert';

/** A confirmation link works once: a second render of the page (or React's development double effects) must
 * wait for the same request rather than spend the token again. */
const confirmations = new Map<string, Promise<Session>>();
function confirmOnce(token: string): Promise<Session> {
  let confirmation = confirmations.get(token);
  if (!confirmation) {
    confirmation = confirmEmail(token);
    confirmations.set(token, confirmation);
  }
  return confirmation;
}

function NewLinkForm() {
  const { t } = useI18n();
  const problemText = useProblemText();
  const { formRef, problems, fail, clear } = useFormProblems<'email'>();
  const [email, setEmail] = useState('');
  const resend = useMutation({
    mutationFn: (address: string) => resendConfirmation(address),
    onError: (error) => fail(formProblemsOf(error, ['email'], { 'validation.bad_email': 'email' })),
  });
  if (resend.isSuccess) return <FormAlert tone="success">{t('auth.checkInbox.resent', { email: resend.variables })}</FormAlert>;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) return fail({ fields: { email: 'missing' } });
    clear();
    resend.mutate(email.trim());
  }
  return (
    <form ref={formRef} className="auth-form" noValidate onSubmit={submit}>
      <p>{t('auth.confirm.resendLead')}</p>
      <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
      <EmailField value={email} onChange={setEmail} error={problemText('email', problems.fields.email)} />
      <Button type="submit" variant="secondary" fullWidth loading={resend.isPending}>
        {t('auth.confirm.resendSubmit')}
      </Button>
    </form>
  );
}

/** Confirms the address of the e-mailed link (`token`), which also signs the user in. */
export function EmailConfirmation({ token, onConfirmed }: { token: string | null; onConfirmed: (session: Session) => void }) {
  const { t, errorText, language } = useI18n();
  const [failure, setFailure] = useState<ReturnType<typeof formProblemsOf> | undefined>(token ? undefined : { fields: {}, form: 'invalid token' });
  useEffect(() => {
    if (!token) return;
    let current = true;
    confirmOnce(token).then(
      (session) => current && onConfirmed(session),
      (error: unknown) => current && setFailure(formProblemsOf(error, [])),
    );
    return () => {
      current = false;
    };
  }, [token, onConfirmed]);

  if (!failure) {
    return (
      <p className="auth-working" role="status">
        <Spinner /> {t('auth.confirm.working')}
      </p>
    );
  }
  return (
    <div className="auth-form">
      <FormAlert tone="error">
        <p>{errorText(failure.form ?? 'invalid token')}</p>
      </FormAlert>
      {failure.form === 'invalid token' && <NewLinkForm />}
      <p className="auth-form__switch">
        <Link to={localizePath('/app/auth/login', language)}>{t('auth.forgotPassword.backToLogin')}</Link>
      </p>
    </div>
  );
}
