import { Icon } from '../../../components/icon';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import type { VideoItem } from '../api/videos-api';
import { formatDuration } from '../format';
import type { OutputProfileId } from '../../../lib/quality';
import { ChangeQuality } from './change-quality';
import { DeleteVideo } from './delete-video';
import { QualityFact, QualityNotes } from './video-quality';
import { VideoTitle } from './video-title';

function StatusBadge({ video }: { video: VideoItem }) {
  const { t, language } = useI18n();
  if (video.status === 'encoding') {
    const percent = new Intl.NumberFormat(language.htmlLang, { style: 'percent' }).format(video.progress / 100);
    return (
      <span className="video-status video-status--encoding">
        <Spinner /> {t('videos.status.encoding', { percent })}
      </span>
    );
  }
  return <span className={`video-status video-status--${video.status}`}>{t(`videos.status.${video.status}`)}</span>;
}

/** A library item: picture, title (renamed in place), state with live encoding progress, facts (its stream quality
 * among them), a quality change (ready videos, once the plan's profiles are known), delete. */
export function VideoCard({
  video,
  onDeleted,
  outputProfiles,
}: {
  video: VideoItem;
  onDeleted: () => void;
  outputProfiles: readonly OutputProfileId[] | undefined;
}) {
  const { t, errorText, language } = useI18n();
  const locale = language.htmlLang;
  return (
    <li className="video-card" data-status={video.status} data-video-id={video.id}>
      <div className="video-card__media">
        {video.thumbnailUrl ? (
          <img className="video-card__thumbnail" src={video.thumbnailUrl} alt="" width={320} height={180} loading="lazy" />
        ) : (
          <span className="video-card__placeholder">
            <Icon name={video.kind === 'audio' ? 'music' : 'video'} />
          </span>
        )}
        <StatusBadge video={video} />
        {video.durationSeconds !== undefined && <span className="video-card__duration">{formatDuration(video.durationSeconds)}</span>}
      </div>
      <div className="video-card__body">
        <VideoTitle video={video} />
        {video.status === 'encoding' && (
          <progress className="video-card__progress" max={100} value={video.progress} aria-label={t('videos.status.encodingLabel', { title: video.title })} />
        )}
        {video.status === 'failed' && (
          <div className="video-card__failure">
            <p>{errorText(video.error?.key ?? 'uploader encode error')}</p>
            <p className="video-card__next">{t(video.error?.key === 'internal error' ? 'videos.failed.ourSide' : 'videos.failed.unreadable')}</p>
          </div>
        )}
        <dl className="video-card__facts">
          <div>
            <dt className="visually-hidden">{t('videos.facts.kind')}</dt>
            <dd>{t(`videos.kind.${video.kind}`)}</dd>
          </div>
          {video.width !== undefined && video.height !== undefined && (
            <div>
              <dt className="visually-hidden">{t('videos.facts.resolution')}</dt>
              <dd>
                {video.width} × {video.height}
              </dd>
            </div>
          )}
          <div>
            <dt className="visually-hidden">{t('videos.facts.size')}</dt>
            <dd>{formatBytes(video.sizeBytes, locale)}</dd>
          </div>
          {video.durationSeconds !== undefined && (
            <div>
              <dt className="visually-hidden">{t('videos.facts.duration')}</dt>
              <dd>{formatDuration(video.durationSeconds)}</dd>
            </div>
          )}
          <QualityFact video={video} />
        </dl>
        <QualityNotes video={video} />
        <div className="video-card__actions">
          {video.kind === 'video' && video.status === 'ready' && video.output && outputProfiles && <ChangeQuality video={video} allowed={outputProfiles} />}
          <DeleteVideo video={video} onDeleted={onDeleted} />
        </div>
      </div>
    </li>
  );
}
