import { Link } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { isSignedIn } from '../../../lib/session';
import { authErrorReason } from '../auth-error';
import { FormAlert } from './form-alert';
import './auth-forms.css';

/**
 * Why a sign-in step failed (`reason`, an error catalogue key; anything else reads as a general failure) and the way
 * on: back to the login page, or to the streams for a visitor who still has a session.
 */
export function AuthErrorNotice({ reason }: { reason: string | null }) {
  const { t, errorText, language } = useI18n();
  const known = authErrorReason(reason);
  const signedIn = isSignedIn();
  return (
    <div className="auth-form">
      <FormAlert tone="error">
        <p>{known ? errorText(known) : t('auth.error.unknown')}</p>
      </FormAlert>
      {!signedIn && <p className="auth-form__lead">{t('auth.error.lead')}</p>}
      <p className="auth-form__switch">
        {signedIn ? (
          <Link to={localizePath('/app/streams', language)}>{t('auth.error.streamsLink')}</Link>
        ) : (
          <Link to={localizePath('/app/auth/login', language)}>{t('auth.forgotPassword.backToLogin')}</Link>
        )}
      </p>
    </div>
  );
}
