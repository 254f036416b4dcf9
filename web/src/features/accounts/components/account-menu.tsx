import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
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

/** Who is signed in, and signing out. */
export function AccountMenu() {
  const { t } = useI18n();
  const user = useCurrentUser();
  const { signOut, signingOut } = useSignOut();
  const name = user.data?.displayName ?? '';
  return (
    <div className="account-menu">
      <AccountAvatar />
      <span className="account-menu__who">
        <span className="account-menu__name">{name}</span>
        <span className="account-menu__email">{user.data?.email}</span>
      </span>
      <Button variant="transparent" size="small" className="account-menu__sign-out" loading={signingOut} onClick={signOut}>
        {t('auth.signOut')}
      </Button>
    </div>
  );
}
