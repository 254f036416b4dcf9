// The uploader (spec sections 3, 7, 9; docs/api.md "Media library"): Uppy with its tus plugin against
// `/api/uploads`, the session as `Authorization: Bearer`, 4 MiB chunks, large files as four partial uploads at once,
// retries after 0, 1, 3 and 5 s (upload-settings.ts), and metadata `filename`, `filetype`, `kind` (and, for videos, the
// output `profile` and `tier` chosen in the upload panel: setUploadQuality). Unfinished uploads are
// remembered in localStorage (resume-storage.ts) under a fingerprint of the file (name, type, size, last
// modification) and the endpoint, and forgotten on success.
//
// One uploader per page load, shared by every visit of the Videos page: leaving the page does not stop uploads.
import Uppy, { type Meta, type UppyFile } from '@uppy/core';
import type { Locale } from '@uppy/core/utils';
import Tus, { type TusBody } from '@uppy/tus';
import { defaultQuality, type BitrateTier, type MediaKind, type OutputProfileId, type QualityChoice } from '@loopcast/core/media-spec';
import type { ErrorTextKey } from '../../i18n/i18n-context';
import { authToken } from '../../lib/session';
import { acceptedFileTypes, mediaKindOf } from './media-kind';
import { browserStorage, createResumeStorage } from './resume-storage';
import { uploadErrorKey } from './upload-errors';
import { CHUNK_BYTES, parallelUploadOptions, RETRY_DELAYS_MS } from './upload-settings';

export const UPLOADS_PATH = '/api/uploads';

export interface UploadMeta extends Meta {
  filename: string;
  filetype: string;
  kind: MediaKind;
  profile?: OutputProfileId;
  tier?: BitrateTier;
  /** Why the upload failed, as an error catalogue key (the uploader's own message is English). */
  failure?: ErrorTextKey;
}

export type Uploader = Uppy<UploadMeta, TusBody>;
export type UploadFile = UppyFile<UploadMeta, TusBody>;

/** The item id of a finished upload: the last segment of its tus URL. */
export const itemIdOf = (file: UploadFile): string | undefined => file.response?.uploadURL?.split('/').pop() || undefined;

let shared: Uploader | undefined;

/** What video files added from now on ask for (the upload panel's choice). */
let uploadQuality: QualityChoice = defaultQuality;
export const setUploadQuality = (choice: QualityChoice): void => {
  uploadQuality = choice;
};

export function sharedUploader(locale: Locale): Uploader {
  if (shared) {
    shared.setOptions({ locale });
    return shared;
  }
  const uploader = new Uppy<UploadMeta, TusBody>({
    autoProceed: true,
    locale,
    restrictions: { allowedFileTypes: acceptedFileTypes },
    onBeforeFileAdded: (file) => {
      const name = file.name ?? 'upload';
      const type = file.type ?? '';
      const kind = mediaKindOf(name, type);
      const metadata = { filename: name, filetype: type, kind, ...(kind === 'video' ? { profile: uploadQuality.profile, tier: uploadQuality.tier } : {}) };
      // Per file: whether it goes in partial uploads depends on its size.
      return { ...file, meta: { ...file.meta, ...metadata }, tus: { ...file.tus, ...parallelUploadOptions(file.size, metadata) } };
    },
  });
  uploader.use(Tus, {
    endpoint: new URL(UPLOADS_PATH, window.location.origin).href,
    headers: () => ({ authorization: `Bearer ${authToken() ?? ''}` }),
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    removeFingerprintOnSuccess: true,
    urlStorage: createResumeStorage(browserStorage),
    allowedMetaFields: ['filename', 'filetype', 'kind', 'profile', 'tier'],
    limit: 3,
  });
  uploader.on('upload-error', (file, _error, response) => {
    if (!file) return;
    const xhr = (response?.body as TusBody | undefined)?.xhr;
    uploader.setFileMeta(file.id, { ...file.meta, failure: uploadErrorKey(response?.status, xhr?.responseText) });
  });
  uploader.on('upload-retry', (file) => {
    if (!file) return;
    const { failure: _previous, ...meta } = file.meta;
    uploader.setFileMeta(file.id, meta);
  });
  shared = uploader;
  return uploader;
}
