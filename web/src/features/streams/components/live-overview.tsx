// The dashboard's live overview (issue 17, item 3): the streams on air with their health and uptime, updating live
// (realtime events patch the shared ['streams'] entry; useLiveRefresh asks the API when they go quiet), quick
// actions (stop, start, open), and when nothing runs, the next step: upload a video, add a destination, create a
// stream, or start one.
import { errorKeyOf } from '../../../api/client';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { LinkedText } from '../../../components/linked-text';
import { useI18n } from '../../../i18n/i18n-context';
import { QueryFallback } from '../../../components/query-fallback';
import { localizePath } from '../../../i18n/languages';
import { useStreamChannels, useVideoCounts } from '../api/stream-sources';
import { useStream, useStreamAction, useStreamList, type Stream } from '../api/streams-api';
import { useLiveRefresh } from '../hooks/use-live-refresh';
import { useNow } from '../hooks/use-now';
import { formatBitrate, formatDuration, isRunning, lastProblem, restartCount, streamWarning, uptimeSeconds } from '../stream-display';
import { StreamBadges } from './stream-badges';
import { StopStreamButton } from './stop-stream-button';
// The badges' and the loading states' styles are the Streams page's.
import '../streams.css';
import './live-overview.css';

/** At most this many stopped streams are offered to start; the Streams page has them all. */
const STOPPED_SHOWN = 4;

const streamPagePath = (id: string) => `/app/streams#stream-${encodeURIComponent(id)}`;

function ActionError({ error }: { error: unknown }) {
  const { errorText } = useI18n();
  return (
    <p className="live-row__error" role="alert">
      <LinkedText text={errorText(errorKeyOf(error))} />
    </p>
  );
}

/** A stream on air: state, health, uptime counting up, what is wrong if anything, Stop and Open. */
function LiveRow({ listed, listedAt }: { listed: Stream; listedAt: number }) {
  const { t, language, errorText } = useI18n();
  const stream = useStream(listed, listedAt);
  const stop = useStreamAction(stream.id, 'stop');
  const channels = useStreamChannels();
  const now = useNow(1_000, stream.status === 'started');
  const locale = language.htmlLang;
  const uptime = uptimeSeconds(stream, now);
  const failing = (stream.health?.destinations ?? []).filter((destination) => destination.state === 'failed');
  const nameOf = (id: string) => channels.data?.find((channel) => channel.id === id)?.name ?? t('streams.card.unknownDestination');
  const problem = streamWarning(stream) ?? (stream.verdict !== 'healthy' ? lastProblem(stream) : undefined);
  return (
    <li className="live-row" data-stream-id={stream.id} data-verdict={stream.verdict}>
      <div className="live-row__top">
        <Link className="live-row__title" to={localizePath(streamPagePath(stream.id), language)}>
          {stream.title}
        </Link>
        <StreamBadges status={stream.status} verdict={stream.verdict} />
      </div>
      <dl className="live-row__facts">
        <div>
          <dt>{t('streams.card.uptime')}</dt>
          <dd data-stat="uptime">{uptime === undefined ? '–' : formatDuration(uptime, locale)}</dd>
        </div>
        <div>
          <dt>{t('streams.card.bitrate')}</dt>
          <dd>{stream.status === 'started' && stream.health ? formatBitrate(stream.health.bitrateKbps, locale) : '–'}</dd>
        </div>
        <div>
          <dt>{t('streams.card.restarts')}</dt>
          <dd>{restartCount(stream)}</dd>
        </div>
        <div>
          <dt>{t('streams.card.destinations')}</dt>
          <dd>
            {failing.length
              ? t('dashboard.live.failing', { names: new Intl.ListFormat(locale).format(failing.map((d) => nameOf(d.id))) })
              : t('dashboard.live.allReceiving', { count: stream.channelIds.length })}
          </dd>
        </div>
      </dl>
      {problem && <p className="live-row__problem">{'key' in problem ? <LinkedText text={errorText(problem.key)} /> : problem.reason}</p>}
      {stop.isError && <ActionError error={stop.error} />}
      <div className="live-row__actions">
        <StopStreamButton
          stream={stream}
          size="small"
          loading={stop.isPending || stream.status === 'stopping'}
          onStop={() => stop.mutate()}
          label={t('dashboard.live.stopOne', { title: stream.title })}
        >
          <Icon name="stop" />
          {t('streams.card.stop')}
        </StopStreamButton>
        <Link
          className="button button--secondary button--small"
          to={localizePath(streamPagePath(stream.id), language)}
          aria-label={t('dashboard.live.openOne', { title: stream.title })}
        >
          {t('dashboard.live.open')}
        </Link>
      </div>
    </li>
  );
}

/** A stopped stream, ready to start from here. */
function StoppedRow({ stream }: { stream: Stream }) {
  const { t, language } = useI18n();
  const start = useStreamAction(stream.id, 'start');
  return (
    <li className="stopped-row" data-stream-id={stream.id}>
      <Link className="stopped-row__title" to={localizePath(streamPagePath(stream.id), language)}>
        {stream.title}
      </Link>
      {stream.videoId ? (
        <Button size="small" loading={start.isPending} onClick={() => start.mutate()} aria-label={t('dashboard.live.startOne', { title: stream.title })}>
          <Icon name="play" />
          {t('streams.card.start')}
        </Button>
      ) : (
        <Link className="button button--secondary button--small" to={localizePath(streamPagePath(stream.id), language)}>
          {t('streams.card.chooseVideo')}
        </Link>
      )}
      {start.isError && <ActionError error={start.error} />}
    </li>
  );
}

type Step = { id: 'video' | 'destination' | 'stream' | 'start'; done: boolean; path: string };

/** Nothing on air: the steps to a running stream, ticked as they are done, with the next one as a button. */
function NothingLive({ steps }: { steps: Step[] }) {
  const { t, language } = useI18n();
  // With nothing on air, the last step (start one) is never done.
  const next = steps.find((step) => !step.done) ?? steps[steps.length - 1]!;
  return (
    <div className="live-empty" data-next={next.id}>
      <span className="feature__icon feature__icon--large">
        <Icon name="broadcast" />
      </span>
      <h3 className="live-empty__title">{t('dashboard.live.emptyTitle')}</h3>
      <p className="live-empty__body">{t(`dashboard.next.${next.id}.body`)}</p>
      <ol className="setup-steps" aria-label={t('dashboard.next.label')}>
        {steps.map((step) => (
          <li key={step.id} className="setup-step" data-done={step.done || undefined} aria-current={step === next ? 'step' : undefined}>
            <Icon name={step.done ? 'check' : 'minus'} />
            <span>{t(`dashboard.next.${step.id}.title`)}</span>
            {step.done && <span className="visually-hidden">{t('auth.passwordRules.met')}</span>}
          </li>
        ))}
      </ol>
      {next.id !== 'start' && (
        <Link className="button button--primary button--regular" to={localizePath(next.path, language)}>
          {t(`dashboard.next.${next.id}.action`)}
        </Link>
      )}
    </div>
  );
}

export function LiveOverview() {
  const { t, language } = useI18n();
  useLiveRefresh();
  const list = useStreamList();
  const videos = useVideoCounts();
  const channels = useStreamChannels();
  if (!list.data) {
    return <QueryFallback query={list} area="stream" retryLabel={t('streams.retry')} />;
  }
  const streams = list.data.streams;
  const running = streams.filter((stream) => isRunning(stream.status));
  const stopped = streams.filter((stream) => !isRunning(stream.status));
  const steps: Step[] = [
    { id: 'video', done: (videos.data?.uploaded ?? 0) > 0 || streams.length > 0, path: '/app/videos' },
    { id: 'destination', done: (channels.data?.length ?? 0) > 0 || streams.length > 0, path: '/app/channels' },
    { id: 'stream', done: streams.length > 0, path: '/app/streams?new' },
    { id: 'start', done: running.length > 0, path: '/app/streams' },
  ];
  return (
    <div className="live-overview">
      {running.length > 0 ? (
        <ul className="live-list" aria-label={t('dashboard.live.listLabel')}>
          {running.map((stream) => (
            <LiveRow key={stream.id} listed={stream} listedAt={list.dataUpdatedAt} />
          ))}
        </ul>
      ) : (
        <NothingLive steps={steps} />
      )}
      {stopped.length > 0 && (
        <section className="stopped-streams" aria-labelledby="stopped-streams-title">
          <h3 id="stopped-streams-title" className="stopped-streams__title">
            {t('dashboard.live.stoppedTitle', { count: stopped.length })}
          </h3>
          <ul className="stopped-list">
            {stopped.slice(0, STOPPED_SHOWN).map((stream) => (
              <StoppedRow key={stream.id} stream={stream} />
            ))}
          </ul>
          {stopped.length > STOPPED_SHOWN && (
            <Link className="stopped-streams__all" to={localizePath('/app/streams', language)}>
              {t('dashboard.live.allStreams')}
            </Link>
          )}
        </section>
      )}
    </div>
  );
}
