import { useCallback } from 'react';
import { useSearchParams, type MetaArgs } from 'react-router';
import type { Session } from '../../../features/accounts/api/accounts-api';
import { EmailConfirmation } from '../../../features/accounts/components/email-confirmation';
import { useSessionStart } from '../../../features/accounts/hooks/use-session-start';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.confirm.title');
export const handle = { pageName: 'auth-confirm' };

/** The e-mailed confirmation link: confirms the address, signs the user in and opens the dashboard. */
export default function ConfirmPage() {
  const { t, language } = useI18n();
  const [search] = useSearchParams();
  const startSession = useSessionStart();
  const onConfirmed = useCallback((session: Session) => startSession(session, localizePath('/app/dashboard', language)), [startSession, language]);
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.confirm.title')}</h1>
      <EmailConfirmation token={search.get('token')} onConfirmed={onConfirmed} />
    </>
  );
}
