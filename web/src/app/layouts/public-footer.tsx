import { Link } from 'react-router';
import { Logo } from '../../components/logo';
import { hasSupportChannel, support } from '../../config/support';
import { useI18n } from '../../i18n/i18n-context';
import { localizePath } from '../../i18n/languages';

export function PublicFooter() {
  const { t, language } = useI18n();
  const home = localizePath('/', language);
  const section = (id: string) => `${home}#${id}`;
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__about">
          <Logo label={t('common.brand')} />
          <p>{t('footer.tagline')}</p>
        </div>
        <nav className="site-footer__column" aria-labelledby="footer-product">
          <h2 id="footer-product" className="site-footer__heading">
            {t('footer.product')}
          </h2>
          <a href={section('features')}>{t('nav.features')}</a>
          <Link to={localizePath('/pricing', language)}>{t('nav.pricing')}</Link>
          <a href={section('faq')}>{t('nav.faq')}</a>
          {hasSupportChannel() && <a href={section('support')}>{t('footer.support')}</a>}
          {support.email && <a href={`mailto:${support.email}`}>{support.email}</a>}
        </nav>
        <nav className="site-footer__column" aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="site-footer__heading">
            {t('footer.legal')}
          </h2>
          {/* Legal texts are English only and live at unprefixed paths. */}
          <Link to="/terms">{t('footer.terms')}</Link>
          <Link to="/privacy">{t('footer.privacy')}</Link>
          <Link to="/offer">{t('footer.offer')}</Link>
          <Link to="/refund-policy">{t('footer.refund')}</Link>
        </nav>
      </div>
      <p className="container site-footer__copyright" suppressHydrationWarning>
        {t('footer.copyright', { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}
