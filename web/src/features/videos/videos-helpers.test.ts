import { formatDuration } from './format';
import { acceptedFileTypes, mediaKindOf } from './media-kind';
import { createResumeStorage, RESUME_PREFIX } from './resume-storage';
import { uploadErrorKey } from './upload-errors';

describe('kind of a chosen file', () => {
  test.each([
    ['clip.mp4', 'video/mp4', 'video'],
    ['clip.mkv', '', 'video'],
    ['clip.webm', 'video/webm', 'video'],
    ['song.mp3', 'audio/mpeg', 'audio'],
    ['song.M4A', '', 'audio'],
    ['song.flac', '', 'audio'],
    ['song.ogg', 'audio/ogg', 'audio'],
    ['mystery', '', 'video'],
  ])('%s (%s) is %s', (name, type, kind) => {
    expect(mediaKindOf(name, type)).toBe(kind);
  });

  test('the picker accepts the listed formats by type and by extension', () => {
    expect(acceptedFileTypes).toEqual(
      expect.arrayContaining(['video/*', 'audio/*', '.mp4', '.mov', '.avi', '.mkv', '.mp3', '.m4a', '.aac', '.wav', '.flac', '.ogg']),
    );
  });
});

describe('upload refusals as catalogue keys', () => {
  test.each([
    [401, '{"error":"unauthorized","message":"x"}', 'uploader token error'],
    [402, '{"error":"no active subscription","message":"x"}', 'no active subscription'],
    [403, '{"error":"video upload limit","message":"x"}', 'video upload limit'],
    [403, '{"error":"storage limit","message":"x"}', 'storage limit'],
    [410, '{"error":"upload not found","message":"x"}', 'upload not found'],
    [502, '<html>bad gateway</html>', 'service unavailable'],
    [400, 'Upload-Length missing', 'invalid request'],
    [undefined, undefined, 'network error'],
  ])('%p %p -> %p', (status, body, key) => {
    expect(uploadErrorKey(status, body)).toBe(key);
  });
});

/** A Storage over a Map; `broken` makes every call throw, as a disabled or full storage does. */
function memoryStorage(broken: { reads?: boolean; writes?: boolean } = {}): Storage {
  const items = new Map<string, string>();
  const fail = () => {
    throw new DOMException('refused', 'QuotaExceededError');
  };
  return {
    get length() {
      return broken.reads ? fail() : items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => (broken.reads ? fail() : (items.get(key) ?? null)),
    setItem: (key, value) => (broken.writes ? fail() : void items.set(key, value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

const upload = {
  size: 100,
  metadata: { filename: 'a.mp4' },
  creationTime: '2026-01-01T00:00:00.000Z',
  uploadUrl: 'https://x/api/uploads/abc',
  parallelUploadUrls: null,
};

describe('resume entries', () => {
  test('are kept under tus::<fingerprint>::<random number up to 1e12>, found by fingerprint, removed on request', async () => {
    const store = memoryStorage();
    const storage = createResumeStorage(() => store);
    const key = await storage.addUpload('tus-uppy-a.mp4-video/mp4-100-1-https://x/api/uploads', { ...upload, urlStorageKey: '' });
    expect(key).toMatch(new RegExp(`^${RESUME_PREFIX}tus-uppy-a\\.mp4-video/mp4-100-1-https://x/api/uploads::\\d{1,13}$`));
    expect(Number(key.split('::').pop())).toBeLessThanOrEqual(1e12);
    store.setItem('tus::other::1', 'not json');
    store.setItem('unrelated', '{}');
    await expect(storage.findUploadsByFingerprint('tus-uppy-a.mp4-video/mp4-100-1-https://x/api/uploads')).resolves.toEqual([
      { ...upload, urlStorageKey: key },
    ]);
    await expect(storage.findAllUploads()).resolves.toEqual([{ ...upload, urlStorageKey: key }]);
    await storage.removeUpload(key);
    await expect(storage.findAllUploads()).resolves.toEqual([]);
  });

  test('an unusable storage stores and finds nothing, and never throws', async () => {
    for (const storage of [createResumeStorage(() => undefined), createResumeStorage(() => memoryStorage({ reads: true, writes: true }))]) {
      const key = await storage.addUpload('fp', { ...upload, urlStorageKey: '' });
      await expect(storage.findUploadsByFingerprint('fp')).resolves.toEqual([]);
      await expect(storage.findAllUploads()).resolves.toEqual([]);
      await expect(storage.removeUpload(key)).resolves.toBeUndefined();
    }
  });
});

test('durations', () => {
  expect(formatDuration(3.04)).toBe('0:03');
  expect(formatDuration(724)).toBe('12:04');
  expect(formatDuration(3723)).toBe('1:02:03');
});
