import { errorKeyOf } from '../../../api/client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { isSignedIn } from '../../../lib/session';
import { accountQueryKey, confirmEmailChange } from '../api/account-settings-api';
import { currentUserQueryKey, type PublicUser } from '../api/accounts-api';
import { FormAlert } from './form-alert';
import './auth-forms.css';

/** A link works once: a second render of the page must wait for the same request rather than spend it again. */
const confirmations = new Map<string, Promise<{ user: PublicUser }>>();
function confirmOnce(token: string) {
  let confirmation = confirmations.get(token);
  if (!confirmation) {
    confirmation = confirmEmailChange(token);
    confirmations.set(token, confirmation);
  }
  return confirmation;
}

/** Follows the link sent to a new address: the account moves there. Works signed in or not. */
export function EmailChangeConfirmation({ token }: { token: string | null }) {
  const { t, errorText, language } = useI18n();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ user: PublicUser } | { failed: ReturnType<typeof errorKeyOf> } | undefined>(
    token ? undefined : { failed: 'invalid token' },
  );
  useEffect(() => {
    if (!token) return;
    let current = true;
    confirmOnce(token).then(
      (answer) => {
        if (!current) return;
        void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
        void queryClient.invalidateQueries({ queryKey: accountQueryKey });
        setOutcome(answer);
      },
      (error: unknown) => current && setOutcome({ failed: errorKeyOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [token, queryClient]);

  const onward = isSignedIn() ? (
    <Link to={localizePath('/app/account', language)}>{t('auth.changeEmail.toAccount')}</Link>
  ) : (
    <Link to={localizePath('/app/auth/login', language)}>{t('auth.changeEmail.toLogin')}</Link>
  );
  if (!outcome) {
    return (
      <p className="auth-working" role="status">
        <Spinner /> {t('auth.changeEmail.working')}
      </p>
    );
  }
  return (
    <div className="auth-form">
      {'user' in outcome ? (
        <FormAlert tone="success">
          <p>{t('auth.changeEmail.done', { email: outcome.user.email })}</p>
          <p>{t('auth.changeEmail.doneNext')}</p>
        </FormAlert>
      ) : (
        <FormAlert tone="error">
          <p>{errorText(outcome.failed)}</p>
          {outcome.failed === 'invalid token' && <p>{t('auth.changeEmail.invalidNext')}</p>}
          {outcome.failed === 'email taken' && <p>{t('auth.changeEmail.takenNext')}</p>}
        </FormAlert>
      )}
      <p className="auth-form__switch">{onward}</p>
    </div>
  );
}
