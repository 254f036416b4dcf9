import { useId } from 'react';
import { LinkedText } from '../../../components/linked-text';
import { useI18n } from '../../../i18n/i18n-context';
import { timeFormat } from '../../../lib/format';
import { formatDuration } from '../stream-display';
import { formatDay, groupByDay, timelineItems, type TimelineEntry, type TimelineItem } from '../stream-history';

/** The entry's words in the catalogue (section streams.history.event): a stop or a YouTube broadcast change reads
 * differently with a reason than without. */
function wordsOf(item: TimelineItem) {
  switch (item.kind) {
    case 'started':
      return item.bySchedule ? 'startedBySchedule' : 'started';
    case 'start refused':
      return 'startRefused';
    case 'scheduled restart':
      return 'scheduledRestart';
    case 'needs attention':
      return 'needsAttention';
    case 'broadcast':
      return item.reason ? 'broadcastWarning' : 'broadcastClear';
    case 'stopped':
      return item.bySchedule ? 'stoppedBySchedule' : item.reason ? 'stoppedWithReason' : 'stoppedByYou';
    default:
      return item.kind;
  }
}

/** How long the trouble lasted, or that it goes on. */
function lengthOf(item: TimelineItem, duration: string | undefined) {
  if (item.kind === 'needs attention') return item.ongoing ? ({ key: 'stillGoing' } as const) : duration ? ({ key: 'lasted', duration } as const) : undefined;
  if (item.kind === 'interrupted' || item.kind === 'restarted')
    return item.ongoing ? ({ key: 'stillOffAir' } as const) : duration ? ({ key: 'offAir', duration } as const) : undefined;
  return undefined;
}

/** What happened to the stream in the last 30 days, newest first, by day in the viewer's clock. */
export function StreamTimeline({ events, now }: { events: readonly TimelineEntry[]; now: number }) {
  const { t, language } = useI18n();
  const titleId = useId();
  const days = groupByDay(timelineItems(events), now);
  const dayName = (day: (typeof days)[number]) =>
    day.daysAgo === 0 ? t('streams.history.today') : day.daysAgo === 1 ? t('streams.history.yesterday') : formatDay(day.day, language.htmlLang);
  return (
    <section className="stream-history__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="stream-history__title">
        {t('streams.history.timelineTitle')}
      </h2>
      {days.length === 0 ? (
        <p className="stream-history__empty">{t('streams.history.empty')}</p>
      ) : (
        days.map((day) => (
          <div key={day.day} className="stream-timeline__day">
            <h3 className="stream-timeline__date">{dayName(day)}</h3>
            <ol className="stream-timeline">
              {day.items.map((item) => (
                <TimelineEvent key={item.id} item={item} />
              ))}
            </ol>
          </div>
        ))
      )}
      <p className="stream-history__note">{t('streams.history.kept')}</p>
    </section>
  );
}

function TimelineEvent({ item }: { item: TimelineItem }) {
  const { t, language, errorText } = useI18n();
  const locale = language.htmlLang;
  const words = wordsOf(item);
  const duration = item.durationSeconds !== undefined ? formatDuration(item.durationSeconds, locale, 'short') : undefined;
  const length = lengthOf(item, duration);
  return (
    <li className={`stream-event stream-event--${item.tone}`} data-kind={item.kind} data-ongoing={item.ongoing || undefined}>
      <time className="stream-event__time" dateTime={item.at}>
        {timeFormat(locale).format(Date.parse(item.at))}
      </time>
      <div className="stream-event__text">
        <p className="stream-event__title">
          {t(`streams.history.event.${words}.title`)}
          {length && (
            <span className="stream-event__length">
              {' '}
              · {t(`streams.history.length.${length.key}`, { duration: 'duration' in length ? length.duration : '' })}
            </span>
          )}
        </p>
        <p className="stream-event__body">{t(`streams.history.event.${words}.body`, { duration: duration ?? '' })}</p>
        {item.reason &&
          ('key' in item.reason ? (
            <p className="stream-event__reason">
              <LinkedText text={errorText(item.reason.key)} />
            </p>
          ) : (
            <p className="stream-event__detail">
              {t('streams.history.details')}: <code>{item.reason.reason}</code>
            </p>
          ))}
      </div>
    </li>
  );
}
