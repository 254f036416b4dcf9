// The Channels page: where streams go. The destinations list shows every kind; each way of adding one has its own
// section in the side column: connecting a YouTube account, and a stream key for any RTMP platform. Google's
// consent screen sends the browser back here with what came of connecting.
import type { ReactNode } from 'react';
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
        <TitledSection id="channels-list-title" className="dest-page__list" title={t('channels.listTitle')}>
          <ChannelList highlightId={back && 'connected' in back ? back.connected : undefined} />
        </TitledSection>
        <div className="dest-page__add">
          <TitledSection id="channels-youtube-title" className="dest-panel" title={t('channels.youtube.title')}>
            <YouTubeSection returnError={back && 'error' in back ? back.error : undefined} />
          </TitledSection>
          <TitledSection id="channels-rtmp-title" className="dest-panel" title={t('channels.rtmp.title')}>
            <AddRtmpChannelForm />
          </TitledSection>
        </div>
      </div>
    </>
  );
}

/** A section of the page named by its heading. */
function TitledSection({ id, className, title, children }: { id: string; className: string; title: string; children: ReactNode }) {
  return (
    <section className={className} aria-labelledby={id}>
      <h2 id={id} className="dest-page__heading">
        {title}
      </h2>
      {children}
    </section>
  );
}
