import type { LoaderFunctionArgs, MetaArgs } from 'react-router';
import { TRIAL_DAYS } from '@loopcast/core/plans';
import { Faq } from '../../../features/marketing/components/faq';
import { PricingPlans } from '../../../features/pricing/components/pricing-plans';
import { useI18n } from '../../../i18n/i18n-context';
import { languageOfPath } from '../../../i18n/languages';
import { messagesFor } from '../../../i18n/messages.server';
import { pageMeta } from '../../page-meta';
import { pagePath } from '../../page-path';

export async function loader({ request }: LoaderFunctionArgs) {
  return { messages: await messagesFor(languageOfPath(pagePath(request)).code, ['pricing', 'faq', 'landing', 'videos.quality']) };
}

export const meta = (args: MetaArgs) => pageMeta(args, 'meta.pricingTitle', 'meta.pricingDescription');
export const handle = { pageName: 'pricing' };

export default function PricingPage() {
  const { t } = useI18n();
  return (
    <>
      <section className="page-hero" aria-labelledby="pricing-title">
        <div className="container">
          <h1 id="pricing-title" className="page-hero__title">
            {t('pricing.title')}
          </h1>
          <p className="page-hero__lead">{t('pricing.lead', { days: TRIAL_DAYS })}</p>
        </div>
      </section>
      <section className="section section--flush" aria-label={t('nav.pricing')}>
        <div className="container">
          <PricingPlans headingLevel={2} />
        </div>
      </section>
      <Faq />
    </>
  );
}
