// A stream's own thumbnail for its YouTube broadcasts, as the form handles it. Pure.
import { THUMBNAIL_MAX_BYTES } from '@loopcast/core/streams/thumbnail';

export const THUMBNAIL_TYPES: readonly string[] = ['image/jpeg', 'image/png'];

/** What saving does with the thumbnail: leave it as it is, send a new picture, or remove the stream's own. */
export type ThumbnailChoice = { kind: 'keep' } | { kind: 'new'; picture: Blob } | { kind: 'remove' };

/** The API's rule (YouTube's): JPEG or PNG of at most 2 MB. Checked before anything is sent; the API checks again
 * by the picture's first bytes. */
export const thumbnailProblem = (picture: Pick<Blob, 'type' | 'size'>): 'unsupported image' | undefined =>
  THUMBNAIL_TYPES.includes(picture.type) && picture.size > 0 && picture.size <= THUMBNAIL_MAX_BYTES ? undefined : 'unsupported image';

/** The call that follows saving the stream, if any: a stream without its own thumbnail has none to remove. */
export function thumbnailStep(choice: ThumbnailChoice, hasCustomThumbnail: boolean): { upload: Blob } | 'remove' | undefined {
  if (choice.kind === 'new') return { upload: choice.picture };
  return choice.kind === 'remove' && hasCustomThumbnail ? 'remove' : undefined;
}
