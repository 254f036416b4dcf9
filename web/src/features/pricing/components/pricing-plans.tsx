import { billingPeriods, featureKeys, periodTerms, planIds, plans, TRIAL_DAYS, type BillingPeriod, type Plan } from '../../../../../lambdas/core/plans';
import { buttonClasses } from '../../../components/button/button';
import { support } from '../../../config/support';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
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

function PlanCard({ plan }: { plan: Plan }) {
  const { t, language } = useI18n();
  const kind = planPrice(plan, 'month').kind;
  const storage = storageSize(plan.limits.storageBytes);
  const featured = plan.id === 'pro';
  const titleId = `plan-${plan.id}`;
  return (
    <article className={`plan ${featured ? 'plan--featured' : ''}`} aria-labelledby={titleId}>
      {featured && <p className="plan__badge">{t('pricing.popular')}</p>}
      <h3 className="plan__name" id={titleId}>
        {t(`pricing.plans.${plan.id}.name`)}
      </h3>
      <p className="plan__description">{t(`pricing.plans.${plan.id}.description`)}</p>
      {kind === 'paid' && billingPeriods.map((period) => <PaidPrice key={period} plan={plan} period={period} />)}
      {kind === 'free' && (
        <div className="plan__price">
          <p>
            <span className="plan__amount">{t('pricing.free')}</span> <span className="plan__unit">{t('pricing.trialTerm', { count: TRIAL_DAYS })}</span>
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
      {plan.id === 'custom' ? (
        <a href={`mailto:${support.email}`} className={buttonClasses({ variant: 'secondary', fullWidth: true })}>
          {t('pricing.cta.custom')}
        </a>
      ) : (
        <a href={localizePath('/app/auth/register', language)} className={buttonClasses({ variant: featured ? 'primary' : 'secondary', fullWidth: true })}>
          {t(`pricing.cta.${plan.id}`)}
        </a>
      )}
      <ul className="plan__limits">
        <li>{t('pricing.limits.storage', { size: t(`pricing.${storage.unit}`, { count: storage.count }) })}</li>
        <li>{t('pricing.limits.streams', { count: plan.limits.concurrentStreams })}</li>
        <li>{t('pricing.limits.uploads', { count: plan.limits.uploadsPerCycle })}</li>
        <li>{t('pricing.limits.destinations', { count: plan.limits.destinationsPerStream })}</li>
        <li>{t('pricing.limits.channels', { count: plan.limits.youtubeChannels })}</li>
        <li>{t('pricing.limits.mediaLength', { count: plan.limits.maxMediaSeconds / 3600 })}</li>
      </ul>
      <ul className="plan__features">
        {featureKeys.map((feature) => {
          const availability = plan.features[feature];
          const status = availability === 'included' ? 'included' : availability === 'soon' ? 'soon' : 'notIncluded';
          return (
            <li key={feature} className={`plan__feature plan__feature--${status}`}>
              <Icon name={status === 'included' ? 'check' : status === 'soon' ? 'clock' : 'minus'} />
              <span>{t(`pricing.features.${feature}`)}</span>
              <span className="visually-hidden">: {t(`pricing.featureStatus.${status}`)}</span>
              {status === 'soon' && <span className="tag">{t('common.soon')}</span>}
            </li>
          );
        })}
      </ul>
    </article>
  );
}

/**
 * The plans with a billing-period switch; longer periods show their discount and the amount saved. The switch is
 * radio inputs that CSS follows (styles/app.css, "Pricing"), so it works on the static public pages without script.
 */
export function PricingPlans() {
  const { t } = useI18n();
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
          aria-label={[t(`pricing.periods.${period}`), periodTerms[period].discountPercent > 0 ? t('pricing.savePercent', { percent: periodTerms[period].discountPercent }) : '']
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
          <PlanCard key={id} plan={plans[id]} />
        ))}
      </div>
      <p className="pricing__note">{t('pricing.renewalNote')}</p>
    </div>
  );
}
