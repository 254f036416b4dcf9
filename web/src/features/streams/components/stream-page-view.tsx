import { Link } from 'react-router';
import { buttonClasses } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { ApiError } from '../../../api/client';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { useStreamHistory } from '../api/history-api';
import { useStreamById, type Stream } from '../api/streams-api';
import { useLiveRefresh } from '../hooks/use-live-refresh';
import { useNow } from '../hooks/use-now';
import { PlaylistEditor } from './playlist-editor';
import { QueryFallback } from '../../../components/query-fallback';
import { StreamCard } from './stream-card';
import { StreamTimeline } from './stream-timeline';
import { StreamUptime } from './stream-uptime';

/**
 * A stream's own page (/app/streams/:streamId, where alert e-mails lead): its card, live as on the Streams page, its
 * uptime and what happened to it. A stream that does not exist, or is not the user's, is not found.
 */
export function StreamPageView({ streamId, refetchInterval, onDeleted }: { streamId: string; refetchInterval: number | false; onDeleted: () => void }) {
  const { t, language } = useI18n();
  const stream = useStreamById(streamId);
  useLiveRefresh(streamId);
  const streamsLink = localizePath('/app/streams', language);

  if (stream.error instanceof ApiError && stream.error.status === 404) {
    return (
      <div className="empty-state" data-not-found="stream">
        <span className="feature__icon feature__icon--large">
          <Icon name="broadcast" />
        </span>
        <h1 className="empty-state__title">{t('streams.page.notFoundTitle')}</h1>
        <p className="empty-state__body">{t('streams.page.notFoundBody')}</p>
        <Link to={streamsLink} className={buttonClasses({}, 'stream-page__to-streams')}>
          {t('streams.page.toStreams')}
        </Link>
      </div>
    );
  }
  return (
    <>
      <p className="stream-page__back">
        <Link to={streamsLink}>
          <span aria-hidden="true">← </span>
          {t('streams.page.allStreams')}
        </Link>
      </p>
      {stream.data ? (
        <>
          <StreamCard listed={stream.data} listedAt={stream.dataUpdatedAt} variant="page" onDeleted={onDeleted} />
          {stream.data.playlist && stream.data.status !== 'stopped' && (
            <PlaylistEditor key={stream.data.playlist.revision} stream={{ ...stream.data, playlist: stream.data.playlist }} />
          )}
          <StreamHistory stream={stream.data} refetchInterval={refetchInterval} />
        </>
      ) : (
        <QueryFallback query={stream} area="stream" retryLabel={t('streams.retry')} />
      )}
    </>
  );
}

function StreamHistory({ stream, refetchInterval }: { stream: Stream; refetchInterval: number | false }) {
  const { t } = useI18n();
  const history = useStreamHistory(stream, refetchInterval);
  // Day headings ("Today") and the ongoing trouble follow the clock.
  const now = useNow(60_000);
  if (history.data) {
    return (
      <div className="stream-history">
        <StreamUptime uptime={history.data.uptime} />
        <StreamTimeline events={history.data.events} now={now} />
      </div>
    );
  }
  return <QueryFallback query={history} area="stream" retryLabel={t('streams.retry')} />;
}
