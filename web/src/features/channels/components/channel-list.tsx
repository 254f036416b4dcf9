import { errorKeyOf } from '../../../api/client';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state';
import { Icon } from '../../../components/icon';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { QueryFallback } from '../../../components/query-fallback';
import { useChannels, useConnectYouTube, useDeleteChannel, useStreamsUsingChannel, type ChannelView } from '../api/channels-api';
import { platformName } from '../../../lib/platform-text';
import { youtubeChannelUrl } from '../youtube-connect';
import { ChannelAvatar } from './channel-avatar';
import { EditChannelForm } from './edit-channel-form';

/** Every destination of the user, RTMP keys and YouTube accounts alike; `highlightId` marks one just connected. */
export function ChannelList({ highlightId }: { highlightId: string | undefined }) {
  const { t } = useI18n();
  const channels = useChannels();
  if (channels.isPending || channels.isError) return <QueryFallback query={channels} area="dest" retryLabel={t('channels.retry')} />;
  if (channels.data.length === 0) return <EmptyState icon="broadcast" title={t('channels.emptyTitle')} body={t('channels.emptyBody')} />;
  return (
    <ul className="dest-list" aria-label={t('channels.listTitle')}>
      {channels.data.map((channel) => (
        <ChannelItem key={channel.id} channel={channel} highlighted={channel.id === highlightId} />
      ))}
    </ul>
  );
}

function ChannelItem({ channel, highlighted }: { channel: ChannelView; highlighted: boolean }) {
  const { t, errorText, language } = useI18n();
  const [mode, setMode] = useState<'view' | 'editing' | 'confirming'>('view');
  const deletion = useDeleteChannel();
  const streams = useStreamsUsingChannel(channel.id).data ?? [];
  const live = streams.filter((stream) => stream.running);
  const stopped = streams.filter((stream) => !stream.running);
  const names = (list: typeof streams) => new Intl.ListFormat(language.htmlLang).format(list.map((stream) => t('app.quoted', { text: stream.title })));
  const item = useRef<HTMLLIElement>(null);
  const added = new Intl.DateTimeFormat(language.htmlLang, { dateStyle: 'medium' }).format(new Date(channel.createdAt));
  const youtube = channel.youtube;
  // A YouTube account is disconnected; a stream key is deleted.
  const texts = youtube
    ? ({
        title: 'channels.youtube.disconnectTitle',
        question: 'channels.youtube.disconnectQuestion',
        confirm: 'channels.youtube.disconnectConfirm',
        done: 'channels.youtube.disconnected',
        action: 'channels.youtube.disconnect',
      } as const)
    : ({
        title: 'channels.deleteTitle',
        question: 'channels.deleteQuestion',
        confirm: 'channels.deleteConfirm',
        done: 'channels.deleted',
        action: 'channels.delete',
      } as const);

  useEffect(() => {
    if (highlighted) item.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);

  // Awaited rather than mutate's callbacks: the deletion refetches the destinations, whose answer removes this
  // card (and this component) before the deletion ends, which would drop them.
  const remove = async () => {
    try {
      await deletion.mutateAsync(channel.id);
    } catch {
      return; // Shown on the card, which stays.
    }
    showToast({ message: t(texts.done, { name: channel.name }), tone: 'success' });
  };

  return (
    <li ref={item} className={highlighted ? 'dest-card dest-card--highlighted' : 'dest-card'} data-highlighted={highlighted || undefined}>
      <div className="dest-card__heading">
        {youtube && <ChannelAvatar url={youtube.avatarUrl} name={channel.name} />}
        <h3 className="dest-card__name">{channel.name}</h3>
        {!youtube && (
          <span className="dest-card__platform" data-preset={channel.preset}>
            {platformName(t, channel.preset)}
          </span>
        )}
        <span className="dest-card__kind">{t(`channels.kind.${channel.kind}`)}</span>
        {youtube && (
          <span className={`dest-card__status dest-card__status--${youtube.status}`} data-status={youtube.status}>
            {t(`channels.youtube.status.${youtube.status}`)}
          </span>
        )}
      </div>
      <dl className="dest-card__facts">
        {youtube ? (
          <div>
            <dt>{t('channels.youtube.channel')}</dt>
            <dd>
              <a href={youtubeChannelUrl(youtube.channelId)} target="_blank" rel="noreferrer">
                {t('channels.youtube.openChannel')}
              </a>
            </dd>
          </div>
        ) : (
          <>
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
          </>
        )}
        <div>
          <dt>{t('channels.added')}</dt>
          <dd>{added}</dd>
        </div>
      </dl>
      {youtube?.status === 'revoked' && <Reconnect />}
      {deletion.isError && (
        <p className="dest-card__error" role="alert">
          {errorText(errorKeyOf(deletion.error))}
        </p>
      )}
      {mode === 'editing' && <EditChannelForm channel={channel} streams={streams} onDone={() => setMode('view')} />}
      {mode === 'confirming' && (
        <div className="dest-card__confirm" role="group" aria-label={t(texts.title, { name: channel.name })}>
          {live.length > 0 ? (
            <p className="dest-card__note" data-in-use="running">
              {t('channels.inUse.live', { count: live.length, streams: names(live) })}
            </p>
          ) : (
            <p>{t(texts.question, { name: channel.name })}</p>
          )}
          {live.length === 0 && stopped.length > 0 && (
            <p data-in-use="stopped">{t('channels.inUse.stopped', { count: stopped.length, streams: names(stopped) })}</p>
          )}
          <div className="dest-card__actions">
            <Button variant="red" size="small" loading={deletion.isPending} disabled={live.length > 0} onClick={() => void remove()}>
              {t(texts.confirm)}
            </Button>
            <Button variant="secondary" size="small" disabled={deletion.isPending} onClick={() => setMode('view')}>
              {t('channels.cancel')}
            </Button>
          </div>
        </div>
      )}
      {mode === 'view' && (
        <div className="dest-card__actions">
          <Button variant="secondary" size="small" aria-label={t('channels.edit.title', { name: channel.name })} onClick={() => setMode('editing')}>
            {t('channels.edit.button')}
          </Button>
          <Button
            variant="transparent"
            size="small"
            aria-label={t(texts.title, { name: channel.name })}
            onClick={() => {
              deletion.reset();
              setMode('confirming');
            }}
          >
            <Icon name="trash" />
            {t(texts.action)}
          </Button>
        </div>
      )}
    </li>
  );
}

/** A revoked grant: why the account cannot be used, and the same consent flow again to restore it. */
function Reconnect() {
  const { t, errorText, language } = useI18n();
  const connect = useConnectYouTube();
  return (
    <div className="dest-card__revoked">
      <p>{t('channels.youtube.revokedHelp')}</p>
      <div>
        <Button size="small" loading={connect.isPending || connect.isSuccess} onClick={() => connect.mutate(language.code)}>
          {t('channels.youtube.reconnect')}
        </Button>
      </div>
      {connect.isError && (
        <p className="dest-card__error" role="alert">
          {errorText(errorKeyOf(connect.error))}
        </p>
      )}
    </div>
  );
}
