import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo } from 'react';
import type { MetaArgs } from 'react-router';
import { subscriptionQueryKey, useSubscription } from '../../../features/billing/api/billing-api';
import { UploadUsage } from '../../../features/billing/components/upload-usage';
import { uploadAllowance } from '../../../features/billing/usage';
import { useFallbackPolling } from '../../../features/realtime/hooks/use-realtime';
import { useVideos, videosQueryKey } from '../../../features/videos/api/videos-api';
import { UploadPanelPlaceholder } from '../../../features/videos/components/upload-panel-placeholder';
import { VideoLibrary } from '../../../features/videos/components/video-library';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.videos.title');
export const handle = { pageName: 'videos' };

// Uppy and the uploader load with this page only, after the library is on screen.
const UploadPanel = lazy(() => import('../../../features/videos/components/upload-panel'));

export default function VideosPage() {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const poll = useFallbackPolling();
  const videos = useVideos(poll);
  const subscription = useSubscription(poll);
  const planLink = localizePath('/app/billing', language);
  const libraryIds = useMemo(() => new Set((videos.data ?? []).map((video) => video.id)), [videos.data]);
  const refreshUsage = useCallback(() => void queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }), [queryClient]);
  const onUploaded = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: videosQueryKey });
    refreshUsage();
  }, [queryClient, refreshUsage]);
  return (
    <>
      <header className="app-page__header videos-page__header">
        <h1 className="app-page__title">{t('app.pages.videos.title')}</h1>
        {subscription.data && <UploadUsage subscription={subscription.data} planLink={planLink} />}
      </header>
      <Suspense fallback={<UploadPanelPlaceholder />}>
        <UploadPanel
          libraryIds={libraryIds}
          onUploaded={onUploaded}
          allowance={subscription.data && uploadAllowance(subscription.data)}
          outputProfiles={subscription.data?.limits.outputProfiles}
          planLink={planLink}
        />
      </Suspense>
      <VideoLibrary videos={videos.data} error={videos.error} onDeleted={refreshUsage} outputProfiles={subscription.data?.limits.outputProfiles} />
    </>
  );
}
