import type { MetaArgs } from 'react-router';
import { useCurrentUser } from '../../../features/accounts/api/accounts-api';
import { PlanSummary } from '../../../features/billing/components/plan-summary';
import { Greeting } from '../../../features/dashboard/components/greeting';
import { RecentIncidents } from '../../../features/dashboard/components/recent-incidents';
import { useFallbackPolling } from '../../../features/realtime/hooks/use-realtime';
import { LiveOverview } from '../../../features/streams/components/live-overview';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.dashboard.title');
export const handle = { pageName: 'dashboard' };

/** The live overview (issue 17, item 3): what is on air and how it is doing, the plan's usage, what went wrong
 * lately, what to do next. */
export default function DashboardPage() {
  const { t, language } = useI18n();
  const user = useCurrentUser();
  const poll = useFallbackPolling();
  return (
    <>
      <Greeting displayName={user.data?.displayName} />
      <div className="dashboard">
        <section className="dashboard__main" aria-labelledby="dashboard-live-title">
          <h2 className="dashboard__section-title" id="dashboard-live-title">
            {t('dashboard.live.title')}
          </h2>
          <LiveOverview />
        </section>
        <div className="dashboard__side">
          <section aria-labelledby="dashboard-plan-title">
            <h2 className="dashboard__section-title" id="dashboard-plan-title">
              {t('dashboard.plan.title')}
            </h2>
            <PlanSummary refetchInterval={poll} planLink={localizePath('/app/billing', language)} />
          </section>
          <section aria-labelledby="dashboard-incidents-title">
            <h2 className="dashboard__section-title" id="dashboard-incidents-title">
              {t('dashboard.incidents.title')}
            </h2>
            <RecentIncidents refetchInterval={poll} />
          </section>
        </div>
      </div>
    </>
  );
}
