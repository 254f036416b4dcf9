import { Link } from 'react-router';
import { TRIAL_DAYS } from '@loopcast/core/plans';
import { buttonClasses } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';

export function GetStarted() {
  const { t, language } = useI18n();
  return (
    <section id="get-started" className="get-started" aria-labelledby="get-started-title">
      <div className="container get-started__inner">
        <div>
          <h2 id="get-started-title" className="get-started__title">
            {t('landing.getStartedTitle')}
          </h2>
          <p className="get-started__body">{t('landing.getStartedBody', { days: TRIAL_DAYS })}</p>
        </div>
        <Link to={localizePath('/app/auth/register', language)} className={buttonClasses({ size: 'large', variant: 'secondary' })}>
          {t('landing.getStartedCta')}
        </Link>
      </div>
    </section>
  );
}
