// What the library accepts (spec section 1): MP4, MOV, AVI, MKV and other video formats (converted), and separate
// audio tracks: MP3, M4A/AAC, WAV, FLAC, OGG. Browsers leave the type of some formats empty (often .mkv), so the
// file name's extension counts too.
import type { MediaKind } from '@loopcast/core/media-spec';

export const videoExtensions = ['mp4', 'mov', 'avi', 'mkv', 'webm', 'm4v', 'mpg', 'mpeg', 'wmv', 'flv', '3gp', 'ts', 'mts', 'm2ts', 'ogv'] as const;
export const audioExtensions = ['mp3', 'm4a', 'aac', 'wav', 'flac', 'ogg', 'oga', 'opus'] as const;

/** For the file picker's `accept` and Uppy's `allowedFileTypes`. */
export const acceptedFileTypes: string[] = ['video/*', 'audio/*', ...[...videoExtensions, ...audioExtensions].map((extension) => `.${extension}`)];

const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** `audio` for audio files (by type, else by extension), `video` for everything else. */
export function mediaKindOf(name: string, type: string): MediaKind {
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return (audioExtensions as readonly string[]).includes(extensionOf(name)) ? 'audio' : 'video';
}

/** Whether Uppy's restriction (`acceptedFileTypes`) lets the file in: a video or audio type, or a known extension. */
export function isAcceptedFile(name: string, type: string): boolean {
  return type.startsWith('video/') || type.startsWith('audio/') || ([...videoExtensions, ...audioExtensions] as readonly string[]).includes(extensionOf(name));
}
