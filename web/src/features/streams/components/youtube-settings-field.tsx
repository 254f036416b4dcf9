import { useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import type { Privacy } from '../api/streams-api';
import { useObjectUrl } from '../hooks/use-object-url';
import { THUMBNAIL_TYPES, thumbnailProblem, type ThumbnailChoice } from '../thumbnail';

const privacies: readonly Privacy[] = ['public', 'unlisted', 'private'];

interface YouTubeSettingsFieldProps {
  privacy: Privacy;
  onPrivacyChange: (privacy: Privacy) => void;
  privacyProblem: ReactNode;
  /** The stream already has a thumbnail of its own (editing). */
  hasCustomThumbnail: boolean;
  /** That thumbnail's signed address, to show it. */
  thumbnailUrl: string | undefined;
  thumbnail: ThumbnailChoice;
  onThumbnailChange: (choice: ThumbnailChoice) => void;
}

/** What the broadcasts on connected YouTube accounts get besides the title and description. */
export function YouTubeSettingsField({ privacy, onPrivacyChange, privacyProblem, ...thumbnail }: YouTubeSettingsFieldProps) {
  const { t } = useI18n();
  const ids = useId();
  return (
    <fieldset className="stream-field stream-fieldset stream-youtube" aria-describedby={`${ids}-help`}>
      <legend className="stream-label">{t('streams.form.youtubeTitle')}</legend>
      <p id={`${ids}-help`} className="stream-field__help">
        {t('streams.form.youtubeHelp')}
      </p>
      <div className="stream-form__pair">
        <div className="stream-field">
          <label className="stream-label" htmlFor={`${ids}-privacy`}>
            {t('streams.form.privacy')}
          </label>
          <select id={`${ids}-privacy`} className="stream-input" value={privacy} onChange={(event) => onPrivacyChange(event.target.value as Privacy)}>
            {privacies.map((choice) => (
              <option key={choice} value={choice}>
                {t(`streams.privacy.${choice}`)}
              </option>
            ))}
          </select>
          {privacyProblem}
        </div>
        <ThumbnailPicker {...thumbnail} />
      </div>
    </fieldset>
  );
}

/** A JPEG or PNG of at most 2 MB, checked when chosen and previewed; sent after the stream is saved. The stream's
 * own thumbnail is shown while it is kept; if its address no longer loads (expired on a page open for hours), the
 * form says in words that there is one. */
function ThumbnailPicker({
  hasCustomThumbnail,
  thumbnailUrl,
  thumbnail,
  onThumbnailChange,
}: Pick<YouTubeSettingsFieldProps, 'hasCustomThumbnail' | 'thumbnailUrl' | 'thumbnail' | 'onThumbnailChange'>) {
  const { t, errorText } = useI18n();
  const ids = useId();
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState(false);
  const [brokenUrl, setBrokenUrl] = useState<string>();
  const chosen = thumbnail.kind === 'new' ? thumbnail.picture : undefined;
  const preview = useObjectUrl(chosen);
  const hasOne = chosen !== undefined || (hasCustomThumbnail && thumbnail.kind === 'keep');
  const current = !chosen && hasCustomThumbnail && thumbnail.kind === 'keep' && thumbnailUrl !== brokenUrl ? thumbnailUrl : undefined;

  const choose = (picture: File | undefined) => {
    if (!picture) return;
    const problem = thumbnailProblem(picture) !== undefined;
    setRefused(problem);
    if (!problem) onThumbnailChange({ kind: 'new', picture });
  };

  return (
    <div className="stream-field" role="group" aria-labelledby={`${ids}-label`} aria-describedby={`${ids}-note`}>
      <span id={`${ids}-label`} className="stream-label">
        {t('streams.form.thumbnail')}
      </span>
      {preview && <img className="stream-thumbnail" src={preview} alt={t('streams.form.thumbnailPreview')} />}
      {current && <img className="stream-thumbnail" src={current} alt={t('streams.form.currentThumbnail')} onError={() => setBrokenUrl(current)} />}
      {!chosen && !current && hasCustomThumbnail && (
        <p className="stream-thumbnail__state">{thumbnail.kind === 'remove' ? t('streams.form.thumbnailRemoved') : t('streams.form.hasThumbnail')}</p>
      )}
      {refused ? (
        <p id={`${ids}-note`} className="stream-field__error" role="alert">
          {errorText('unsupported image')}
        </p>
      ) : (
        <p id={`${ids}-note`} className="stream-field__help">
          {t('streams.form.thumbnailHelp')}
        </p>
      )}
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        accept={THUMBNAIL_TYPES.join(',')}
        onChange={(event) => {
          choose(event.target.files?.[0]);
          event.target.value = ''; // choosing the same file again is a change too
        }}
      />
      <div className="stream-thumbnail__actions">
        <Button variant="secondary" size="small" onClick={() => input.current?.click()}>
          {hasOne ? t('streams.form.replaceThumbnail') : t('streams.form.chooseThumbnail')}
        </Button>
        {hasOne && (
          <Button variant="transparent" size="small" onClick={() => onThumbnailChange({ kind: hasCustomThumbnail ? 'remove' : 'keep' })}>
            {t('streams.form.removeThumbnail')}
          </Button>
        )}
        {thumbnail.kind === 'remove' && (
          <Button variant="transparent" size="small" onClick={() => onThumbnailChange({ kind: 'keep' })}>
            {t('streams.form.keepThumbnail')}
          </Button>
        )}
      </div>
    </div>
  );
}
