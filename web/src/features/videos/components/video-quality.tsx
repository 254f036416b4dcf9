import { useI18n } from '../../../i18n/i18n-context';
import type { VideoItem } from '../api/videos-api';
import { isChangingQuality, outputOfChoice } from '../../../lib/quality';
import { useQualityText } from '../../../lib/use-quality-text';

/** A video's stream quality among the card's facts: "1080p · 30 fps · 3 Mbit/s". */
export function QualityFact({ video }: { video: VideoItem }) {
  const { t } = useI18n();
  const { outputText } = useQualityText();
  if (!video.output) return null;
  return (
    <div data-quality={video.output.profile}>
      <dt className="visually-hidden">{t('videos.quality.fact')}</dt>
      <dd>{outputText(video.output)}</dd>
    </div>
  );
}

/**
 * What the card says about its quality besides the fact: a change being made, why the file is below what was asked
 * (a smaller or 30 fps original, or the plan), and a change that failed (the item kept its file).
 */
export function QualityNotes({ video }: { video: VideoItem }) {
  const { t, errorText } = useI18n();
  const { profileText, outputText, plansText } = useQualityText();
  if (isChangingQuality(video) && video.quality) {
    return <p className="video-card__quality-note">{t('videos.quality.changing', { target: outputText(outputOfChoice(video.quality)) })}</p>;
  }
  const notes: string[] = [];
  if (video.qualityChangeError) notes.push(t('videos.quality.changeFailed', { reason: errorText(video.qualityChangeError.key) }));
  if (video.status === 'ready' && video.output && video.quality) {
    const asked = profileText(video.quality.profile);
    const made = profileText(video.output.profile, video.output.frameRate);
    for (const limit of video.output.limitedBy) {
      if (limit === 'source size') notes.push(t('videos.quality.limited.sourceSize', { asked, made }));
      if (limit === 'source frame rate') notes.push(t('videos.quality.limited.sourceFrameRate'));
      if (limit === 'plan') notes.push(t('videos.quality.limited.plan', { asked, plans: plansText(video.quality.profile), made }));
    }
  }
  if (notes.length === 0) return null;
  return (
    <div className="video-card__quality-notes" data-quality-notes>
      {notes.map((note) => (
        <p
          key={note}
          className={video.qualityChangeError && note === notes[0] ? 'video-card__quality-note video-card__quality-note--failed' : 'video-card__quality-note'}
        >
          {note}
        </p>
      ))}
    </div>
  );
}
