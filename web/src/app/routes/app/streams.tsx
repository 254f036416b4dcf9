import type { MetaArgs } from 'react-router';
import { StreamsView } from '../../../features/streams/components/streams-view';
import '../../../features/streams/streams.css';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.streams.title');
export const handle = { pageName: 'streams' };

export default function StreamsPage() {
  return <StreamsView />;
}
