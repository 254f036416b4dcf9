import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state';
import { useI18n } from '../../../i18n/i18n-context';
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
      <StreamList hideEmptyState={creating} />
    </>
  );
}

function StreamList({ hideEmptyState }: { hideEmptyState: boolean }) {
  const { t } = useI18n();
  const list = useStreamList();
  useStreamAnchor(list.data !== undefined);
  if (list.data) {
    if (list.data.streams.length === 0)
      return hideEmptyState ? null : <EmptyState icon="broadcast" title={t('streams.emptyTitle')} body={t('streams.emptyBody')} />;
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
