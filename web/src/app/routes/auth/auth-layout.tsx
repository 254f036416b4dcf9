// The sign-in pages' frame: brand, the page's card, the language switcher. Forms come from the Accounts feature.
import { Link, Outlet } from 'react-router';
import { Logo } from '../../../components/logo';
import { LanguageSwitcher } from '../../../features/language/components/language-switcher';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import '../../../styles/app-shell.css';

export default function AuthLayout() {
  const { t, language } = useI18n();
  return (
    <div className="auth-shell">
      <header className="auth-shell__header">
        <Link to={localizePath('/', language)} aria-label={t('app.home')}>
          <Logo label={t('common.brand')} />
        </Link>
        <LanguageSwitcher />
      </header>
      <main id="main" className="auth-shell__card">
        <Outlet />
      </main>
    </div>
  );
}
