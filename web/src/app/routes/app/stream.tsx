import { useCallback } from 'react';
import { useNavigate, useParams, type MetaArgs } from 'react-router';
import { useFallbackPolling } from '../../../features/realtime/hooks/use-realtime';
import { StreamPageView } from '../../../features/streams/components/stream-page-view';
import '../../../features/streams/streams.css';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'streams.page.metaTitle');
export const handle = { pageName: 'stream' };

/** One stream: its card, uptime and history (alert e-mails link here). */
export default function StreamPage() {
  const { streamId = '' } = useParams();
  const { language } = useI18n();
  const navigate = useNavigate();
  const poll = useFallbackPolling();
  const toStreams = useCallback(() => void navigate(localizePath('/app/streams', language), { replace: true }), [navigate, language]);
  // A new stream id is a new page: nothing of the last one's state (an open form, a confirmation) carries over.
  return <StreamPageView key={streamId} streamId={streamId} refetchInterval={poll} onDeleted={toStreams} />;
}
