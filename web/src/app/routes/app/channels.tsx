// The Channels page: where streams go. The destinations list shows every kind; each way of adding one has its own
// section in the side column: connecting a YouTube account, and a stream key for any RTMP platform. Google's
// consent screen sends the browser back here with what came of connecting.
import type { MetaArgs } from 'react-router';
import { AddRtmpChannelForm } from '../../../features/channels/components/add-rtmp-channel-form';
import { ChannelList } from '../../../features/channels/components/channel-list';
import { YouTubeSection } from '../../../features/channels/components/youtube-section';
import { useConnectReturn } from '../../../features/channels/hooks/use-connect-return';
import '../../../features/channels/channels.css';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.channels.title');
export const handle = { pageName: 'channels' };

export default function ChannelsPage() {
  const { t } = useI18n();
  const back = useConnectReturn();
  return (
    <>
      <header className="app-page__header">
        <h1 className="app-page__title">{t('app.pages.channels.title')}</h1>
        <p className="dest-page__lead">{t('channels.lead')}</p>
      </header>
      <div className="dest-page">
        <section className="dest-page__list" aria-labelledby="channels-list-title">
          <h2 id="channels-list-title" className="dest-page__heading">
            {t('channels.listTitle')}
          </h2>
          <ChannelList highlightId={back && 'connected' in back ? back.connected : undefined} />
        </section>
        <div className="dest-page__add">
          <section className="dest-panel" aria-labelledby="channels-youtube-title">
            <h2 id="channels-youtube-title" className="dest-page__heading">
              {t('channels.youtube.title')}
            </h2>
            <YouTubeSection returnError={back && 'error' in back ? back.error : undefined} />
          </section>
          <section className="dest-panel" aria-labelledby="channels-rtmp-title">
            <h2 id="channels-rtmp-title" className="dest-page__heading">
              {t('channels.rtmp.title')}
            </h2>
            <AddRtmpChannelForm />
          </section>
        </div>
      </div>
    </>
  );
}
