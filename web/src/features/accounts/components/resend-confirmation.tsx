import { useMutation } from '@tanstack/react-query';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { resendConfirmation } from '../api/accounts-api';
import { formProblemsOf } from '../form-errors';
import { FormAlert } from './form-alert';
import { FormProblemAlert } from './form-problem-alert';

/** "Send the link again" for an address whose account waits for confirmation (POST /confirm/resend). */
export function ResendConfirmation({ email, label }: { email: string; label: string }) {
  const { t } = useI18n();
  const resend = useMutation({ mutationFn: () => resendConfirmation(email) });
  const problems = resend.isError ? formProblemsOf(resend.error, []) : undefined;
  return (
    <div className="resend-confirmation">
      {resend.isSuccess ? (
        <FormAlert tone="success">{t('auth.checkInbox.resent', { email })}</FormAlert>
      ) : (
        <Button variant="secondary" size="small" loading={resend.isPending} onClick={() => resend.mutate()}>
          {label}
        </Button>
      )}
      <FormProblemAlert problem={problems?.form} retryAfterSeconds={problems?.retryAfterSeconds} />
    </div>
  );
}
