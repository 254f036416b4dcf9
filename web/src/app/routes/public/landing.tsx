import type { LoaderFunctionArgs, MetaArgs } from 'react-router';
import { TRIAL_DAYS } from '@loopcast/core/plans';
import { Faq } from '../../../features/marketing/components/faq';
import { FeatureGrid } from '../../../features/marketing/components/feature-grid';
import { GetStarted } from '../../../features/marketing/components/get-started';
import { Hero } from '../../../features/marketing/components/hero';
import { HowItWorks } from '../../../features/marketing/components/how-it-works';
import { SupportSection } from '../../../features/marketing/components/support-section';
import { PricingPlans } from '../../../features/pricing/components/pricing-plans';
import { useI18n } from '../../../i18n/i18n-context';
import { languageOfPath } from '../../../i18n/languages';
import { messagesFor } from '../../../i18n/messages.server';
import { pageMeta } from '../../page-meta';
import { pagePath } from '../../page-path';

export async function loader({ request }: LoaderFunctionArgs) {
  return { messages: await messagesFor(languageOfPath(pagePath(request)).code, ['landing', 'pricing', 'faq', 'videos.quality']) };
}

export const meta = (args: MetaArgs) => pageMeta(args, 'meta.title', 'meta.description');
export const handle = { pageName: 'landing' };

export default function LandingPage() {
  const { t } = useI18n();
  return (
    <>
      <Hero />
      <FeatureGrid />
      <HowItWorks />
      <section id="pricing" className="section" aria-labelledby="pricing-title">
        <div className="container">
          <header className="section__header">
            <h2 id="pricing-title" className="section__title">
              {t('pricing.title')}
            </h2>
            <p className="section__lead">{t('pricing.lead', { days: TRIAL_DAYS })}</p>
          </header>
          <PricingPlans />
        </div>
      </section>
      <GetStarted />
      <SupportSection />
      <Faq />
    </>
  );
}
