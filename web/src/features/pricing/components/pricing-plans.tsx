import { billingPeriods, featureKeys, periodTerms, planIds, plans, TRIAL_DAYS, type BillingPeriod, type FeatureKey, type Plan } from '@loopcast/core/plans';
import { buttonClasses } from '../../../components/button/button';
import { supportContactHref } from '../../../config/support';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { topProfileOf } from '../../../lib/quality';
import { useQualityText } from '../../../lib/use-quality-text';
import { localizePath } from '../../../i18n/languages';
import { formatUsd, planPrice, storageSize } from '../plan-prices';

function PaidPrice({ plan, period }: { plan: Plan; period: BillingPeriod }) {
  const { t } = useI18n();
  const price = planPrice(plan, period);
  if (price.kind !== 'paid') return null;
  return (
    <div className="plan__price" data-period={period}>
      <p>
        <span className="plan__amount">{formatUsd(price.perMonthCents)}</span> <span className="plan__unit">{t('pricing.perMonth')}</span>
      </p>
      <p className="plan__billing">{t(`pricing.billedEvery.${period}`, { total: formatUsd(price.totalCents) })}</p>
      {price.savingCents > 0 && <p className="plan__saving">{t('pricing.youSave', { amount: formatUsd(price.savingCents) })}</p>}
    </div>
  );
}

/**
 * Features every plan has alike are listed once under the cards ("Every plan includes"); a card lists only what
 * sets its plan apart. Computed from plans.ts, so a feature that becomes plan-specific moves onto the cards.
 */
const sharedFeatures = featureKeys.filter((feature) => planIds.every((id) => plans[id].features[feature] === plans.trial.features[feature]));
const distinctFeatures = featureKeys.filter((feature) => !sharedFeatures.includes(feature));
const featureStatus = (plan: Plan, feature: FeatureKey) =>
  plan.features[feature] === 'included' ? 'included' : plan.features[feature] === 'soon' ? 'soon' : 'notIncluded';

function FeatureItem({ feature, status }: { feature: FeatureKey; status: ReturnType<typeof featureStatus> }) {
  const { t } = useI18n();
  return (
    <li className={`plan__feature plan__feature--${status}`}>
      <Icon name={status === 'included' ? 'check' : status === 'soon' ? 'clock' : 'minus'} />
      <span>
        {t(`pricing.features.${feature}`)}
        <span className="visually-hidden">: {t(`pricing.featureStatus.${status}`)}</span>
        {status === 'soon' && <span className="tag">{t('common.soon')}</span>}
      </span>
    </li>
  );
}

/**
 * One card: six rows (name, description, price, action, limits, distinct features) that line up with the other
 * cards' rows through CSS subgrid, whatever the length of each language's texts.
 */
function PlanCard({ plan, Heading }: { plan: Plan; Heading: 'h2' | 'h3' }) {
  const { t, language } = useI18n();
  const { profileText } = useQualityText();
  const kind = planPrice(plan, 'month').kind;
  const storage = storageSize(plan.limits.storageBytes);
  const featured = plan.id === 'pro';
  const contactHref = supportContactHref();
  const titleId = `plan-${plan.id}`;
  return (
    <article className={`plan ${featured ? 'plan--featured' : ''}`} aria-labelledby={titleId}>
      {featured && <p className="plan__badge">{t('pricing.popular')}</p>}
      <Heading className="plan__name" id={titleId}>
        {t(`pricing.plans.${plan.id}.name`)}
      </Heading>
      <p className="plan__description">{t(`pricing.plans.${plan.id}.description`)}</p>
      <div className="plan__prices">
        {kind === 'paid' && billingPeriods.map((period) => <PaidPrice key={period} plan={plan} period={period} />)}
        {kind === 'free' && (
          <div className="plan__price">
            <p>
              <span className="plan__amount">{formatUsd(0)}</span> <span className="plan__unit">{t('pricing.trialTerm', { count: TRIAL_DAYS })}</span>
            </p>
            <p className="plan__billing">{t('landing.trialNote', { days: TRIAL_DAYS })}</p>
          </div>
        )}
        {kind === 'by agreement' && (
          <div className="plan__price">
            <p>
              <span className="plan__amount">{t('pricing.customPrice')}</span>
            </p>
            <p className="plan__billing">{t('pricing.customTerm')}</p>
          </div>
        )}
      </div>
      <div className="plan__action">
        {plan.id !== 'custom' ? (
          <a href={localizePath('/app/auth/register', language)} className={buttonClasses({ variant: featured ? 'primary' : 'secondary', fullWidth: true })}>
            {t(`pricing.cta.${plan.id}`)}
          </a>
        ) : (
          contactHref && (
            <a href={contactHref} className={buttonClasses({ variant: 'secondary', fullWidth: true })}>
              {t('pricing.cta.custom')}
            </a>
          )
        )}
      </div>
      <ul className="plan__limits">
        <li>{t('pricing.limits.storage', { size: t(`pricing.${storage.unit}`, { count: storage.count }) })}</li>
        <li>{t('pricing.limits.streams', { count: plan.limits.concurrentStreams })}</li>
        <li>{t('pricing.limits.uploads', { count: plan.limits.uploadsPerCycle })}</li>
        <li>{t('pricing.limits.destinations', { count: plan.limits.destinationsPerStream })}</li>
        <li>{t('pricing.limits.channels', { count: plan.limits.youtubeChannels })}</li>
        <li>{t('pricing.limits.mediaLength', { count: plan.limits.maxMediaSeconds / 3600 })}</li>
        <li>{t('pricing.limits.quality', { profile: profileText(topProfileOf(plan.limits.outputProfiles)) })}</li>
      </ul>
      <ul className="plan__features">
        {distinctFeatures.map((feature) => (
          <FeatureItem key={feature} feature={feature} status={featureStatus(plan, feature)} />
        ))}
      </ul>
    </article>
  );
}

/**
 * The plans with a billing-period switch; longer periods show their discount and the amount saved. The switch is
 * radio inputs that CSS follows (styles/app.css, "Pricing"), so it works on the static public pages without script.
 * Plan names are headings one level below the page's: `headingLevel` 2 under the pricing page's h1, 3 in the
 * landing page's pricing section.
 */
export function PricingPlans({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const { t } = useI18n();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="pricing">
      {billingPeriods.map((period) => (
        <input
          key={period}
          type="radio"
          className="period-input visually-hidden"
          name="billing-period"
          id={`billing-period-${period}`}
          value={period}
          defaultChecked={period === 'month'}
          aria-label={[
            t(`pricing.periods.${period}`),
            periodTerms[period].discountPercent > 0 ? t('pricing.savePercent', { percent: periodTerms[period].discountPercent }) : '',
          ]
            .join(' ')
            .trim()}
        />
      ))}
      <div className="period-switch" role="group" aria-label={t('pricing.periodLabel')}>
        {billingPeriods.map((period) => (
          <label key={period} htmlFor={`billing-period-${period}`} className="period-switch__option" data-period={period} aria-hidden="true">
            {t(`pricing.periods.${period}`)}
            {periodTerms[period].discountPercent > 0 && (
              <span className="period-switch__saving">{t('pricing.savePercent', { percent: periodTerms[period].discountPercent })}</span>
            )}
          </label>
        ))}
      </div>
      <div className="plans">
        {planIds.map((id) => (
          <PlanCard key={id} plan={plans[id]} Heading={Heading} />
        ))}
      </div>
      <section className="plans-shared" aria-labelledby="plans-shared-title">
        <Heading className="plans-shared__title" id="plans-shared-title">
          {t('pricing.everyPlanIncludes')}
        </Heading>
        <ul className="plans-shared__list">
          {sharedFeatures.map((feature) => (
            <FeatureItem key={feature} feature={feature} status={featureStatus(plans.trial, feature)} />
          ))}
        </ul>
      </section>
      <p className="pricing__note">{t('pricing.renewalNote')}</p>
    </div>
  );
}
