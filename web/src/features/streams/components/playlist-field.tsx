import { useId } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { moveItem, removeItem } from '../playlist-draft';

export interface PlaylistValue {
  videoIds: string[];
  shuffle: boolean;
}

/**
 * The videos of a playlist in play order: moved up and down, removed, added from the ready videos, and whether every
 * pass is shuffled. Used by the stream form and by the editor of a running stream's playlist.
 */
export function PlaylistField({
  value,
  onChange,
  videos,
  limit,
}: {
  value: PlaylistValue;
  onChange: (value: PlaylistValue) => void;
  videos: { id: string; title: string }[];
  limit?: number | undefined;
}) {
  const { t } = useI18n();
  const ids = useId();
  const titleOf = (id: string) => videos.find((video) => video.id === id)?.title ?? t('streams.card.unknownMedia');
  const full = limit !== undefined && value.videoIds.length >= limit;
  const set = (changes: Partial<PlaylistValue>) => onChange({ ...value, ...changes });

  return (
    <div className="playlist-field">
      {value.videoIds.length === 0 ? (
        <p className="stream-field__help">{t('streams.playlist.empty')}</p>
      ) : (
        <ol className="playlist-field__items" aria-label={t('streams.playlist.items')}>
          {value.videoIds.map((id, index) => (
            <li key={`${id}-${index}`} className="playlist-field__item">
              <span className="playlist-field__place">{index + 1}</span>
              <span className="playlist-field__title">{titleOf(id)}</span>
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
