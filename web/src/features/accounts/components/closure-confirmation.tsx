import { errorKeyOf } from '../../../api/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { endSession, isSignedIn } from '../../../lib/session';
import { confirmClosure } from '../api/account-settings-api';
import { FormAlert } from './form-alert';
import './auth-forms.css';

const consequences = ['streams', 'media', 'destinations', 'billing', 'payments'] as const;

/**
 * The last step of closing an account, from the e-mailed link: what happens, once more, and a button (opening the
 * link alone changes nothing, so a mail scanner that follows links cannot close an account). Then this browser's
 * session is gone with the account.
 */
export function ClosureConfirmation({ token }: { token: string | null }) {
  const { t, errorText, language } = useI18n();
  const queryClient = useQueryClient();
  const close = useMutation({
    mutationFn: () => confirmClosure(token ?? ''),
    onSuccess: () => {
      endSession();
      queryClient.clear();
    },
  });

  if (close.isSuccess) {
    return (
      <div className="auth-done" role="status">
        <p className="auth-done__title">{t('auth.closeAccount.done')}</p>
        <p>{t('auth.closeAccount.doneBody')}</p>
        <Link className="button button--primary button--regular" to={localizePath('/', language)}>
          {t('auth.closeAccount.home')}
        </Link>
      </div>
    );
  }
  const failed = token ? (close.isError ? errorKeyOf(close.error) : undefined) : 'invalid token';
  return (
    <div className="auth-form">
      <p>{t('auth.closeAccount.lead')}</p>
      <ul className="auth-form__list">
        {consequences.map((item) => (
          <li key={item}>{t(`account.close.what.${item}`)}</li>
        ))}
      </ul>
      {failed && (
        <FormAlert tone="error">
          <p>{errorText(failed)}</p>
          {failed === 'invalid token' && <p>{t('auth.closeAccount.invalidNext')}</p>}
        </FormAlert>
      )}
      <Button variant="red" fullWidth loading={close.isPending} disabled={!token || failed === 'invalid token'} onClick={() => close.mutate()}>
        {t('auth.closeAccount.submit')}
      </Button>
      <p className="auth-form__switch">
        <Link to={localizePath(isSignedIn() ? '/app/dashboard' : '/', language)}>{t('auth.closeAccount.keep')}</Link>
      </p>
    </div>
  );
}
