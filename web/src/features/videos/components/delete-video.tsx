import { useId, useRef } from 'react';
import { Button } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { errorKeyOf, useDeleteVideo, type VideoItem } from '../api/videos-api';

/** Delete, after a confirmation in a modal dialog; a refusal (encoding, used by a running stream) shows there. */
export function DeleteVideo({ video, onDeleted }: { video: VideoItem; onDeleted: () => void }) {
  const { t, errorText } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useDeleteVideo(video.id, onDeleted);
  const titleId = useId();
  const bodyId = useId();
  return (
    <>
      <Button
        variant="transparent"
        size="small"
        className="video-card__delete"
        onClick={() => {
          remove.reset();
          dialog.current?.showModal();
        }}
      >
        <Icon name="trash" />
        {t('videos.delete.button')}
        <span className="visually-hidden">: {video.title}</span>
      </Button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={bodyId}>
        <h2 className="confirm-dialog__title" id={titleId}>
          {t('videos.delete.title', { title: video.title })}
        </h2>
        <p id={bodyId}>{t('videos.delete.body')}</p>
        {remove.isError && (
          <p className="videos-alert" role="alert">
            {errorText(errorKeyOf(remove.error))}
          </p>
        )}
        <div className="confirm-dialog__actions">
          <Button variant="secondary" onClick={() => dialog.current?.close()}>
            {t('videos.delete.keep')}
          </Button>
          <Button variant="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('videos.delete.confirm')}
          </Button>
        </div>
      </dialog>
    </>
  );
}
