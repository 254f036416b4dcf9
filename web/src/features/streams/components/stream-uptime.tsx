import { useId } from 'react';
import { useI18n } from '../../../i18n/i18n-context';
import type { HistoryView } from '../stream-history';
import { formatUptime } from '../stream-history';

const windows = ['day', 'week', 'month'] as const;

/** Uptime over 24 hours, 7 and 30 days: the share of the time the stream was meant to run that it was on air. */
export function StreamUptime({ uptime }: { uptime: HistoryView['uptime'] }) {
  const { t, language } = useI18n();
  const noteId = useId();
  return (
    <section className="stream-history__section" aria-labelledby={`${noteId}-title`}>
      <h2 id={`${noteId}-title`} className="stream-history__title">
        {t('streams.history.uptimeTitle')}
      </h2>
      <dl className="stream-uptime" aria-describedby={noteId}>
        {windows.map((window) => {
          const share = uptime[window];
          return (
            <div key={window} className="stream-uptime__item" data-window={window}>
              <dt>{t(`streams.history.window.${window}`)}</dt>
              <dd>
                {share === null ? (
                  <span className="stream-uptime__none">{t('streams.history.notRunning')}</span>
                ) : (
                  <span className="stream-uptime__value">{formatUptime(share, language.htmlLang)}</span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <p id={noteId} className="stream-history__note">
        {t('streams.history.uptimeNote')}
      </p>
    </section>
  );
}
