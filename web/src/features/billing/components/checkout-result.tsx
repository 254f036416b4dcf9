import { errorKeyOf } from '../../../api/client';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { useCheckoutState, type SubscriptionOverview } from '../api/billing-api';

/**
 * Back from Stripe Checkout (`?checkout=<session id>`): what became of the payment. A paid checkout is confirmed at
 * once; the plan itself changes when Stripe's webhook arrives, which realtime then shows on this page.
 */
export function CheckoutResult({ sessionId, subscription, onDismiss }: { sessionId: string; subscription: SubscriptionOverview; onDismiss: () => void }) {
  const { t, errorText } = useI18n();
  const checkout = useCheckoutState(sessionId);
  if (checkout.isPending) return null;

  let tone: 'success' | 'info' | 'error';
  let message: string;
  if (checkout.isError) {
    tone = 'error';
    message = errorText(errorKeyOf(checkout.error));
  } else if (checkout.data.status === 'complete' && checkout.data.paid) {
    tone = 'success';
    const active = subscription.plan !== 'trial' && subscription.active;
    message = active ? t('billing.checkout.active', { plan: t(`pricing.plans.${subscription.plan}.name`) }) : t('billing.checkout.paid');
  } else if (checkout.data.status === 'expired') {
    tone = 'error';
    message = t('billing.checkout.expired');
  } else {
    tone = 'info';
    message = t('billing.checkout.open');
  }
  return (
    <div className={`billing-banner billing-banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-checkout={checkout.data?.status ?? 'error'}>
      <p>{message}</p>
      <Button variant="transparent" size="small" onClick={onDismiss}>
        {t('billing.checkout.dismiss')}
      </Button>
    </div>
  );
}
