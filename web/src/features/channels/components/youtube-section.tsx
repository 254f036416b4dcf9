import { errorKeyOf } from '../../../api/client';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { ErrorKey } from '@loopcast/core/errors';
import { Button } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { useChannels, useConnectYouTube, useYouTubeAvailable, useYouTubeLimit } from '../api/channels-api';
import { youtubeRoom } from '../youtube-connect';
import { LinkedText } from '../../../components/linked-text';

/**
 * Connecting a YouTube account through Google's consent screen, within the plan's number of accounts; why the last
 * attempt failed when Google's round trip came back with an error; or, on a server without a Google client, that
 * only stream keys work.
 */
export function YouTubeSection({ returnError }: { returnError: ErrorKey | undefined }) {
  const { t, errorText } = useI18n();
  const available = useYouTubeAvailable();
  const [shownError, setShownError] = useState(returnError);

  return (
    <div className="dest-youtube">
      {shownError && (
        <div className="dest-youtube__problem" role="alert">
          <p>
            <LinkedText text={errorText(shownError)} />
          </p>
          <Button variant="transparent" size="small" onClick={() => setShownError(undefined)}>
            {t('channels.youtube.dismiss')}
          </Button>
        </div>
      )}
      {available.isPending && (
        <div className="dest-loading dest-loading--small" aria-busy="true">
          <Spinner />
        </div>
      )}
      {available.data === false && <p className="dest-form__lead">{errorText('youtube not configured')}</p>}
      {available.data === true && <ConnectControls onConnect={() => setShownError(undefined)} />}
    </div>
  );
}

/** The connect button with the plan's count of accounts; at the limit, why it is off and where to upgrade. */
function ConnectControls({ onConnect }: { onConnect: () => void }) {
  const { t, errorText, language } = useI18n();
  const ids = useId();
  const channels = useChannels();
  const limit = useYouTubeLimit();
  const connect = useConnectYouTube();
  const room = youtubeRoom(channels.data ?? [], limit.data);

  return (
    <>
      <p className="dest-form__lead">{t('channels.youtube.lead')}</p>
      {room.limit !== undefined && <p className="dest-youtube__usage">{t('channels.youtube.usage', { connected: room.connected, limit: room.limit })}</p>}
      <div>
        <Button
          className="dest-youtube__connect"
          loading={connect.isPending || connect.isSuccess}
          disabled={room.full}
          aria-describedby={room.full ? `${ids}-full` : undefined}
          onClick={() => {
            onConnect();
            connect.mutate(language.code);
          }}
        >
          <Icon name="youtube" />
          {t('channels.youtube.connect')}
        </Button>
      </div>
      {room.full && (
        <p id={`${ids}-full`} className="dest-youtube__full">
          {t('channels.youtube.atLimit', { count: room.limit ?? 0 })} <Link to={localizePath('/app/billing', language)}>{t('channels.youtube.seePlans')}</Link>
        </p>
      )}
      {connect.isError && (
        <p className="dest-field__error" role="alert">
          {errorText(errorKeyOf(connect.error))}
        </p>
      )}
    </>
  );
}
