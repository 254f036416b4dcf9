import { THUMBNAIL_MAX_BYTES } from '@loopcast/core/streams/thumbnail';
import { thumbnailProblem, thumbnailStep } from './thumbnail';

describe("the stream's thumbnail", () => {
  test('takes JPEG and PNG of at most 2 MB, like the API', () => {
    expect(thumbnailProblem({ type: 'image/jpeg', size: 120_000 })).toBeUndefined();
    expect(thumbnailProblem({ type: 'image/png', size: THUMBNAIL_MAX_BYTES })).toBeUndefined();
    expect(THUMBNAIL_MAX_BYTES).toBe(2 * 1024 * 1024);
    expect(thumbnailProblem({ type: 'image/png', size: THUMBNAIL_MAX_BYTES + 1 })).toBe('unsupported image');
    expect(thumbnailProblem({ type: 'image/png', size: 0 })).toBe('unsupported image');
    expect(thumbnailProblem({ type: 'image/webp', size: 1000 })).toBe('unsupported image');
    expect(thumbnailProblem({ type: 'image/gif', size: 1000 })).toBe('unsupported image');
    expect(thumbnailProblem({ type: '', size: 1000 })).toBe('unsupported image');
  });

  test("after saving: upload a new picture, remove the stream's own, or nothing", () => {
    const picture = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    expect(thumbnailStep({ kind: 'new', picture }, false)).toEqual({ upload: picture });
    expect(thumbnailStep({ kind: 'new', picture }, true)).toEqual({ upload: picture });
    expect(thumbnailStep({ kind: 'remove' }, true)).toBe('remove');
    expect(thumbnailStep({ kind: 'remove' }, false)).toBeUndefined();
    expect(thumbnailStep({ kind: 'keep' }, true)).toBeUndefined();
  });
});
