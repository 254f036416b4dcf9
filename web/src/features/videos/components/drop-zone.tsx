import { useState, type RefObject } from 'react';
import { Button } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { acceptedFileTypes } from '../media-kind';

/** Drop files here, or choose them with the button (the keyboard way); both hand the files to `onFiles`. */
export function DropZone({ pickerRef, onFiles }: { pickerRef: RefObject<HTMLInputElement | null>; onFiles: (files: File[]) => void }) {
  const { t } = useI18n();
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={`drop-zone ${dragging ? 'drop-zone--over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        onFiles([...event.dataTransfer.files]);
      }}
    >
      <span className="feature__icon feature__icon--large">
        <Icon name="upload" />
      </span>
      <p className="drop-zone__title">{t('videos.upload.dropTitle')}</p>
      <p className="drop-zone__formats">{t('videos.upload.formats')}</p>
      <Button onClick={() => pickerRef.current?.click()}>{t('videos.upload.choose')}</Button>
      <input
        ref={pickerRef}
        type="file"
        multiple
        hidden
        accept={acceptedFileTypes.join(',')}
        data-testid="upload-input"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <p className="drop-zone__note">{t('videos.upload.resumeNote')}</p>
    </div>
  );
}
