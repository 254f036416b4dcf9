// The app layout ('custom', spec section 2): navigation to the app pages in the current language, beside the page;
// who is signed in and signing out; the realtime connection that keeps the pages' data live.
import { Link, NavLink, Outlet } from 'react-router';
import { Icon, type IconName } from '../../../components/icon';
import { Logo } from '../../../components/logo';
import { AccountMenu } from '../../../features/accounts/components/account-menu';
import { LanguageSwitcher } from '../../../features/language/components/language-switcher';
import { useRealtimeUpdates } from '../../../features/realtime/hooks/use-realtime';
import { RealtimeIndicator } from '../../../features/realtime/components/realtime-indicator';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import '../../../styles/app-shell.css';

const sections: { page: 'dashboard' | 'streams' | 'channels' | 'videos' | 'billing'; icon: IconName }[] = [
  { page: 'dashboard', icon: 'dashboard' },
  { page: 'streams', icon: 'broadcast' },
  { page: 'channels', icon: 'youtube' },
  { page: 'videos', icon: 'video' },
  { page: 'billing', icon: 'layers' },
];

export default function CustomLayout() {
  const { t, language } = useI18n();
  const realtime = useRealtimeUpdates();
  return (
    <div className="app-shell" data-realtime={realtime}>
      <aside className="app-shell__sidebar">
        <Link to={localizePath('/', language)} className="app-shell__brand" aria-label={t('app.home')}>
          <Logo label={t('common.brand')} />
        </Link>
        <nav className="app-nav" aria-label={t('app.navLabel')}>
          {sections.map(({ page, icon }) => (
            <NavLink key={page} to={localizePath(`/app/${page}`, language)} className="app-nav__link">
              <Icon name={icon} />
              <span>{t(`app.pages.${page}.title`)}</span>
            </NavLink>
          ))}
        </nav>
        <div className="app-shell__footer">
          <RealtimeIndicator status={realtime} />
          <AccountMenu />
          <LanguageSwitcher />
        </div>
      </aside>
      <main id="main" className="app-shell__main">
        <Outlet />
      </main>
    </div>
  );
}
