import { errorKeyOf } from '../../../api/client';
import { PageLoading } from '../../../components/page-loading';
import { useI18n } from '../../../i18n/i18n-context';
import { useDestinationUsage, usePlans, useSubscription } from '../api/billing-api';
import { formatDate } from '../format';
import { usageRows } from '../usage';
import { CheckoutResult } from './checkout-result';
import { CurrentPlan } from './current-plan';
import { PaymentsTable } from './payments-table';
import { PlanPicker } from './plan-picker';
import { UsageMeters } from './usage-meters';
import './billing.css';

interface BillingOverviewProps {
  /** Polling while realtime is down. */
  refetchInterval: number | false;
  /** A Stripe Checkout session the user came back from. */
  checkoutSessionId: string | null;
  onCheckoutDismissed: () => void;
}

/** The plan page: current plan and state, usage against every limit, the plans on sale, payments. */
export function BillingOverview({ refetchInterval, checkoutSessionId, onCheckoutDismissed }: BillingOverviewProps) {
  const { t, errorText, language } = useI18n();
  const subscription = useSubscription(refetchInterval);
  const plans = usePlans();
  const destinations = useDestinationUsage();

  if (subscription.isError) {
    return (
      <p className="billing-error" role="alert">
        {errorText(errorKeyOf(subscription.error))}
      </p>
    );
  }
  if (subscription.isPending) return <PageLoading />;
  const overview = subscription.data;
  const locale = language.htmlLang;
  return (
    <div className="billing" data-plan={overview.plan} data-state={overview.state}>
      {checkoutSessionId && <CheckoutResult sessionId={checkoutSessionId} subscription={overview} onDismiss={onCheckoutDismissed} />}
      {!overview.billingAvailable && (
        <div className="billing-banner billing-banner--info" role="note">
          <p>{t('billing.unavailable')}</p>
        </div>
      )}
      <div className="billing__top">
        <CurrentPlan subscription={overview} />
        <section className="billing-card" aria-labelledby="usage-title">
          <p className="billing-card__eyebrow" id="usage-title">
            {t('billing.usage.title')}
          </p>
          <p className="billing-card__note">
            {t('billing.usage.cycle', { start: formatDate(overview.cycleStart, locale), end: formatDate(overview.cycleEnd, locale) })}
          </p>
          <UsageMeters rows={usageRows(overview, destinations)} />
        </section>
      </div>
      {plans.data && <PlanPicker plans={plans.data} subscription={overview} />}
      <PaymentsTable payments={overview.payments} />
    </div>
  );
}
