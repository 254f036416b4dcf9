import { errorKeyOf } from '../../../api/client';
import { EmptyState } from '../../../components/empty-state';
import { PageLoading } from '../../../components/page-loading';
import { useI18n } from '../../../i18n/i18n-context';
import { type VideoItem } from '../api/videos-api';
import type { OutputProfileId } from '../../../lib/quality';
import { VideoCard } from './video-card';
import './videos.css';

interface VideoLibraryProps {
  videos: VideoItem[] | undefined;
  error: unknown;
  /** An item was deleted (the plan's storage changed). */
  onDeleted: () => void;
  /** The profiles the plan includes (what a quality change may pick); undefined until known. */
  outputProfiles: readonly OutputProfileId[] | undefined;
}

/** The library, newest first; its items change live (realtime, or polling while realtime is down). */
export function VideoLibrary({ videos, error, onDeleted, outputProfiles }: VideoLibraryProps) {
  const { t, errorText } = useI18n();
  if (error) {
    return (
      <p className="videos-alert" role="alert">
        {errorText(errorKeyOf(error))}
      </p>
    );
  }
  if (!videos) return <PageLoading />;
  if (videos.length === 0) return <EmptyState icon="video" title={t('app.pages.videos.emptyTitle')} body={t('app.pages.videos.emptyBody')} />;
  return (
    <section aria-labelledby="library-title">
      <h2 className="library__title" id="library-title">
        {t('videos.library.title', { count: videos.length })}
      </h2>
      <ul className="library">
        {videos.map((video) => (
          <VideoCard key={video.id} video={video} onDeleted={onDeleted} outputProfiles={outputProfiles} />
        ))}
      </ul>
    </section>
  );
}
