import { useI18n } from '../../../i18n/i18n-context';
import type { RealtimeStatus } from '../realtime-client';
import './realtime.css';

/** A quiet line saying whether pages update live or, while the connection is down, every few seconds. */
export function RealtimeIndicator({ status }: { status: RealtimeStatus }) {
  const { t } = useI18n();
  const state = status === 'open' ? 'live' : status === 'down' ? 'polling' : 'connecting';
  return (
    <p className={`realtime-indicator realtime-indicator--${state}`} role="status">
      <span className="realtime-indicator__dot" aria-hidden="true" />
      <span className="realtime-indicator__text">{t(`realtime.${state}`)}</span>
    </p>
  );
}
