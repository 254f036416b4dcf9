import { useRef } from 'react';
import { Button } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import type { VideoItem } from '../api/videos-api';
import { DeleteVideoDialog } from './delete-video-dialog';

/** Delete, after a confirmation in a modal dialog. */
export function DeleteVideo({ video, onDeleted }: { video: VideoItem; onDeleted: () => void }) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <Button
        variant="transparent"
        size="small"
        className="video-card__delete"
        aria-label={`${t('videos.delete.button')}: ${video.title}`}
        onClick={() => dialog.current?.showModal()}
      >
        <Icon name="trash" />
        {t('videos.delete.button')}
      </Button>
      <DeleteVideoDialog ref={dialog} video={video} onDeleted={onDeleted} />
    </>
  );
}
