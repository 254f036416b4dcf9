import { useI18n } from '../../../i18n/i18n-context';
import type { Stream } from '../api/streams-api';
import { useNow } from '../hooks/use-now';
import { formatBitrate, formatDecimal, formatDuration, formatRestartAt, restartCount, uptimeSeconds } from '../stream-display';

/** The running stream's figures: uptime (counting up), bitrate, frame rate, loops, restarts, next scheduled restart. */
export function StreamStats({ stream }: { stream: Stream }) {
  const { t, language } = useI18n();
  const now = useNow(1_000, stream.status === 'started');
  const locale = language.htmlLang;
  const health = stream.health;
  const uptime = uptimeSeconds(stream, now);
  const live = stream.status === 'started' && health !== undefined;
  const figures = [
    { name: 'uptime', label: t('streams.card.uptime'), value: uptime === undefined ? undefined : formatDuration(uptime, locale) },
    { name: 'bitrate', label: t('streams.card.bitrate'), value: live ? formatBitrate(health.bitrateKbps, locale) : undefined },
    { name: 'fps', label: t('streams.card.fps'), value: live ? formatDecimal(health.fps, locale) : undefined },
    { name: 'loops', label: t('streams.card.loops'), value: health ? formatDecimal(health.loops, locale) : undefined },
    { name: 'restarts', label: t('streams.card.restarts'), value: formatDecimal(restartCount(stream), locale) },
    {
      name: 'next-restart',
      label: t('streams.card.nextRestart'),
      value: health?.nextRestartAt ? formatRestartAt(health.nextRestartAt, stream.timeZone, locale) : undefined,
    },
  ];
  return (
    <dl className="stream-stats">
      {figures.map(({ name, label, value }) => (
        <div key={name} className="stream-stats__item" data-stat={name}>
          <dt>{label}</dt>
          <dd>
            {value ?? (
              <>
                <span aria-hidden="true">–</span>
                <span className="visually-hidden">{t('streams.card.noFigure')}</span>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
