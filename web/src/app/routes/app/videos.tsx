import type { MetaArgs } from 'react-router';
import { AppPage } from '../../layouts/app-page';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.videos.title');
export const handle = { pageName: 'videos' };

export default function VideosPage() {
  return <AppPage page="videos" icon="video" />;
}
