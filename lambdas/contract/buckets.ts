// S3 buckets the handlers use, defined once for CDK (lib/media-stack.ts) and the local stack (s3rver), and the
// layout of the media bucket, whose every key is built here (so a user's objects are always under the two prefixes
// account erasure removes):
//   uploads/<userId>/<uploadId>                tus staging (multipart uploads in progress, then the source file)
//   media/<userId>/<videoId>/source            the original, kept until transcoding succeeds
//   media/<userId>/<videoId>/[r<n>/]stream.mp4 stream-ready output (or stream.m4a for audio), per quality revision
//   media/<userId>/<videoId>/[r<n>/]thumb.jpg  thumbnail (file names: outputKeys in lambdas/core/media-spec.ts)
//   media/<userId>/streams/<streamId>/         a stream's own thumbnail and its latest preview frame

export const mediaBucket = { id: 'media' } as const;

export const bucketDefinitions = [mediaBucket] as const;

const uploadsOf = (userId: string) => `uploads/${userId}/`;
const mediaOf = (userId: string) => `media/${userId}/`;

/** Every object of a user: unfinished and finished uploads, and their media (what erasure deletes). */
export const userObjectPrefixes = (userId: string): string[] => [uploadsOf(userId), mediaOf(userId)];

/** A tus upload's bytes (and, beside them, its `.info` and parts). */
export const uploadKey = (userId: string, uploadId: string) => `${uploadsOf(userId)}${uploadId}`;

/** Where a transcode of the item writes: the item's folder for the upload's, a folder per revision after that, so
 * the file a quality change reads and the one it writes never share a key. */
export const outputPrefixOf = (video: { userId: string; id: string; revision?: number }): string =>
  `${mediaOf(video.userId)}${video.id}/${video.revision ? `r${video.revision}/` : ''}`;

const streamFolder = (userId: string, streamId: string) => `${mediaOf(userId)}streams/${streamId}/`;

/** A stream's own thumbnail, as the creator uploaded it. */
export const streamThumbnailKey = (userId: string, streamId: string) => `${streamFolder(userId, streamId)}thumbnail`;

/** Where a stream's latest preview frame is kept (the stream task replaces it every minute). */
export const streamPreviewKey = (userId: string, streamId: string) => `${streamFolder(userId, streamId)}preview.jpg`;
