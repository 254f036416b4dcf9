// A stream's own thumbnail for its YouTube broadcasts: YouTube takes JPEG or PNG of at most 2 MB.
import { AppError } from '../errors';

export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

/** The picture's type from its first bytes (never from what the client claims). */
export function thumbnailType(bytes: Uint8Array): 'image/jpeg' | 'image/png' {
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const isPng = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => bytes[i] === byte);
  if (bytes.length === 0 || bytes.length > THUMBNAIL_MAX_BYTES || (!isJpeg && !isPng)) throw new AppError('unsupported image');
  return isJpeg ? 'image/jpeg' : 'image/png';
}
