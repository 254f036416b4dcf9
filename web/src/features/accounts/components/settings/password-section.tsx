import { useState, type FormEvent } from 'react';
import { Button } from '../../../../components/button/button';
import { useI18n } from '../../../../i18n/i18n-context';
import { useChangePassword } from '../../api/account-settings-api';
import { formProblemsOf } from '../../form-errors';
import { useFormProblems, useNextStepText, useProblemText } from '../../hooks/use-form-problems';
import { meetsPasswordRules } from '../../password-rules';
import { FormAlert } from '../form-alert';
import { FormProblemAlert } from '../form-problem-alert';
import { PasswordField } from '../password-field';
import { SettingsSection } from './settings-section';

/** A new password, after the current one; every other device is signed out, this one stays. */
export function PasswordSection({ email }: { email: string }) {
  const { t } = useI18n();
  const problemText = useProblemText();
  const nextStep = useNextStepText();
  const { formRef, problems, fail, clear } = useFormProblems<'currentPassword' | 'newPassword'>();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const change = useChangePassword();

  function submit(event: FormEvent) {
    event.preventDefault();
    const fields = {
      ...(!currentPassword ? { currentPassword: 'missing' as const } : {}),
      ...(!newPassword ? { newPassword: 'missing' as const } : !meetsPasswordRules(newPassword, email) ? { newPassword: 'weak password' as const } : {}),
    };
    if (Object.keys(fields).length) return fail({ fields });
    clear();
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
        },
        onError: (error) =>
          fail(
            formProblemsOf(error, ['currentPassword', 'newPassword'], {
              'wrong password': 'currentPassword',
              'weak password': 'newPassword',
              'same password': 'newPassword',
            }),
          ),
      },
    );
  }

  return (
    <SettingsSection name="password" title={t('account.password.title')} lead={t('account.password.lead')}>
      <form ref={formRef} className="settings-form" noValidate onSubmit={submit}>
        {change.isSuccess && <FormAlert tone="success">{t('account.password.changed', { count: change.data.sessionsEnded })}</FormAlert>}
        <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
        <PasswordField
          id="account-current-password"
          label={t('account.currentPassword')}
          value={currentPassword}
          onChange={setCurrentPassword}
          autoComplete="current-password"
          error={problemText('currentPassword', problems.fields.currentPassword)}
        />
        <PasswordField
          id="account-new-password"
          label={t('auth.fields.newPassword')}
          value={newPassword}
          onChange={setNewPassword}
          autoComplete="new-password"
          error={problemText('newPassword', problems.fields.newPassword)}
          next={nextStep('newPassword', problems.fields.newPassword, { password: newPassword, email })}
          rulesFor={{ email }}
        />
        <div className="settings-form__actions">
          <Button type="submit" loading={change.isPending}>
            {t('account.password.submit')}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
