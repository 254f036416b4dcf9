import { useState } from 'react';
import { Button } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state';
import { Icon } from '../../../components/icon';
import { Spinner } from '../../../components/spinner';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { useChannels, useDeleteChannel, type ChannelView } from '../api/channels-api';
import { errorKeyOf } from '../api/error-key';

/** Every destination of the user, RTMP keys and (later) YouTube accounts alike. */
export function ChannelList() {
  const { t, errorText } = useI18n();
  const channels = useChannels();
  if (channels.isPending) {
    return (
      <div className="dest-loading" aria-busy="true">
        <Spinner className="spinner--large" />
      </div>
    );
  }
  if (channels.isError) {
    return (
      <div className="dest-problem" role="alert">
        <p>{errorText(errorKeyOf(channels.error))}</p>
        <Button variant="secondary" size="small" onClick={() => void channels.refetch()}>
          {t('channels.retry')}
        </Button>
      </div>
    );
  }
  if (channels.data.length === 0) return <EmptyState icon="broadcast" title={t('channels.emptyTitle')} body={t('channels.emptyBody')} />;
  return (
    <ul className="dest-list" aria-label={t('channels.listTitle')}>
      {channels.data.map((channel) => (
        <ChannelItem key={channel.id} channel={channel} />
      ))}
    </ul>
  );
}

function ChannelItem({ channel }: { channel: ChannelView }) {
  const { t, errorText, language } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const deletion = useDeleteChannel();
  const added = new Intl.DateTimeFormat(language.htmlLang, { dateStyle: 'medium' }).format(new Date(channel.createdAt));

  const remove = () =>
    deletion.mutate(channel.id, {
      onSuccess: () => showToast({ message: t('channels.deleted', { name: channel.name }), tone: 'success' }),
    });

  return (
    <li className="dest-card">
      <div className="dest-card__heading">
        <h3 className="dest-card__name">{channel.name}</h3>
        <span className="dest-card__kind">{t(`channels.kind.${channel.kind}`)}</span>
      </div>
      <dl className="dest-card__facts">
        {channel.rtmpUrl && (
          <div>
            <dt>{t('channels.serverUrl')}</dt>
            <dd className="dest-card__mono">{channel.rtmpUrl}</dd>
          </div>
        )}
        {channel.keyHint && (
          <div>
            <dt>{t('channels.streamKey')}</dt>
            <dd className="dest-card__mono">{channel.keyHint}</dd>
          </div>
        )}
        <div>
          <dt>{t('channels.added')}</dt>
          <dd>{added}</dd>
        </div>
      </dl>
      {deletion.isError && (
        <p className="dest-card__error" role="alert">
          {errorText(errorKeyOf(deletion.error))}
        </p>
      )}
      {confirming ? (
        <div className="dest-card__confirm" role="group" aria-label={t('channels.deleteTitle', { name: channel.name })}>
          <p>{t('channels.deleteQuestion', { name: channel.name })}</p>
          <div className="dest-card__actions">
            <Button variant="red" size="small" loading={deletion.isPending} onClick={remove}>
              {t('channels.deleteConfirm')}
            </Button>
            <Button variant="secondary" size="small" disabled={deletion.isPending} onClick={() => setConfirming(false)}>
              {t('channels.cancel')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="dest-card__actions">
          <Button
            variant="transparent"
            size="small"
            aria-label={t('channels.deleteTitle', { name: channel.name })}
            onClick={() => {
              deletion.reset();
              setConfirming(true);
            }}
          >
            <Icon name="trash" />
            {t('channels.delete')}
          </Button>
        </div>
      )}
    </li>
  );
}
