import { errorKeyOf } from '../../../api/client';
import { useState } from 'react';
import { billingPeriods, periodTerms, type BillingPeriod, type PlanId } from '@loopcast/core/plans';
import { Button, buttonClasses } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { supportContactHref } from '../../../config/support';
import { useI18n } from '../../../i18n/i18n-context';
import { topProfileOf } from '../../../lib/quality';
import { useQualityText } from '../../../lib/use-quality-text';
import { formatBytes } from '../../../lib/format';
import { useCheckout, type PlanOffer, type PlansAnswer, type SubscriptionOverview } from '../api/billing-api';
import { formatMoney } from '../format';

function PeriodSwitch({ period, onChange }: { period: BillingPeriod; onChange: (period: BillingPeriod) => void }) {
  const { t } = useI18n();
  return (
    <fieldset className="billing-periods">
      <legend className="visually-hidden">{t('pricing.periodLabel')}</legend>
      {billingPeriods.map((option) => (
        <label key={option} className={`billing-periods__option ${option === period ? 'billing-periods__option--checked' : ''}`}>
          <input type="radio" className="visually-hidden" name="billing-period" value={option} checked={option === period} onChange={() => onChange(option)} />
          {t(`pricing.periods.${option}`)}
          {periodTerms[option].discountPercent > 0 && (
            <span className="billing-periods__saving">{t('pricing.savePercent', { percent: periodTerms[option].discountPercent })}</span>
          )}
        </label>
      ))}
    </fieldset>
  );
}

interface OfferCardProps {
  offer: PlanOffer;
  period: BillingPeriod;
  currency: string;
  subscription: SubscriptionOverview;
  choosing: PlanId | undefined;
  onChoose: (plan: PlanId) => void;
}

function OfferCard({ offer, period, currency, subscription, choosing, onChoose }: OfferCardProps) {
  const { t, language } = useI18n();
  const { profileText } = useQualityText();
  const locale = language.htmlLang;
  const price = offer.prices.find((each) => each.period === period);
  const paying = subscription.plan !== 'trial' && subscription.state !== 'expired';
  const current = paying && subscription.plan === offer.id && subscription.period === period;
  const contactHref = supportContactHref();
  const titleId = `offer-${offer.id}`;
  return (
    <article className={`offer ${offer.id === 'pro' ? 'offer--featured' : ''} ${current ? 'offer--current' : ''}`} aria-labelledby={titleId}>
      <h3 className="offer__name" id={titleId}>
        {t(`pricing.plans.${offer.id}.name`)}
      </h3>
      <p className="offer__description">{t(`pricing.plans.${offer.id}.description`)}</p>
      {price ? (
        <div className="offer__price">
          <p>
            <span className="offer__amount">{formatMoney(Math.round(price.cents / price.months), currency, locale)}</span>{' '}
            <span className="offer__unit">{t('pricing.perMonth')}</span>
          </p>
          <p className="offer__billing">{t(`pricing.billedEvery.${period}`, { total: formatMoney(price.cents, currency, locale) })}</p>
          {price.savingCents > 0 && <p className="offer__saving">{t('pricing.youSave', { amount: formatMoney(price.savingCents, currency, locale) })}</p>}
        </div>
      ) : (
        <div className="offer__price">
          <p>
            <span className="offer__amount">{t('pricing.customPrice')}</span>
          </p>
          <p className="offer__billing">{t('pricing.customTerm')}</p>
        </div>
      )}
      <ul className="offer__limits">
        <li>{t('pricing.limits.storage', { size: formatBytes(offer.limits.storageBytes, locale) })}</li>
        <li>{t('pricing.limits.streams', { count: offer.limits.concurrentStreams })}</li>
        <li>{t('pricing.limits.uploads', { count: offer.limits.uploadsPerCycle })}</li>
        <li>{t('pricing.limits.destinations', { count: offer.limits.destinationsPerStream })}</li>
        <li>{t('pricing.limits.channels', { count: offer.limits.youtubeChannels })}</li>
        <li>{t('pricing.limits.mediaLength', { count: offer.limits.maxMediaSeconds / 3600 })}</li>
        <li>{t('pricing.limits.quality', { profile: profileText(topProfileOf(offer.limits.outputProfiles)) })}</li>
        {offer.features.multistreaming === 'included' && (
          <li className="offer__feature">
            <Icon name="check" />
            {t('pricing.features.multistreaming')}
          </li>
        )}
      </ul>
      {!offer.selfServe ? (
        contactHref && (
          <a href={contactHref} className={buttonClasses({ variant: 'secondary', fullWidth: true })}>
            {t('pricing.cta.custom')}
          </a>
        )
      ) : current ? (
        <p className="offer__current">
          <Icon name="check" />
          {t('billing.offers.current')}
        </p>
      ) : (
        <Button
          variant={offer.id === 'pro' ? 'primary' : 'secondary'}
          fullWidth
          disabled={!subscription.billingAvailable || (choosing !== undefined && choosing !== offer.id)}
          loading={choosing === offer.id}
          onClick={() => onChoose(offer.id)}
        >
          {t(paying ? 'billing.offers.switch' : 'billing.offers.choose', { plan: t(`pricing.plans.${offer.id}.name`) })}
        </Button>
      )}
    </article>
  );
}

/** The plans on sale with a period switch and savings; choosing one opens Stripe Checkout (or the portal for a paying user). */
export function PlanPicker({ plans, subscription }: { plans: PlansAnswer; subscription: SubscriptionOverview }) {
  const { t, errorText } = useI18n();
  const [period, setPeriod] = useState<BillingPeriod>(subscription.period ?? 'month');
  const checkout = useCheckout();
  const offers = plans.plans.filter((offer) => offer.id !== 'trial');
  const choosing = checkout.isPending || checkout.isSuccess ? checkout.variables?.plan : undefined;
  return (
    <section className="billing-section" aria-labelledby="plans-title">
      <div className="billing-section__head">
        <div>
          <h2 className="billing-section__title" id="plans-title">
            {t('billing.offers.title')}
          </h2>
          <p className="billing-section__lead">{t('billing.offers.lead')}</p>
        </div>
        <PeriodSwitch period={period} onChange={setPeriod} />
      </div>
      {checkout.isError && (
        <p className="billing-error" role="alert">
          {errorText(errorKeyOf(checkout.error))}
        </p>
      )}
      <div className="offers">
        {offers.map((offer) => (
          <OfferCard
            key={offer.id}
            offer={offer}
            period={period}
            currency={plans.currency}
            subscription={subscription}
            choosing={choosing}
            onChoose={(plan) => checkout.mutate({ plan, period })}
          />
        ))}
      </div>
      <p className="billing-card__note">{t('pricing.renewalNote')}</p>
    </section>
  );
}
