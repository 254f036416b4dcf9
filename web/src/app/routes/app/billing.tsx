import { useCallback } from 'react';
import { useSearchParams, type MetaArgs } from 'react-router';
import { BillingOverview } from '../../../features/billing/components/billing-overview';
import { useFallbackPolling } from '../../../features/realtime/hooks/use-realtime';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.billing.title');
export const handle = { pageName: 'billing' };

/** Stripe Checkout sends the user back here with `?checkout=<session id>`. */
const CHECKOUT_PARAM = 'checkout';

export default function BillingPage() {
  const { t } = useI18n();
  const [search, setSearch] = useSearchParams();
  const poll = useFallbackPolling();
  const dismissCheckout = useCallback(
    () =>
      setSearch(
        (current) => {
          current.delete(CHECKOUT_PARAM);
          return current;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return (
    <>
      <header className="app-page__header">
        <h1 className="app-page__title">{t('app.pages.billing.title')}</h1>
      </header>
      <BillingOverview refetchInterval={poll} checkoutSessionId={search.get(CHECKOUT_PARAM)} onCheckoutDismissed={dismissCheckout} />
    </>
  );
}
