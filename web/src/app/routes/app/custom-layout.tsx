// The app layout ('custom', spec section 2): navigation to the app pages in the current language, beside the page;
// who is signed in and signing out; the realtime connection that keeps the pages' data live. On phones the
// navigation is a tab bar at the bottom of the screen, and the account (name, e-mail, language, sign-out) opens
// from the avatar in a slim top bar, so every page starts right under it.
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Icon, type IconName } from '../../../components/icon';
import { Logo } from '../../../components/logo';
import { AccountAvatar, AccountMenu } from '../../../features/accounts/components/account-menu';
import { LanguageSwitcher } from '../../../features/language/components/language-switcher';
import { useRealtimeUpdates } from '../../../features/realtime/hooks/use-realtime';
import { RealtimeIndicator } from '../../../features/realtime/components/realtime-indicator';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import '../../../styles/app-shell.css';

const sections: { page: 'dashboard' | 'streams' | 'channels' | 'videos' | 'billing' | 'notifications'; icon: IconName }[] = [
  { page: 'dashboard', icon: 'dashboard' },
  { page: 'streams', icon: 'broadcast' },
  { page: 'channels', icon: 'youtube' },
  { page: 'videos', icon: 'video' },
  { page: 'billing', icon: 'layers' },
  { page: 'notifications', icon: 'bell' },
];

/** The phone-only account panel: closes on navigation, Escape (focus back on its button) and a click elsewhere. */
function useAccountPanel() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !toggle.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  return { open, toggle, panel, flip: () => setOpen((was) => !was) };
}

export default function CustomLayout() {
  const { t, language } = useI18n();
  const realtime = useRealtimeUpdates();
  const account = useAccountPanel();
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
              <span className="app-nav__label">{t(`app.pages.${page}.title`)}</span>
              <span className="app-nav__tab" aria-hidden="true">
                {t(`app.pages.${page}.tab`)}
              </span>
            </NavLink>
          ))}
        </nav>
        <div className="app-shell__status">
          <RealtimeIndicator status={realtime} />
          <button
            ref={account.toggle}
            type="button"
            className="app-shell__account-toggle"
            aria-expanded={account.open}
            aria-controls="app-account"
            onClick={account.flip}
          >
            <AccountAvatar />
            <span className="visually-hidden">{t('app.accountMenu')}</span>
          </button>
        </div>
        <div ref={account.panel} id="app-account" className="app-shell__footer" data-open={account.open}>
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
