import { errorKeyOf } from '../../../api/client';
import { useId, type Ref } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { useDeleteVideo, useStreamsUsing, type VideoItem } from '../api/videos-api';

/**
 * The confirmation before deleting. Streams that play the item are named first: a running one keeps its item
 * (stop it, then delete), a stopped one is left without it until another is chosen. A refusal the API still gives
 * (encoding, a stream started meanwhile) shows here, translated.
 */
export function DeleteVideoDialog({ video, onDeleted, ref }: { video: VideoItem; onDeleted: () => void; ref?: Ref<HTMLDialogElement> }) {
  const { t, errorText, language } = useI18n();
  const remove = useDeleteVideo(video.id, onDeleted);
  const users = useStreamsUsing(video.id).data ?? [];
  const running = users.filter((stream) => stream.running);
  const stopped = users.filter((stream) => !stream.running);
  const names = (streams: typeof users) => new Intl.ListFormat(language.htmlLang).format(streams.map((stream) => t('app.quoted', { text: stream.title })));
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
      <div id={bodyId}>
        {running.length > 0 && (
          <p className="videos-notice videos-notice--blocking" data-in-use="running">
            {t('videos.delete.usedByRunning', { count: running.length, streams: names(running) })}
          </p>
        )}
        {running.length === 0 && stopped.length > 0 && (
          <p className="videos-notice" data-in-use="stopped">
            {t(video.kind === 'audio' ? 'videos.delete.usedByStoppedAudio' : 'videos.delete.usedByStoppedVideo', {
              count: stopped.length,
              streams: names(stopped),
            })}
          </p>
        )}
        <p>{t('videos.delete.body')}</p>
      </div>
      {remove.isError && (
        <p className="videos-alert" role="alert">
          {errorText(errorKeyOf(remove.error))}
        </p>
      )}
      <div className="confirm-dialog__actions">
        <Button variant="secondary" onClick={close}>
          {t('videos.delete.keep')}
        </Button>
        <Button variant="red" loading={remove.isPending} disabled={running.length > 0} onClick={() => remove.mutate()}>
          {t('videos.delete.confirm')}
        </Button>
      </div>
    </dialog>
  );
}
