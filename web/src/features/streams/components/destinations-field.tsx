import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import type { ChannelView } from '../api/stream-sources';
import { toggleChannel } from '../stream-draft';

interface DestinationsFieldProps {
  channels: ChannelView[];
  chosen: string[];
  onChange: (channelIds: string[]) => void;
  /** Destinations per stream on the user's plan; undefined while it loads. */
  limit: number | undefined;
  problem?: string;
}

/** The destinations a stream goes to: one on Basic and the trial, several with multistreaming (Pro, Custom). */
export function DestinationsField({ channels, chosen, onChange, limit, problem }: DestinationsFieldProps) {
  const { t, language } = useI18n();
  const ids = useId();
  return (
    <fieldset className="stream-field stream-fieldset" aria-describedby={`${ids}-limit ${ids}-problem`}>
      <legend className="stream-label">{t('streams.form.destinations')}</legend>
      {channels.length === 0 ? (
        <p className="stream-field__help">
          {t('streams.form.noDestinations')} <Link to={localizePath('/app/channels', language)}>{t('streams.form.addDestination')}</Link>
        </p>
      ) : (
        <ul className="stream-choices">
          {channels.map((channel) => (
            <li key={channel.id}>
              <label className="stream-choice">
                <input
                  type="checkbox"
                  checked={chosen.includes(channel.id)}
                  onChange={(event) => onChange(toggleChannel(chosen, channel.id, event.target.checked))}
                />
                {channel.youtube && <YouTubeMark avatarUrl={channel.youtube.avatarUrl} />}
                <span className="stream-choice__name">{channel.name}</span>
                {channel.youtube ? (
                  <span className={channel.youtube.status === 'revoked' ? 'stream-choice__note stream-choice__note--problem' : 'stream-choice__note'}>
                    {channel.youtube.status === 'revoked' ? t('streams.form.youtubeRevoked') : t('streams.form.youtubeChannel')}
                  </span>
                ) : (
                  channel.rtmpUrl && <span className="stream-choice__detail">{channel.rtmpUrl}</span>
                )}
              </label>
            </li>
          ))}
        </ul>
      )}
      {limit !== undefined && (
        <p id={`${ids}-limit`} className="stream-field__help">
          {t('streams.form.destinationLimit', { count: limit })}
        </p>
      )}
      {problem && (
        <p id={`${ids}-problem`} className="stream-field__error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

/** A YouTube account's picture, or YouTube's icon when it has none or it cannot be loaded. */
function YouTubeMark({ avatarUrl }: { avatarUrl: string | undefined }) {
  const [failed, setFailed] = useState(false);
  if (avatarUrl && !failed)
    return <img className="stream-choice__avatar" src={avatarUrl} alt="" width={24} height={24} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
  return <Icon name="youtube" className="stream-choice__youtube" />;
}
