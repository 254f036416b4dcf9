import type { SubscriptionOverview } from '../api/billing-api';
import { useI18n } from '../../../i18n/i18n-context';
import { formatDate } from '../format';

/** The plan's state as a coloured label. */
export function PlanStateBadge({ state }: { state: SubscriptionOverview['state'] }) {
  const { t } = useI18n();
  return <span className={`plan-state plan-state--${state}`}>{t(`billing.states.${state}`)}</span>;
}

/** What the state means for the user, with its date: trial end, renewal, end of a canceled plan, grace end. */
export function PlanStateMessage({ subscription }: { subscription: SubscriptionOverview }) {
  const { t, language } = useI18n();
  const date = formatDate(subscription.cycleEnd, language.htmlLang);
  switch (subscription.state) {
    case 'trial':
      return <p className="plan-state-message">{t('billing.stateMessages.trial', { date })}</p>;
    case 'active':
      return <p className="plan-state-message">{t('billing.stateMessages.active', { date })}</p>;
    case 'canceling':
      return <p className="plan-state-message plan-state-message--warning">{t('billing.stateMessages.canceling', { date })}</p>;
    case 'payment-failed': {
      const graceEnd = new Intl.DateTimeFormat(language.htmlLang, { dateStyle: 'long', timeStyle: 'short' }).format(
        new Date(subscription.graceEndsAt ?? subscription.cycleEnd),
      );
      return <p className="plan-state-message plan-state-message--danger">{t('billing.stateMessages.paymentFailed', { date: graceEnd })}</p>;
    }
    case 'expired':
      return <p className="plan-state-message plan-state-message--danger">{t('billing.stateMessages.expired', { date })}</p>;
  }
}
