import type { MetaArgs } from 'react-router';
import { AppPage } from '../../layouts/app-page';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.channels.title');
export const handle = { pageName: 'channels' };

export default function ChannelsPage() {
  return <AppPage page="channels" icon="youtube" />;
}
