import { useCallback } from 'react';
import { useSearchParams, type MetaArgs } from 'react-router';
import { type Session } from '../../../features/accounts/api/accounts-api';
import { LoginForm } from '../../../features/accounts/components/login-form';
import { useSessionStart } from '../../../features/accounts/hooks/use-session-start';
import { pathAfterSignIn, RETURN_PARAM } from '../../../features/accounts/return-path';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.login.title');
export const handle = { pageName: 'auth-login' };

export default function LoginPage() {
  const { t, language } = useI18n();
  const [search] = useSearchParams();
  const startSession = useSessionStart();
  const next = search.get(RETURN_PARAM);
  const onSignedIn = useCallback((session: Session) => startSession(session, pathAfterSignIn(next, language)), [startSession, next, language]);
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.login.title')}</h1>
      <p className="auth-shell__lead">{t('auth.login.lead')}</p>
      <LoginForm onSignedIn={onSignedIn} />
    </>
  );
}
