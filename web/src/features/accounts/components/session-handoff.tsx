import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { FormAlert } from './form-alert';

/** The session token of a `#token=` fragment, or undefined. */
export function tokenOfFragment(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return token ? token : undefined;
}

/**
 * Takes over a session handed to the web app from elsewhere (docs/web.md, "auth-token"): the token arrives in the
 * URL fragment, which browsers never send to a server nor put in a Referer, is kept as the session cookie and
 * removed from the address bar and history, and the app opens. An invalid token is found out by the first API
 * call, whose 401 ends the session and opens the login page.
 */
export function SessionHandoff({ onToken }: { onToken: (token: string) => void }) {
  const { t, language } = useI18n();
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    const token = tokenOfFragment(window.location.hash);
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    if (token) onToken(token);
    else setMissing(true);
  }, [onToken]);

  if (!missing) {
    return (
      <p className="auth-working" role="status">
        <Spinner /> {t('auth.authToken.working')}
      </p>
    );
  }
  return (
    <div className="auth-form">
      <FormAlert tone="error">{t('auth.authToken.missing')}</FormAlert>
      <p className="auth-form__switch">
        <Link to={localizePath('/app/auth/login', language)}>{t('auth.register.loginLink')}</Link>
      </p>
    </div>
  );
}
