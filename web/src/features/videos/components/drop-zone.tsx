import { useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { acceptedFileTypes } from '../media-kind';
import type { UploadAllowance } from './upload-panel';

interface DropZoneProps {
  pickerRef: RefObject<HTMLInputElement | null>;
  onFiles: (files: File[]) => void;
  /** Why no upload can start now: the zone says so, and what to do, instead of taking files. */
  refusal: UploadAllowance['refusal'];
  planLink: string;
}

/** Drop files here, or choose them with the button (the keyboard way); both hand the files to `onFiles`. */
export function DropZone({ pickerRef, onFiles, refusal, planLink }: DropZoneProps) {
  const { t, errorText } = useI18n();
  const [dragging, setDragging] = useState(false);
  if (refusal) {
    return (
      <div className="drop-zone drop-zone--blocked" data-refusal={refusal}>
        <span className="feature__icon feature__icon--large">
          <Icon name="upload" />
        </span>
        <p className="drop-zone__title">{errorText(refusal)}</p>
        <p className="drop-zone__formats">{t(`videos.blocked.${blockedHint[refusal]}`)}</p>
        <Link className="button button--primary" to={planLink}>
          {t('videos.upload.seePlans')}
        </Link>
      </div>
    );
  }
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

const blockedHint = {
  'video upload limit': 'uploads',
  'storage limit': 'storage',
  'no active subscription': 'noPlan',
  'no valid payment': 'payment',
} as const satisfies Record<NonNullable<UploadAllowance['refusal']>, string>;
