import { NavLink } from 'react-router';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { useCurrentUser } from '../api/accounts-api';
import { useSignOut } from '../hooks/use-sign-out';
import './auth-forms.css';

/** The signed-in user's initial in a circle (decorative: the name is written next to it or in a label). */
export function AccountAvatar() {
  const name = useCurrentUser().data?.displayName ?? '';
  return (
    <span className="account-menu__avatar" aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || '·'}
    </span>
  );
}

/** Who is signed in (a link to the account page), and signing out. */
export function AccountMenu() {
  const { t, language } = useI18n();
  const user = useCurrentUser();
  const { signOut, signingOut } = useSignOut();
  const name = user.data?.displayName ?? '';
  return (
    <div className="account-menu">
      <AccountAvatar />
      <NavLink className="account-menu__who" to={localizePath('/app/account', language)}>
        <span className="account-menu__name">{name}</span>
        <span className="account-menu__email">{user.data?.email}</span>
        <span className="account-menu__settings">{t('app.pages.account.title')}</span>
      </NavLink>
      <Button variant="transparent" size="small" className="account-menu__sign-out" loading={signingOut} onClick={signOut}>
        {t('auth.signOut')}
      </Button>
    </div>
  );
}
