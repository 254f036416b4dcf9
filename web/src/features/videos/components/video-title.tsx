import { errorKeyOf } from '../../../api/client';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { useRenameVideo, type VideoItem } from '../api/videos-api';

const TITLE_MAX_LENGTH = 120;

/** The item's title, renamed in place (PATCH): Enter saves, Escape cancels, focus returns to the rename button. */
export function VideoTitle({ video }: { video: VideoItem }) {
  const { t, errorText } = useI18n();
  const rename = useRenameVideo(video.id);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(video.title);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const inputId = `title-${video.id}`;
  const errorId = `${inputId}-error`;
  if (!editing) {
    return (
      <div className="video-title">
        <h3 className="video-title__text" title={video.fileName}>
          {video.title}
        </h3>
        <button
          ref={editButton}
          type="button"
          className="video-title__edit"
          aria-label={`${t('videos.rename.button')}: ${video.title}`}
          onClick={() => {
            rename.reset();
            setDraft(video.title);
            setEditing(true);
          }}
        >
          {t('videos.rename.button')}
        </button>
      </div>
    );
  }

  function save(event: FormEvent) {
    event.preventDefault();
    const title = draft.trim();
    if (!title || title === video.title) return setEditing(false);
    rename.mutate(title, { onSuccess: () => setEditing(false) });
  }
  return (
    <form className="video-title__form" onSubmit={save}>
      <label className="visually-hidden" htmlFor={inputId}>
        {t('videos.rename.label')}
      </label>
      <input
        id={inputId}
        className="video-title__input"
        autoFocus
        maxLength={TITLE_MAX_LENGTH}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setEditing(false);
        }}
        aria-invalid={rename.isError || undefined}
        aria-describedby={rename.isError ? errorId : undefined}
      />
      <div className="video-title__buttons">
        <Button type="submit" size="small" loading={rename.isPending}>
          {t('videos.rename.save')}
        </Button>
        <Button variant="transparent" size="small" onClick={() => setEditing(false)}>
          {t('videos.rename.cancel')}
        </Button>
      </div>
      {rename.isError && (
        <p id={errorId} className="video-title__error" role="alert">
          {errorText(errorKeyOf(rename.error))}
        </p>
      )}
    </form>
  );
}
