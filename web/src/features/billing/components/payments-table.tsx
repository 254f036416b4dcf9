import { useI18n } from '../../../i18n/i18n-context';
import type { SubscriptionOverview } from '../api/billing-api';
import { formatDate, formatMoney } from '../format';

/** Paid invoices, newest first. */
export function PaymentsTable({ payments }: { payments: SubscriptionOverview['payments'] }) {
  const { t, language } = useI18n();
  const locale = language.htmlLang;
  const newestFirst = [...payments].sort((a, b) => b.paidAt.localeCompare(a.paidAt));
  return (
    <section className="billing-section" aria-labelledby="payments-title">
      <h2 className="billing-section__title" id="payments-title">
        {t('billing.payments.title')}
      </h2>
      {newestFirst.length === 0 ? (
        <p className="billing-section__lead">{t('billing.payments.empty')}</p>
      ) : (
        <div className="billing-card billing-card--flush">
          <table className="payments">
            <thead>
              <tr>
                <th scope="col">{t('billing.payments.date')}</th>
                <th scope="col">{t('billing.payments.plan')}</th>
                <th scope="col">{t('billing.payments.covers')}</th>
                <th scope="col" className="payments__amount">
                  {t('billing.payments.amount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((payment) => (
                <tr key={payment.id}>
                  <td>{formatDate(payment.paidAt, locale)}</td>
                  <td>{payment.plan ? t(`pricing.plans.${payment.plan}.name`) : '—'}</td>
                  <td>
                    {payment.periodStart && payment.periodEnd
                      ? t('billing.dateRange', { start: formatDate(payment.periodStart, locale), end: formatDate(payment.periodEnd, locale) })
                      : '—'}
                  </td>
                  <td className="payments__amount">{formatMoney(payment.amountCents, payment.currency, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
