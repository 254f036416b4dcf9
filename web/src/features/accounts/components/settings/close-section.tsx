import { useState, type FormEvent } from 'react';
import { Button } from '../../../../components/button/button';
import { useI18n } from '../../../../i18n/i18n-context';
import { useRequestClosure } from '../../api/account-settings-api';
import { formProblemsOf } from '../../form-errors';
import { useFormProblems, useProblemText } from '../../hooks/use-form-problems';
import { FormAlert } from '../form-alert';
import { FormProblemAlert } from '../form-problem-alert';
import { PasswordField } from '../password-field';
import { SettingsSection } from './settings-section';

const consequences = ['streams', 'media', 'destinations', 'billing', 'payments'] as const;

/** Closing the account: what it does, the current password, then a link by e-mail that does it. */
export function CloseSection() {
  const { t } = useI18n();
  const problemText = useProblemText();
  const { formRef, problems, fail, clear } = useFormProblems<'password'>();
  const [password, setPassword] = useState('');
  const request = useRequestClosure();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return fail({ fields: { password: 'missing' } });
    clear();
    request.mutate(password, {
      onSuccess: () => setPassword(''),
      onError: (error) => fail(formProblemsOf(error, ['password'], { 'wrong password': 'password' })),
    });
  }

  return (
    <SettingsSection name="close" tone="danger" title={t('account.close.title')} lead={t('account.close.lead')}>
      <ul className="settings-consequences">
        {consequences.map((item) => (
          <li key={item}>{t(`account.close.what.${item}`)}</li>
        ))}
      </ul>
      {request.isSuccess ? (
        <FormAlert tone="info">
          <p>{t('account.close.sent', { email: request.data.pendingClosure.email })}</p>
          <p>{t('account.close.sentNothingYet')}</p>
        </FormAlert>
      ) : (
        <form ref={formRef} className="settings-form" noValidate onSubmit={submit}>
          <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
          <PasswordField
            id="account-close-password"
            label={t('account.currentPassword')}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            error={problemText('password', problems.fields.password)}
          />
          <div className="settings-form__actions">
            <Button type="submit" variant="red" loading={request.isPending}>
              {t('account.close.submit')}
            </Button>
          </div>
        </form>
      )}
    </SettingsSection>
  );
}
