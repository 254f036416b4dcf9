import { Link } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { useSubscription } from '../api/billing-api';
import { usageRows } from '../usage';
import { PlanStateBadge, PlanStateMessage } from './plan-state';
import { UsageMeters } from './usage-meters';
import './billing.css';

/** The dashboard's plan card: plan, state, the usage that changes most, a link to the plan page. */
export function PlanSummary({ refetchInterval, planLink }: { refetchInterval: number | false; planLink: string }) {
  const { t } = useI18n();
  const subscription = useSubscription(refetchInterval);
  if (!subscription.data) return <section className="billing-card plan-summary plan-summary--loading" aria-busy="true" />;
  const overview = subscription.data;
  const rows = usageRows(overview, undefined).filter((row) => row.id === 'storage' || row.id === 'streams' || row.id === 'uploads');
  return (
    <section className="billing-card plan-summary" aria-labelledby="plan-summary-title" data-state={overview.state}>
      <p className="billing-card__eyebrow">{t('dashboard.plan.title')}</p>
      <div className="current-plan__name-row">
        <h2 className="current-plan__name" id="plan-summary-title">
          {t(`pricing.plans.${overview.plan}.name`)}
        </h2>
        <PlanStateBadge state={overview.state} />
      </div>
      <PlanStateMessage subscription={overview} />
      <UsageMeters rows={rows} />
      <Link className="plan-summary__link" to={planLink}>
        {t('dashboard.plan.link')}
      </Link>
    </section>
  );
}
