import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { TRIAL_DAYS } from '@loopcast/core/plans';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { register } from '../api/accounts-api';
import { formProblemsOf, type FieldProblem } from '../form-errors';
import { useFormProblems, useNextStepText, useProblemText } from '../hooks/use-form-problems';
import { meetsPasswordRules } from '../password-rules';
import { CheckboxField } from './checkbox-field';
import { CheckInbox } from './check-inbox';
import { EmailField } from './email-field';
import { FormProblemAlert } from './form-problem-alert';
import { LinkedText } from './linked-text';
import { PasswordField } from './password-field';
import { TextField } from './text-field';

type Field = 'displayName' | 'email' | 'password' | 'acceptTerms' | 'ageConfirmed';
const fields: readonly Field[] = ['displayName', 'email', 'password', 'acceptTerms', 'ageConfirmed'];

/** Registration in the page's language (the language of the account's e-mails), then "check your inbox". */
export function RegisterForm() {
  const { t, language } = useI18n();
  const problemText = useProblemText();
  const nextStep = useNextStepText();
  const { formRef, problems, fail, clear } = useFormProblems<Field>();
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [ageConfirmed, setAgeConfirmed] = useState(false);
  const registration = useMutation({
    mutationFn: () => register({ displayName: displayName.trim(), email: email.trim(), password, language: language.code, acceptTerms, ageConfirmed }),
    onError: (error) =>
      fail(
        formProblemsOf(error, fields, {
          'validation.bad_email': 'email',
          'disposable email': 'email',
          'weak password': 'password',
        }),
      ),
  });

  if (registration.isSuccess) return <CheckInbox email={registration.data.email} />;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, FieldProblem>> = {};
    if (!displayName.trim()) found.displayName = 'missing';
    if (!email.trim()) found.email = 'missing';
    if (!password) found.password = 'missing';
    else if (!meetsPasswordRules(password, email)) found.password = 'weak password';
    if (!acceptTerms) found.acceptTerms = 'missing';
    if (!ageConfirmed) found.ageConfirmed = 'missing';
    if (Object.keys(found).length) return fail({ fields: found });
    clear();
    registration.mutate();
  }

  const legalLink = (path: string, text: string) => (
    <a href={path} target="_blank" rel="noopener">
      {text}
    </a>
  );
  return (
    <form ref={formRef} className="auth-form" noValidate onSubmit={submit}>
      <p className="auth-form__lead">{t('auth.register.lead', { days: TRIAL_DAYS })}</p>
      <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
      <TextField
        id="displayName"
        label={t('auth.register.displayName')}
        name="displayName"
        autoComplete="name"
        maxLength={80}
        value={displayName}
        onChange={(event) => setDisplayName(event.target.value)}
        error={problemText('displayName', problems.fields.displayName)}
      />
      <EmailField value={email} onChange={setEmail} error={problemText('email', problems.fields.email)} next={nextStep('email', problems.fields.email)} />
      <PasswordField
        id="password"
        label={t('auth.fields.password')}
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        error={problemText('password', problems.fields.password)}
        next={nextStep('password', problems.fields.password, { password, email })}
        rulesFor={{ email }}
      />
      <CheckboxField
        id="acceptTerms"
        checked={acceptTerms}
        onChange={(event) => setAcceptTerms(event.target.checked)}
        error={problemText('acceptTerms', problems.fields.acceptTerms)}
        label={
          <LinkedText
            text={t('auth.register.acceptTerms')}
            parts={{ terms: legalLink('/terms', t('auth.register.termsLink')), privacy: legalLink('/privacy', t('auth.register.privacyLink')) }}
          />
        }
      />
      <CheckboxField
        id="ageConfirmed"
        checked={ageConfirmed}
        onChange={(event) => setAgeConfirmed(event.target.checked)}
        error={problemText('ageConfirmed', problems.fields.ageConfirmed)}
        label={t('auth.register.ageConfirmed')}
      />
      <Button type="submit" size="large" fullWidth loading={registration.isPending}>
        {t('auth.register.submit')}
      </Button>
      <p className="auth-form__switch">
        {t('auth.register.haveAccount')} <Link to={localizePath('/app/auth/login', language)}>{t('auth.register.loginLink')}</Link>
      </p>
    </form>
  );
}
