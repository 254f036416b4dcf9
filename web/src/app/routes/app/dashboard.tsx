import type { MetaArgs } from 'react-router';
import { AppPage } from '../../layouts/app-page';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.dashboard.title');
export const handle = { pageName: 'dashboard' };

export default function DashboardPage() {
  return <AppPage page="dashboard" icon="dashboard" />;
}
