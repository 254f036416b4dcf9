import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';

/**
 * Rendered hidden; the public pages' script (app/public-page-script.ts) shows it until Accept is pressed and
 * remembers the choice, so the banner never flashes for visitors who already accepted.
 */
export function CookieBanner() {
  const { t } = useI18n();
  return (
    <section id="cookie-banner" className="cookie-banner" aria-label={t('cookie.label')} hidden>
      <p className="cookie-banner__text">
        {t('cookie.text')}{' '}
        <a href="/privacy" className="cookie-banner__link">
          {t('cookie.policy')}
        </a>
      </p>
      <Button size="small">{t('cookie.accept')}</Button>
    </section>
  );
}
