import { Link } from 'react-router';
import { TRIAL_DAYS } from '@loopcast/core/plans';
import { buttonClasses } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';

/** Headline, promise and the two calls to action, beside an illustration of a running stream. */
export function Hero() {
  const { t, language } = useI18n();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero__inner container">
        <div className="hero__copy">
          <p className="eyebrow eyebrow--on-dark">{t('landing.eyebrow')}</p>
          <h1 id="hero-title" className="hero__title">
            {t('landing.headline')}
          </h1>
          <p className="hero__lead">{t('landing.lead')}</p>
          <div className="hero__actions">
            <Link to={localizePath('/app/auth/register', language)} className={buttonClasses({ size: 'large' })}>
              {t('landing.primaryCta')}
            </Link>
            <Link to={localizePath('/pricing', language)} className={buttonClasses({ size: 'large', variant: 'transparent' }, 'button--on-dark')}>
              {t('landing.secondaryCta')}
            </Link>
          </div>
          <p className="hero__note">{t('landing.trialNote', { days: TRIAL_DAYS })}</p>
        </div>
        <figure className="stream-preview" aria-label={t('landing.previewLabel')}>
          <div className="stream-preview__screen">
            <span className="live-badge">{t('landing.previewLive')}</span>
            <svg className="stream-preview__loop" viewBox="0 0 120 120" aria-hidden="true">
              <circle cx="60" cy="60" r="44" className="stream-preview__track" />
              <circle cx="60" cy="60" r="44" className="stream-preview__progress" />
            </svg>
            <Icon name="play" className="stream-preview__play" />
          </div>
          <figcaption className="stream-preview__caption">
            <span className="stream-preview__title">{t('landing.previewTitle')}</span>
            <dl className="stream-preview__stats">
              <div>
                <dt>{t('landing.previewUptime')}</dt>
                <dd>99.98%</dd>
              </div>
              <div>
                <dt>{t('landing.previewRestarts')}</dt>
                <dd>3</dd>
              </div>
              <div>
                <dt>{t('landing.previewQuality')}</dt>
                <dd>1080p30</dd>
              </div>
            </dl>
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
