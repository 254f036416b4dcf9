import { useId, type Ref } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { errorKeyOf, useDeleteVideo, type VideoItem } from '../api/videos-api';

/** The confirmation before deleting; a refusal (encoding, used by a running stream) shows here, translated. */
export function DeleteVideoDialog({ video, onDeleted, ref }: { video: VideoItem; onDeleted: () => void; ref?: Ref<HTMLDialogElement> }) {
  const { t, errorText } = useI18n();
  const remove = useDeleteVideo(video.id, onDeleted);
  const titleId = useId();
  const bodyId = useId();
  const close = (event: { currentTarget: HTMLElement }) => {
    remove.reset();
    event.currentTarget.closest('dialog')?.close();
  };
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={bodyId} onClose={() => remove.reset()}>
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
        <Button variant="secondary" onClick={close}>
          {t('videos.delete.keep')}
        </Button>
        <Button variant="red" loading={remove.isPending} onClick={() => remove.mutate()}>
          {t('videos.delete.confirm')}
        </Button>
      </div>
    </dialog>
  );
}
