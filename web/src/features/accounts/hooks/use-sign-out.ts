import { useCallback, useState } from 'react';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { leaveForLogin } from '../../../lib/session';
import { signOutOnServer } from '../api/accounts-api';

/**
 * Signs out: the server revokes the session, the cookie goes, and the login page loads afresh, which also ends
 * everything the session had in memory (the realtime connection, cached data, uploads in flight, whose resume
 * entries stay so the same user can continue them after signing in again).
 */
export function useSignOut(): { signOut: () => void; signingOut: boolean } {
  const { language } = useI18n();
  const [signingOut, setSigningOut] = useState(false);
  const signOut = useCallback(() => {
    setSigningOut(true);
    void signOutOnServer().then(() => leaveForLogin(localizePath('/app/auth/login', language), { replace: true }));
  }, [language]);
  return { signOut, signingOut };
}
