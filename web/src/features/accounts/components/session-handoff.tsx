import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { authErrorPath } from '../auth-error';
import './auth-forms.css';

/** The session token of a `#token=` fragment, or undefined. */
export function tokenOfFragment(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return token ? token : undefined;
}

/**
 * Takes over a session handed to the web app from elsewhere (docs/web.md, "auth-token"): the token arrives in the
 * URL fragment, which browsers never send to a server nor put in a Referer, is kept as the session cookie and
 * removed from the address bar and history, and the app opens. A link without a token opens the sign-in error page
 * ('invalid token'). An invalid token is found out by the first API call, whose 401 ends the session and opens the
 * login page.
 */
export function SessionHandoff({ onToken }: { onToken: (token: string) => void }) {
  const { t, language } = useI18n();
  const navigate = useNavigate();
  // Once per visit: the first run removes the fragment, so a second one (React's development double effects) would
  // find no token and send a visitor who has just been signed in to the error page.
  const taken = useRef(false);
  useEffect(() => {
    if (taken.current) return;
    taken.current = true;
    const token = tokenOfFragment(window.location.hash);
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    if (token) onToken(token);
    else void navigate(authErrorPath('invalid token', language), { replace: true });
  }, [onToken, navigate, language]);

  return (
    <p className="auth-working" role="status">
      <Spinner /> {t('auth.authToken.working')}
    </p>
  );
}
