import { useI18n } from '../../../i18n/i18n-context';
import type { Stream } from '../api/streams-api';
import { useNow } from '../hooks/use-now';
import { formatMoment, isRunning } from '../stream-display';

/**
 * The verdict of a running stream that has not been healthy for longer than its attention time (the API's
 * `needsAttention`): since when (the time, with the date once it is not today), and what it means, in plain words. Amber, not red: Loopcast keeps
 * restarting it, and often it comes back by itself.
 */
export function StreamAttention({ stream }: { stream: Pick<Stream, 'status' | 'needsAttention' | 'attentionSince' | 'attentionMinutes'> }) {
  const { t, language } = useI18n();
  const now = useNow(60_000, stream.needsAttention);
  if (!stream.needsAttention || !isRunning(stream.status)) return null;
  const locale = language.htmlLang;
  const since = stream.attentionSince;
  return (
    <div className="stream-attention" role="status">
      <p className="stream-attention__title">
        {since ? t('streams.attention.since', { time: formatMoment(since, locale, now) }) : t('streams.attention.badge')}
      </p>
      <p className="stream-attention__body">{t('streams.attention.body', { count: stream.attentionMinutes })}</p>
    </div>
  );
}
