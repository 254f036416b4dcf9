import { useCallback } from 'react';
import { useSearchParams, type MetaArgs } from 'react-router';
import type { Session } from '../../../features/accounts/api/accounts-api';
import { ResetPasswordForm } from '../../../features/accounts/components/reset-password-form';
import { useSessionStart } from '../../../features/accounts/hooks/use-session-start';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.resetPassword.title');
export const handle = { pageName: 'auth-reset-password' };

export default function ResetPasswordPage() {
  const { t, language } = useI18n();
  const [search] = useSearchParams();
  const startSession = useSessionStart();
  const onSignedIn = useCallback((session: Session) => startSession(session, localizePath('/app/streams', language)), [startSession, language]);
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.resetPassword.title')}</h1>
      <ResetPasswordForm token={search.get('token')} onSignedIn={onSignedIn} />
    </>
  );
}
