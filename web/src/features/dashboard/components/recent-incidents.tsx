import { Link } from 'react-router';
import { isErrorKey } from '@loopcast/core/errors';
import { ApiError } from '../../../api/client';
import { Icon } from '../../../components/icon';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { useRecentIncidents, type Incident } from '../api/incidents-api';
import './dashboard.css';

/** The list shows the newest this many; each stream's page has the whole history. */
const SHOWN = 8;

/** "7 min", "1 h 5 min", in the page's language. */
function formatLength(seconds: number, locale: string): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  const unit = (amount: number, name: 'minute' | 'hour' | 'day') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(amount);
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return [unit(hours, 'hour'), ...(minutes % 60 ? [unit(minutes % 60, 'minute')] : [])].join(' ');
  return unit(Math.round(hours / 24), 'day');
}

/** How each incident kind reads: its words (dashboard.incidents.kind.*) and its colour. */
const kinds: Partial<Record<Incident['kind'], { words: 'interrupted' | 'restarted' | 'attention' | 'recovered'; tone: 'bad' | 'warning' | 'good' }>> = {
  interrupted: { words: 'interrupted', tone: 'bad' },
  restarted: { words: 'restarted', tone: 'warning' },
  'needs attention': { words: 'attention', tone: 'bad' },
  recovered: { words: 'recovered', tone: 'good' },
};

function IncidentRow({ incident }: { incident: Incident }) {
  const { t, errorText, language } = useI18n();
  const locale = language.htmlLang;
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(incident.at));
  const kind = kinds[incident.kind] ?? { words: 'interrupted', tone: 'bad' };
  const seconds = incident.durationSeconds;
  const length = incident.ongoing
    ? t('dashboard.incidents.ongoing')
    : seconds === undefined
      ? undefined
      : t(incident.kind === 'recovered' ? 'dashboard.incidents.after' : 'dashboard.incidents.lasted', { length: formatLength(seconds, locale) });
  return (
    <li className="incident" data-kind={incident.kind} data-tone={kind.tone}>
      <span className="incident__mark" aria-hidden="true">
        <Icon name={incident.kind === 'recovered' ? 'check' : 'alert'} />
      </span>
      <span className="incident__text">
        <span className="incident__what">
          <strong>{t(`dashboard.incidents.kind.${kind.words}`)}</strong>
          {length && <span> · {length}</span>}
        </span>
        <Link className="incident__stream" to={localizePath(`/app/streams#stream-${encodeURIComponent(incident.streamId)}`, language)}>
          {incident.streamTitle}
        </Link>
        {incident.reason && isErrorKey(incident.reason) && <span className="incident__reason">{errorText(incident.reason)}</span>}
      </span>
      <time className="incident__when" dateTime={incident.at}>
        {when}
      </time>
    </li>
  );
}

/** What went wrong lately across the streams (7 days), newest first; a quiet week says so. */
export function RecentIncidents({ refetchInterval }: { refetchInterval: number | false }) {
  const { t, errorText } = useI18n();
  const incidents = useRecentIncidents(refetchInterval);
  if (!incidents.data) {
    return incidents.isError ? (
      <p className="incidents__problem" role="alert">
        {errorText(incidents.error instanceof ApiError ? incidents.error.key : 'internal error')}
      </p>
    ) : (
      <div className="incidents incidents--loading" aria-busy="true">
        <Spinner />
      </div>
    );
  }
  if (incidents.data.length === 0) {
    return (
      <p className="incidents incidents--none">
        <Icon name="check" />
        {t('dashboard.incidents.none')}
      </p>
    );
  }
  return (
    <ul className="incidents" aria-label={t('dashboard.incidents.title')}>
      {incidents.data.slice(0, SHOWN).map((incident) => (
        <IncidentRow key={`${incident.streamId}-${incident.at}-${incident.kind}`} incident={incident} />
      ))}
    </ul>
  );
}
