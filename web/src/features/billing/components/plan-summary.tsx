import { Link } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { useSubscription } from '../api/billing-api';
import { usageRows } from '../usage';
import { PlanStateBadge, PlanStateMessage } from './plan-state';
import { UsageMeters } from './usage-meters';
import './billing.css';

/** The dashboard's plan card (under the page's own heading): plan, state, the usage that changes most, a link to the plan page. */
export function PlanSummary({ refetchInterval, planLink }: { refetchInterval: number | false; planLink: string }) {
  const { t } = useI18n();
  const subscription = useSubscription(refetchInterval);
  if (!subscription.data) return <div className="billing-card plan-summary plan-summary--loading" aria-busy="true" />;
  const overview = subscription.data;
  const rows = usageRows(overview, undefined).filter((row) => row.id === 'storage' || row.id === 'streams' || row.id === 'uploads');
  return (
    <div className="billing-card plan-summary" data-state={overview.state}>
      <div className="current-plan__name-row">
        <h3 className="current-plan__name">{t(`pricing.plans.${overview.plan}.name`)}</h3>
        <PlanStateBadge state={overview.state} />
      </div>
      <PlanStateMessage subscription={overview} />
      <UsageMeters rows={rows} />
      <Link className="plan-summary__link" to={planLink}>
        {t('dashboard.plan.link')}
      </Link>
    </div>
  );
}
