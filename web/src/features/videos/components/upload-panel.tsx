// The upload area of the Videos page (code-split: Uppy loads only here). Default export for React.lazy.
import { useUppyEvent, useUppyState } from '@uppy/react';
import { use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n-context';
import { itemIdOf, sharedUploader, type UploadFile, type Uploader } from '../uploader';
import { uppyLocale } from '../uppy-locale';
import { DropZone } from './drop-zone';
import { UnfinishedUploads } from './unfinished-uploads';
import { UploadRow } from './upload-row';
import './videos.css';

export interface UploadPanelProps {
  /** Ids of the library's items: a finished upload leaves the queue once its item is listed. */
  libraryIds: ReadonlySet<string>;
  /** An upload completed (the library and the plan's usage changed). */
  onUploaded: () => void;
}

function useAddFiles(uploader: Uploader) {
  const [refusals, setRefusals] = useState<string[]>([]);
  const addFiles = useCallback(
    (files: File[]) => {
      const refused: string[] = [];
      for (const file of files) {
        try {
          uploader.addFile({ name: file.name, type: file.type, data: file, source: 'Local' });
        } catch (error) {
          // Uppy's restriction messages ("You can only upload: …"), in the page's language through @uppy/locales.
          refused.push(error instanceof Error ? error.message : String(error));
        }
      }
      setRefusals(refused);
    },
    [uploader],
  );
  return { refusals, addFiles };
}

export default function UploadPanel({ libraryIds, onUploaded }: UploadPanelProps) {
  const { t, language } = useI18n();
  const locale = use(uppyLocale(language.code));
  const uploader = useMemo(() => sharedUploader(locale), [locale]);
  const files = useUppyState(uploader, (state) => state.files);
  const { refusals, addFiles } = useAddFiles(uploader);
  const pickerRef = useRef<HTMLInputElement>(null);
  useUppyEvent(uploader, 'upload-success', onUploaded);

  const queue: UploadFile[] = Object.values(files);
  useEffect(() => {
    for (const file of Object.values(files)) {
      const itemId = itemIdOf(file);
      if (file.progress.uploadComplete && itemId && libraryIds.has(itemId)) uploader.removeFile(file.id);
    }
  }, [files, libraryIds, uploader]);

  return (
    <section className="upload-panel" aria-label={t('videos.upload.label')}>
      <DropZone pickerRef={pickerRef} onFiles={addFiles} />
      {refusals.length > 0 && (
        <ul className="upload-refusals" role="alert">
          {refusals.map((refusal) => (
            <li key={refusal}>{refusal}</li>
          ))}
        </ul>
      )}
      <UnfinishedUploads queue={queue} onResume={() => pickerRef.current?.click()} />
      {queue.length > 0 && (
        <ul className="upload-queue" aria-label={t('videos.upload.queueLabel')}>
          {queue.map((file) => (
            <UploadRow key={file.id} file={file} uploader={uploader} />
          ))}
        </ul>
      )}
    </section>
  );
}
