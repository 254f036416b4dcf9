import type { MetaArgs } from 'react-router';
import { AppPage } from '../../layouts/app-page';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.streams.title');
export const handle = { pageName: 'streams' };

export default function StreamsPage() {
  return <AppPage page="streams" icon="broadcast" />;
}
