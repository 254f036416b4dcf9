// The upload area of the Videos page (code-split: Uppy loads only here). Default export for React.lazy.
import { useUppyEvent, useUppyState } from '@uppy/react';
import { use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import type { OutputProfileId } from '../../../lib/quality';
import { isAcceptedFile } from '../media-kind';
import { itemIdOf, sharedUploader, type UploadFile, type Uploader } from '../uploader';
import { uppyLocale } from '../uppy-locale';
import { DropZone } from './drop-zone';
import { UploadQuality } from './upload-quality';
import { UnfinishedUploads } from './unfinished-uploads';
import { UploadRow } from './upload-row';
import './videos.css';

/** What the plan leaves for new uploads (the plan page's numbers), and why one would be refused now. */
export interface UploadAllowance {
  refusal?: 'no active subscription' | 'no valid payment' | 'video upload limit' | 'storage limit';
  uploadsLeft: number;
  storageBytesLeft: number;
}

export interface UploadPanelProps {
  /** Ids of the library's items: a finished upload leaves the queue once its item is listed. */
  libraryIds: ReadonlySet<string>;
  /** An upload completed (the library and the plan's usage changed). */
  onUploaded: () => void;
  /** Undefined until the plan's usage is known. */
  allowance: UploadAllowance | undefined;
  /** The profiles the plan includes (GET /subscription's limits); undefined until known. */
  outputProfiles: readonly OutputProfileId[] | undefined;
  planLink: string;
}

/**
 * Adds chosen files, saying in plain words why one is not added before any byte is sent: not a video or audio file
 * (instead of Uppy's list of MIME types), larger than the storage left, or more files than uploads left this
 * period (uploads still on their way count too). Uppy's own refusals (a file already in the list) keep its words.
 */
function useAddFiles(uploader: Uploader, allowance: UploadAllowance | undefined, queue: UploadFile[]) {
  const { t, language } = useI18n();
  const [refusals, setRefusals] = useState<string[]>([]);
  const addFiles = useCallback(
    (files: File[]) => {
      const refused: string[] = [];
      let uploadsLeft = allowance ? allowance.uploadsLeft - queue.filter((file) => !file.progress.uploadComplete && !file.meta.failure).length : Infinity;
      for (const file of files) {
        if (!isAcceptedFile(file.name, file.type)) {
          refused.push(t('videos.upload.wrongType', { name: file.name }));
        } else if (allowance && file.size > allowance.storageBytesLeft) {
          refused.push(
            t('videos.upload.tooBig', {
              name: file.name,
              size: formatBytes(file.size, language.htmlLang),
              left: formatBytes(allowance.storageBytesLeft, language.htmlLang),
            }),
          );
        } else if (uploadsLeft <= 0) {
          refused.push(t('videos.upload.noUploadsLeft', { name: file.name }));
        } else {
          try {
            uploader.addFile({ name: file.name, type: file.type, data: file, source: 'Local' });
            uploadsLeft -= 1;
          } catch (error) {
            refused.push(error instanceof Error ? error.message : String(error));
          }
        }
      }
      setRefusals(refused);
    },
    [uploader, allowance, queue, t, language],
  );
  return { refusals, addFiles };
}

export default function UploadPanel({ libraryIds, onUploaded, allowance, outputProfiles, planLink }: UploadPanelProps) {
  const { t, language } = useI18n();
  const locale = use(uppyLocale(language.code));
  const uploader = useMemo(() => sharedUploader(locale), [locale]);
  const files = useUppyState(uploader, (state) => state.files);
  const queue: UploadFile[] = Object.values(files);
  const { refusals, addFiles } = useAddFiles(uploader, allowance, queue);
  const pickerRef = useRef<HTMLInputElement>(null);
  useUppyEvent(uploader, 'upload-success', onUploaded);

  useEffect(() => {
    for (const file of Object.values(files)) {
      const itemId = itemIdOf(file);
      if (file.progress.uploadComplete && itemId && libraryIds.has(itemId)) uploader.removeFile(file.id);
    }
  }, [files, libraryIds, uploader]);

  return (
    <section className="upload-panel" aria-label={t('videos.upload.label')}>
      <DropZone pickerRef={pickerRef} onFiles={addFiles} refusal={allowance?.refusal} planLink={planLink} />
      {outputProfiles && !allowance?.refusal && <UploadQuality allowed={outputProfiles} planLink={planLink} />}
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
            <UploadRow key={file.id} file={file} uploader={uploader} planLink={planLink} />
          ))}
        </ul>
      )}
    </section>
  );
}
