import { useI18n } from '../../../i18n/i18n-context';
import type { HealthVerdict, StreamStatus } from '../api/streams-api';
import { isRunning, statusTone, verdictTone } from '../stream-display';

/** The stream's state and, while it runs, how healthy it is, and whether it needs its creator (an incident). */
export function StreamBadges({ status, verdict, needsAttention = false }: { status: StreamStatus; verdict: HealthVerdict; needsAttention?: boolean }) {
  const { t } = useI18n();
  return (
    <div className="stream-badges">
      <span className={`stream-badge stream-badge--${statusTone[status]}`} data-status={status}>
        <span className="visually-hidden">{t('streams.card.statusLabel')}: </span>
        {t(`streams.status.${status}`)}
      </span>
      {isRunning(status) && (
        <span className={`stream-badge stream-badge--outline stream-badge--${verdictTone[verdict]}`} data-verdict={verdict}>
          <span className="visually-hidden">{t('streams.card.verdictLabel')}: </span>
          {t(`streams.verdict.${verdict}`)}
        </span>
      )}
      {needsAttention && (
        <span className="stream-badge stream-badge--attention" data-attention="true">
          {t('streams.attention.badge')}
        </span>
      )}
    </div>
  );
}
