// Where unfinished uploads are remembered so that choosing the same file again continues where it stopped (spec
// section 3): localStorage entries `tus::<fingerprint>::<random number up to 1e12>` holding the upload's address,
// written as tus-js-client writes them and removed when the upload completes. When local storage is unusable
// (disabled, full, a private mode that refuses writes) nothing is stored and nothing fails: such an upload just
// cannot resume after a reload.
import type { Body, Meta } from '@uppy/core';
import type { TusOptions } from '@uppy/tus';

export type ResumeStorage = NonNullable<TusOptions<Meta, Body>['urlStorage']>;
export type UnfinishedUpload = Awaited<ReturnType<ResumeStorage['findAllUploads']>>[number];

export const RESUME_PREFIX = 'tus::';

export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function createResumeStorage(storage: () => Storage | undefined): ResumeStorage {
  function entries(prefix: string): UnfinishedUpload[] {
    const found: UnfinishedUpload[] = [];
    try {
      const store = storage();
      for (let index = 0; store && index < store.length; index++) {
        const key = store.key(index);
        if (!key?.startsWith(prefix)) continue;
        try {
          found.push({ ...(JSON.parse(store.getItem(key) ?? '') as UnfinishedUpload), urlStorageKey: key });
        } catch {
          // a damaged entry must not stop an upload
        }
      }
    } catch {
      // storage unusable: nothing to resume
    }
    return found;
  }
  return {
    findAllUploads: async () => entries(RESUME_PREFIX),
    findUploadsByFingerprint: async (fingerprint) => entries(`${RESUME_PREFIX}${fingerprint}::`),
    async removeUpload(key) {
      try {
        storage()?.removeItem(key);
      } catch {
        // nothing stored, nothing to remove
      }
    },
    async addUpload(fingerprint, upload) {
      const key = `${RESUME_PREFIX}${fingerprint}::${Math.round(Math.random() * 1e12)}`;
      try {
        storage()?.setItem(key, JSON.stringify(upload));
      } catch {
        // storage full or refused: the upload goes on without a way to resume it after a reload
      }
      return key;
    },
  };
}
