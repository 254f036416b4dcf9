import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import type { FormProblem } from '../form-problems';
import { moveItem, playlistMismatch, removeItem, type JoinableVideo, type JoinShape } from '../playlist-draft';

export interface PlaylistValue {
  videoIds: string[];
  shuffle: boolean;
}

export type PlaylistVideo = JoinableVideo & { title: string };

/** "1920×1080, 30 fps" in the page's language. */
function useShapeText() {
  const { t } = useI18n();
  return (shape: JoinShape) => t('streams.playlist.shape', { width: shape.width, height: shape.height, rate: shape.frameRate });
}

/**
 * The videos of a playlist in play order: moved up and down, removed, added from the ready videos, and whether every
 * pass is shuffled. Videos that cannot follow the first without re-encoding are marked and named, with what to do,
 * before the API would refuse them. Used by the stream form and by the editor of a running stream's playlist.
 */
export function PlaylistField({
  value,
  onChange,
  videos,
  limit,
}: {
  value: PlaylistValue;
  onChange: (value: PlaylistValue) => void;
  videos: PlaylistVideo[];
  limit?: number | undefined;
}) {
  const { t } = useI18n();
  const ids = useId();
  const titleOf = (id: string) => videos.find((video) => video.id === id)?.title ?? t('streams.card.unknownMedia');
  const full = limit !== undefined && value.videoIds.length >= limit;
  const set = (changes: Partial<PlaylistValue>) => onChange({ ...value, ...changes });
  const mismatch = playlistMismatch(value.videoIds, videos);
  const odd = new Set(mismatch?.odd.map((item) => item.id));

  return (
    <div className="playlist-field">
      {value.videoIds.length === 0 ? (
        <p className="stream-field__help">{t('streams.playlist.empty')}</p>
      ) : (
        <ol className="playlist-field__items" aria-label={t('streams.playlist.items')}>
          {value.videoIds.map((id, index) => (
            <li key={`${id}-${index}`} className="playlist-field__item" data-mismatch={odd.has(id) || undefined}>
              <span className="playlist-field__place">{index + 1}</span>
              <span className="playlist-field__title">
                {titleOf(id)}
                {odd.has(id) && <span className="playlist-field__differs">{t('streams.playlist.differs')}</span>}
              </span>
              <span className="playlist-field__actions">
                <Button
                  variant="secondary"
                  size="small"
                  disabled={index === 0}
                  onClick={() => set({ videoIds: moveItem(value.videoIds, index, -1) })}
                  aria-label={t('streams.playlist.moveUp', { title: titleOf(id) })}
                >
                  ↑
                </Button>
                <Button
                  variant="secondary"
                  size="small"
                  disabled={index === value.videoIds.length - 1}
                  onClick={() => set({ videoIds: moveItem(value.videoIds, index, 1) })}
                  aria-label={t('streams.playlist.moveDown', { title: titleOf(id) })}
                >
                  ↓
                </Button>
                <Button
                  variant="secondary"
                  size="small"
                  onClick={() => set({ videoIds: removeItem(value.videoIds, index) })}
                  aria-label={t('streams.playlist.remove', { title: titleOf(id) })}
                >
                  ✕
                </Button>
              </span>
            </li>
          ))}
        </ol>
      )}
      {mismatch && <MismatchNotice mismatch={mismatch} titleOf={titleOf} />}
      <div className="playlist-field__add">
        <label className="stream-label" htmlFor={`${ids}-add`}>
          {t('streams.playlist.add')}
        </label>
        <select
          id={`${ids}-add`}
          className="stream-input"
          value=""
          disabled={full}
          onChange={(event) => event.target.value && set({ videoIds: [...value.videoIds, event.target.value] })}
        >
          <option value="">{t('streams.playlist.chooseToAdd')}</option>
          {videos.map((video) => (
            <option key={video.id} value={video.id}>
              {video.title}
            </option>
          ))}
        </select>
        {limit !== undefined && <p className="stream-field__help">{t('streams.playlist.limit', { count: limit })}</p>}
      </div>
      <label className="playlist-field__shuffle">
        <input type="checkbox" checked={value.shuffle} onChange={(event) => set({ shuffle: event.target.checked })} />
        {t('streams.playlist.shuffle')}
      </label>
    </div>
  );
}

/** Which videos cannot follow the first one by stream copy, their sizes and rates, and the two ways out. */
function MismatchNotice({ mismatch, titleOf }: { mismatch: NonNullable<ReturnType<typeof playlistMismatch>>; titleOf: (id: string) => string }) {
  const { t, language } = useI18n();
  const shapeText = useShapeText();
  return (
    <div className="playlist-field__mismatch" role="alert">
      <p>{t('streams.playlist.mismatch', { first: titleOf(mismatch.first.id), shape: shapeText(mismatch.first.shape) })}</p>
      <ul>
        {mismatch.odd.map((item) => (
          <li key={item.id}>{t('streams.playlist.mismatchItem', { title: titleOf(item.id), shape: shapeText(item.shape) })}</li>
        ))}
      </ul>
      <p>
        {t('streams.playlist.mismatchFix')} <Link to={localizePath('/app/videos', language)}>{t('streams.playlist.openVideos')}</Link>
      </p>
    </div>
  );
}

/**
 * The API's refusal of a playlist, in its catalogue words, and, when it named videos that cannot be joined (the
 * form did not know their sizes yet), which ones and what to do.
 */
export function PlaylistRefusal({ problem, videos }: { problem: FormProblem; videos: PlaylistVideo[] }) {
  const { t, errorText, language } = useI18n();
  const titles = (problem.videoIds ?? []).map((id) =>
    t('app.quoted', { text: videos.find((video) => video.id === id)?.title ?? t('streams.card.unknownMedia') }),
  );
  return (
    <div className="stream-field__error" role="alert">
      <p>{errorText(problem.key)}</p>
      {titles.length > 0 && (
        <p>
          {t('streams.playlist.refusedVideos', { videos: new Intl.ListFormat(language.htmlLang).format(titles) })} {t('streams.playlist.mismatchFix')}{' '}
          <Link to={localizePath('/app/videos', language)}>{t('streams.playlist.openVideos')}</Link>
        </p>
      )}
    </div>
  );
}
