import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { useStreamChannels, useVideoCounts } from '../api/stream-sources';
import { useStreamList } from '../api/streams-api';
import { useLiveRefresh } from '../hooks/use-live-refresh';
import { useStreamAnchor } from '../hooks/use-stream-anchor';
import { StreamCard } from './stream-card';
import { QueryFallback } from '../../../components/query-fallback';
import { StreamForm } from './stream-form';

/** The Streams page: every stream of the user, live, and the form for a new one. */
export function StreamsView() {
  const { t } = useI18n();
  // `?new` (the dashboard's "Create a stream") opens with the form.
  const [search] = useSearchParams();
  const [creating, setCreating] = useState(() => search.has('new'));
  useLiveRefresh();

  return (
    <>
      <header className="app-page__header stream-page__header">
        <div>
          <h1 className="app-page__title">{t('app.pages.streams.title')}</h1>
          <p className="stream-page__lead">{t('streams.lead')}</p>
        </div>
        {!creating && <Button onClick={() => setCreating(true)}>{t('streams.new')}</Button>}
      </header>
      {creating && (
        <section className="stream-panel" aria-labelledby="stream-create-title">
          <h2 id="stream-create-title" className="stream-card__title">
            {t('streams.form.createTitle')}
          </h2>
          <StreamForm onDone={() => setCreating(false)} />
        </section>
      )}
      <StreamList hideEmptyState={creating} onCreate={() => setCreating(true)} />
    </>
  );
}

/**
 * No stream yet: what is still missing for the first one, with the button to it (a video on the Videos page, a
 * destination on the Channels page), or, with both there, the button that opens the form. Videos count once
 * uploaded, as on the dashboard (the form offers them once ready).
 */
function NoStreams({ onCreate }: { onCreate: () => void }) {
  const { t, language } = useI18n();
  const videos = useVideoCounts();
  const channels = useStreamChannels();
  if (!videos.data || !channels.data) return <EmptyState icon="broadcast" title={t('streams.emptyTitle')} body={t('streams.emptyBody')} />;
  const needsVideo = videos.data.uploaded === 0;
  const needsDestination = channels.data.length === 0;
  const body = needsVideo
    ? needsDestination
      ? t('streams.emptyBody')
      : t('streams.empty.needsVideo')
    : needsDestination
      ? t('streams.empty.needsDestination')
      : t('streams.empty.ready');
  return (
    <EmptyState icon="broadcast" title={t('streams.emptyTitle')} body={body}>
      {needsVideo && (
        <Link className={buttonClasses({ variant: 'primary' })} to={localizePath('/app/videos', language)}>
          {t('streams.form.uploadVideo')}
        </Link>
      )}
      {needsDestination && (
        <Link className={buttonClasses({ variant: needsVideo ? 'secondary' : 'primary' })} to={localizePath('/app/channels', language)}>
          {t('streams.empty.addDestination')}
        </Link>
      )}
      {!needsVideo && !needsDestination && <Button onClick={onCreate}>{t('streams.empty.create')}</Button>}
    </EmptyState>
  );
}

function StreamList({ hideEmptyState, onCreate }: { hideEmptyState: boolean; onCreate: () => void }) {
  const { t } = useI18n();
  const list = useStreamList();
  useStreamAnchor(list.data !== undefined);
  if (list.data) {
    if (list.data.streams.length === 0) return hideEmptyState ? null : <NoStreams onCreate={onCreate} />;
    return (
      <ul className="stream-list" aria-label={t('streams.listLabel')}>
        {list.data.streams.map((stream) => (
          <StreamCard key={stream.id} listed={stream} listedAt={list.dataUpdatedAt} />
        ))}
      </ul>
    );
  }
  return <QueryFallback query={list} area="stream" retryLabel={t('streams.retry')} />;
}
