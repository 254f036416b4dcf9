import { errorKeyOf } from '../../../api/client';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { usePortal, type SubscriptionOverview } from '../api/billing-api';
import { PlanStateBadge, PlanStateMessage } from './plan-state';

/** The plan, its state and dates, and the way to the Customer Portal (card, invoices, cancellation). */
export function CurrentPlan({ subscription }: { subscription: SubscriptionOverview }) {
  const { t, errorText } = useI18n();
  const portal = usePortal();
  return (
    <section className="billing-card current-plan" aria-labelledby="current-plan-title">
      <p className="billing-card__eyebrow" id="current-plan-title">
        {t('billing.currentPlan')}
      </p>
      <div className="current-plan__name-row">
        <h2 className="current-plan__name">{t(`pricing.plans.${subscription.plan}.name`)}</h2>
        <PlanStateBadge state={subscription.state} />
      </div>
      <PlanStateMessage subscription={subscription} />
      {subscription.period && (
        <dl className="current-plan__facts">
          <div>
            <dt>{t('billing.period')}</dt>
            <dd>{t(`pricing.periods.${subscription.period}`)}</dd>
          </div>
        </dl>
      )}
      {subscription.billingAvailable && subscription.hasBillingAccount && (
        <div className="current-plan__actions">
          <Button variant="secondary" loading={portal.isPending || portal.isSuccess} onClick={() => portal.mutate()}>
            {t('billing.manage')}
          </Button>
          <p className="billing-card__note">{t('billing.manageNote')}</p>
        </div>
      )}
      {portal.isError && (
        <p className="billing-error" role="alert">
          {errorText(errorKeyOf(portal.error))}
        </p>
      )}
    </section>
  );
}
