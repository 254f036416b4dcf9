import { Link, useLocation } from 'react-router';
import { buttonClasses } from '../../components/button/button';
import { Logo } from '../../components/logo';
import { hasSupportChannel } from '../../config/support';
import { LanguageSwitcher } from '../../features/language/components/language-switcher';
import { useI18n } from '../../i18n/i18n-context';
import { barePath, localizePath } from '../../i18n/languages';
import { isLegalPage } from '../site-map';

export function PublicHeader() {
  const { t, language } = useI18n();
  const { pathname } = useLocation();
  const home = localizePath('/', language);
  const section = (id: string) => `${home}#${id}`;
  const links = (
    <>
      <a href={section('features')}>{t('nav.features')}</a>
      <a href={section('how-to-use')}>{t('nav.howItWorks')}</a>
      <Link to={localizePath('/pricing', language)}>{t('nav.pricing')}</Link>
      <a href={section('faq')}>{t('nav.faq')}</a>
      {hasSupportChannel() && <a href={section('support')}>{t('nav.support')}</a>}
    </>
  );
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to={home} className="site-header__brand" aria-label={t('common.brand')}>
          <Logo label={t('common.brand')} />
        </Link>
        <nav className="site-nav" aria-label={t('nav.main')}>
          {links}
        </nav>
        <div className="site-header__actions">
          {/* Narrow screens: the same links in a disclosure, which works without script on the static pages. */}
          <details className="mobile-menu">
            <summary className="mobile-menu__toggle">
              <span className="mobile-menu__bars" aria-hidden="true" />
              <span className="visually-hidden">{t('nav.menu')}</span>
            </summary>
            <nav className="mobile-menu__panel" aria-label={t('nav.main')}>
              {links}
            </nav>
          </details>
          <LanguageSwitcher englishOnlyPage={isLegalPage(barePath(pathname))} />
          <Link to={localizePath('/app/auth/login', language)} className={buttonClasses({ variant: 'transparent', size: 'small' })}>
            {t('nav.signIn')}
          </Link>
          <Link to={localizePath('/app/auth/register', language)} className={buttonClasses({ size: 'small' }, 'site-header__cta')}>
            {t('nav.getStarted')}
          </Link>
        </div>
      </div>
    </header>
  );
}
