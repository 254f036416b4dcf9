import { errorKeyOf } from '../../../api/client';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { useMediaItem, useMediaTitles, useStreamChannels, useStreamPlan, useVideoOutputs } from '../api/stream-sources';
import { useDeleteStream, useStream, useStreamAction, useStreamList, type Stream } from '../api/streams-api';
import { formatRestartTimes, formatScheduledAt, formatWindow, isRunning, lastProblem, lockReason, streamWarning, type Problem } from '../stream-display';
import { useNow } from '../hooks/use-now';
import { ScheduleForm } from './schedule-form';
import { LinkedText } from '../../../components/linked-text';
import { PlatformFitNotes } from './platform-fit-notes';
import { useQualityText } from '../../../lib/use-quality-text';
import { StreamAttention } from './stream-attention';
import { StreamBadges } from './stream-badges';
import { StreamForm } from './stream-form';
import { StreamPreviewView } from './stream-preview';
import { StreamStats } from './stream-stats';
import { StopStreamButton } from './stop-stream-button';

/**
 * One stream: its state and figures live, its preview, and what can be done with it now. Listed on the Streams page
 * (its title links to the stream's page), or as the head of its own page, whose title it then carries.
 */
export function StreamCard({
  listed,
  listedAt,
  variant = 'listed',
  onDeleted,
}: {
  listed: Stream;
  listedAt: number;
  variant?: 'listed' | 'page';
  onDeleted?: () => void;
}) {
  const { t, language } = useI18n();
  const stream = useStream(listed, listedAt);
  const [editing, setEditing] = useState<'stream' | 'schedule' | undefined>();
  const headingId = useId();
  const Root = variant === 'page' ? 'section' : 'li';
  const Heading = variant === 'page' ? 'h1' : 'h2';
  const pageLink = localizePath(`/app/streams/${encodeURIComponent(stream.id)}`, language);

  if (editing) {
    return (
      <Root className="stream-card" aria-labelledby={headingId} data-editing={editing}>
        <Heading id={headingId} className="stream-card__title">
          {editing === 'stream' ? t('streams.form.editTitle', { title: stream.title }) : t('streams.schedule.editTitle', { title: stream.title })}
        </Heading>
        {editing === 'stream' ? (
          <StreamForm stream={stream} onDone={() => setEditing(undefined)} />
        ) : (
          <ScheduleForm stream={stream} onDone={() => setEditing(undefined)} />
        )}
      </Root>
    );
  }
  return (
    <Root
      className={`stream-card stream-card--${variant}`}
      id={`stream-${stream.id}`}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-stream-id={stream.id}
      data-needs-attention={stream.needsAttention || undefined}
    >
      <div className="stream-card__top">
        <Heading id={headingId} className="stream-card__title">
          {variant === 'listed' ? (
            <Link to={pageLink} className="stream-card__title-link">
              {stream.title}
            </Link>
          ) : (
            stream.title
          )}
        </Heading>
        <StreamBadges status={stream.status} verdict={stream.verdict} needsAttention={stream.needsAttention} />
      </div>
      <StreamAttention stream={stream} />
      {stream.description && <p className="stream-card__description">{stream.description}</p>}
      <StreamSetup stream={stream} />
      <div className={stream.preview ? 'stream-card__live stream-card__live--preview' : 'stream-card__live'}>
        {stream.preview && <StreamPreviewView preview={stream.preview} title={stream.title} />}
        {isRunning(stream.status) && <StreamStats stream={stream} />}
      </div>
      <StreamProblems stream={stream} />
      <StreamPlatformFit stream={stream} />
      <StreamActions
        stream={stream}
        onEdit={() => setEditing('stream')}
        onEditSchedule={() => setEditing('schedule')}
        onDeleted={onDeleted}
        historyLink={variant === 'listed' ? pageLink : undefined}
      />
    </Root>
  );
}

/** What the stream plays, where to, and when it restarts. */
function StreamSetup({ stream }: { stream: Stream }) {
  const { t, language } = useI18n();
  const titles = useMediaTitles();
  const outputs = useVideoOutputs();
  const { outputText } = useQualityText();
  const output = stream.videoId ? outputs.data?.get(stream.videoId) : undefined;
  const channels = useStreamChannels();
  const failing = new Set(stream.health?.destinations.filter((d) => d.state === 'failed').map((d) => d.id));
  const channelOf = (channelId: string) => channels.data?.find((channel) => channel.id === channelId);
  const nameOf = (channelId: string) => channelOf(channelId)?.name ?? t('streams.card.unknownDestination');
  const toYouTube = stream.channelIds.some((channelId) => channelOf(channelId)?.kind === 'youtube');
  const mediaTitle = (id: string | undefined) => (id ? (titles.data?.get(id) ?? t('streams.card.unknownMedia')) : undefined);
  const restarts = stream.restartTimes.length
    ? `${formatRestartTimes(stream.restartTimes, language.htmlLang)} · ${stream.timeZone}`
    : t('streams.card.noSchedule');

  return (
    <dl className="stream-setup">
      <div>
        <dt>{t('streams.card.video')}</dt>
        <dd>
          {stream.playlist ? (
            t(stream.playlist.shuffle ? 'streams.playlist.summaryShuffled' : 'streams.playlist.summary', {
              count: stream.playlist.videoIds.length,
              first: mediaTitle(stream.playlist.videoIds[0]),
            })
          ) : stream.videoId ? (
            mediaTitle(stream.videoId)
          ) : (
            <span className="stream-setup__missing">{t('streams.card.noVideo')}</span>
          )}
        </dd>
      </div>
      {output && (
        <div data-quality={output.profile}>
          <dt>{t('streams.card.quality')}</dt>
          <dd>{outputText(output)}</dd>
        </div>
      )}
      <div>
        <dt>{t('streams.card.audio')}</dt>
        <dd>{mediaTitle(stream.audioId) ?? t('streams.card.ownAudio')}</dd>
      </div>
      <div>
        <dt>{t('streams.card.destinations')}</dt>
        <dd>
          {stream.channelIds.length === 0 ? (
            t('streams.card.noDestinations')
          ) : (
            <ul className="stream-setup__destinations">
              {stream.channelIds.map((channelId) => (
                <li
                  key={channelId}
                  className={failing.has(channelId) ? 'stream-setup__destination stream-setup__destination--failing' : 'stream-setup__destination'}
                >
                  {channelOf(channelId)?.kind === 'youtube' && <Icon name="youtube" className="stream-setup__youtube" />}
                  {failing.has(channelId) ? t('streams.card.destinationFailing', { name: nameOf(channelId) }) : nameOf(channelId)}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
      {toYouTube && (
        <div>
          <dt>{t('streams.card.youtube')}</dt>
          <dd>
            {t(`streams.privacy.${stream.privacy ?? 'public'}`)} ·{' '}
            {stream.hasCustomThumbnail ? t('streams.card.ownThumbnail') : t('streams.card.videoThumbnail')}
          </dd>
        </div>
      )}
      <StreamOnAir stream={stream} />
      <div>
        <dt>{t('streams.card.schedule')}</dt>
        <dd>{restarts}</dd>
      </div>
    </dl>
  );
}

/** When it goes on and off air by itself: by hand only, once, or its weekly windows; and its next start and stop. */
function StreamOnAir({ stream }: { stream: Stream }) {
  const { t, language } = useI18n();
  const now = useNow(60_000);
  const locale = language.htmlLang;
  const { schedule, nextStartAt, nextStopAt } = stream;
  const summary =
    schedule?.kind === 'weekly'
      ? new Intl.ListFormat(locale, { style: 'narrow', type: 'conjunction' }).format(schedule.windows.map((window) => formatWindow(window, locale)))
      : schedule?.kind === 'once'
        ? nextStartAt || nextStopAt
          ? t('streams.card.once')
          : t('streams.card.onceDone')
        : t('streams.card.byHand');
  return (
    <div className="stream-setup__on-air" data-schedule={schedule?.kind ?? 'none'}>
      <dt>{t('streams.card.onAir')}</dt>
      <dd>
        <span>{summary}</span>
        {nextStartAt && (
          <span className="stream-setup__next" data-next="start">
            {t('streams.card.nextStart', { at: formatScheduledAt(nextStartAt, stream.timeZone, locale, now) })}
          </span>
        )}
        {nextStopAt && (
          <span className="stream-setup__next" data-next="stop">
            {t('streams.card.nextStop', { at: formatScheduledAt(nextStopAt, stream.timeZone, locale, now) })}
          </span>
        )}
      </dd>
    </div>
  );
}

/** What went wrong last, and what needs attention on a stream that keeps running. */
function StreamProblems({ stream }: { stream: Stream }) {
  const { t } = useI18n();
  const problem = lastProblem(stream);
  const warning = streamWarning(stream);
  return (
    <>
      {warning && (
        <p className="stream-card__warning" role="status">
          <strong>{t('streams.card.warning')}:</strong> <ProblemText problem={warning} />
        </p>
      )}
      {problem && (
        <p className="stream-card__problem">
          <strong>{t('streams.card.lastProblem')}:</strong> <ProblemText problem={problem} />
        </p>
      )}
    </>
  );
}

/** The stream's video against its destinations' platforms (warnings; a refusal if the video changed since). */
function StreamPlatformFit({ stream }: { stream: Stream }) {
  const video = useMediaItem(stream.videoId).data;
  const channels = useStreamChannels().data ?? [];
  return <PlatformFitNotes video={video} channels={channels.filter((channel) => stream.channelIds.includes(channel.id))} />;
}

/** A catalogue key translated (with its links), or the stream task's own words. */
function ProblemText({ problem }: { problem: Problem }) {
  const { errorText } = useI18n();
  return 'key' in problem ? <LinkedText text={errorText(problem.key)} /> : problem.reason;
}

/** Start or stop; edit and delete only while stopped, with the API's reason shown otherwise. */
function StreamActions({
  stream,
  onEdit,
  onEditSchedule,
  onDeleted,
  historyLink,
}: {
  stream: Stream;
  onEdit: () => void;
  onEditSchedule: () => void;
  onDeleted?: () => void;
  historyLink?: string;
}) {
  const { t, errorText } = useI18n();
  const noteId = useId();
  const start = useStreamAction(stream.id, 'start');
  const stop = useStreamAction(stream.id, 'stop');
  const removal = useDeleteStream(stream.id);
  const [confirming, setConfirming] = useState(false);
  const locked = lockReason(stream.status);
  const failed = [start, stop, removal].find((mutation) => mutation.isError);

  const remove = () =>
    removal.mutate(undefined, {
      onSuccess: () => {
        showToast({ message: t('streams.card.deleted', { title: stream.title }), tone: 'success' });
        onDeleted?.();
      },
    });
  const act = (mutation: typeof start) => {
    for (const other of [start, stop, removal]) other.reset();
    mutation.mutate();
  };

  if (confirming && !locked) {
    return (
      <div className="stream-card__confirm" role="group" aria-label={t('streams.card.deleteTitle', { title: stream.title })}>
        <p>{t('streams.card.deleteQuestion', { title: stream.title })}</p>
        {removal.isError && (
          <p className="stream-field__error" role="alert">
            {errorText(errorKeyOf(removal.error))}
          </p>
        )}
        <div className="stream-card__actions">
          <Button variant="red" size="small" loading={removal.isPending} onClick={remove}>
            {t('streams.card.deleteConfirm')}
          </Button>
          <Button variant="secondary" size="small" disabled={removal.isPending} onClick={() => setConfirming(false)}>
            {t('streams.card.cancel')}
          </Button>
        </div>
      </div>
    );
  }
  const noVideo = !stream.videoId && !isRunning(stream.status);
  return (
    <div className="stream-card__footer">
      {noVideo && (
        <p className="stream-card__next" data-next="choose-video">
          {t('streams.card.videoDeleted')}
        </p>
      )}
      {failed && (
        <div role="alert">
          <p className="stream-field__error">
            <LinkedText text={errorText(errorKeyOf(failed.error))} />
          </p>
          <NextStep refusal={errorKeyOf(failed.error)} />
        </div>
      )}
      <div className="stream-card__actions">
        {isRunning(stream.status) ? (
          <StopStreamButton stream={stream} loading={stop.isPending || stream.status === 'stopping'} onStop={() => act(stop)}>
            {t('streams.card.stop')}
          </StopStreamButton>
        ) : noVideo ? (
          <Button onClick={onEdit}>{t('streams.card.chooseVideo')}</Button>
        ) : (
          <Button loading={start.isPending} onClick={() => act(start)}>
            {t('streams.card.start')}
          </Button>
        )}
        <Button variant="secondary" disabled={locked !== undefined} aria-describedby={locked ? noteId : undefined} onClick={onEdit}>
          {t('streams.card.edit')}
        </Button>
        {/* In any state: a running stream's timetable may change (it keeps running until its next stop). */}
        <Button variant="secondary" onClick={onEditSchedule}>
          <Icon name="calendar" />
          {t('streams.card.editSchedule')}
        </Button>
        <Button
          variant="transparent"
          disabled={locked !== undefined}
          aria-describedby={locked ? noteId : undefined}
          aria-label={t('streams.card.deleteTitle', { title: stream.title })}
          onClick={() => {
            removal.reset();
            setConfirming(true);
          }}
        >
          <Icon name="trash" />
          {t('streams.card.delete')}
        </Button>
        {historyLink && (
          <Link to={historyLink} className={buttonClasses({ variant: 'transparent' }, 'stream-card__history-link')}>
            <span className="button__label">
              <Icon name="clock" />
              {t('streams.card.history')}
            </span>
          </Link>
        )}
      </div>
      {locked && (
        <p id={noteId} className="stream-card__lock">
          {/* Live, the playlist and schedule still change: the note says so rather than "cannot modify". */}
          {locked === 'stream started' ? t('streams.card.lockedLive') : errorText(locked)}
        </p>
      )}
    </div>
  );
}

/**
 * What to do about a refused start, beside the catalogue's words: a limit on streams at once is resolved by stopping
 * one (they are named) or a plan that runs more, not by waiting for a billing cycle; an ended plan or a failed
 * payment by the plan page.
 */
function NextStep({ refusal }: { refusal: string }) {
  const { t, language } = useI18n();
  const plan = useStreamPlan();
  const list = useStreamList();
  if (refusal !== 'stream limit' && refusal !== 'no active subscription' && refusal !== 'no valid payment') return null;
  const running = (list.data?.streams ?? []).filter((stream) => isRunning(stream.status)).map((stream) => t('app.quoted', { text: stream.title }));
  const text =
    refusal === 'stream limit'
      ? t('streams.next.streamLimit', {
          count: plan.data?.concurrentStreams ?? running.length,
          streams: new Intl.ListFormat(language.htmlLang).format(running),
        })
      : t(refusal === 'no valid payment' ? 'streams.next.payment' : 'streams.next.noPlan');
  return (
    <p className="stream-card__next">
      {text} <Link to={localizePath('/app/billing', language)}>{t('streams.seePlans')}</Link>
    </p>
  );
}
