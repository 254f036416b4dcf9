import { useCallback } from 'react';
import type { MetaArgs } from 'react-router';
import { SessionHandoff } from '../../../features/accounts/components/session-handoff';
import { useSessionStart } from '../../../features/accounts/hooks/use-session-start';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.authToken.title');
export const handle = { pageName: 'auth-auth-token' };

/** `#token=<session token>`: a session handed over from outside the web app (docs/web.md) continues here. */
export default function AuthTokenPage() {
  const { t, language } = useI18n();
  const startSession = useSessionStart();
  const onToken = useCallback((token: string) => startSession({ token }, localizePath('/app/streams', language)), [startSession, language]);
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.authToken.title')}</h1>
      <SessionHandoff onToken={onToken} />
    </>
  );
}
