// S3 buckets the handlers use, defined once for CDK (lib/media-stack.ts) and the local stack (s3rver).
// Object layout in the media bucket:
//   uploads/<userId>/<uploadId>          tus staging (multipart uploads in progress, then the source file)
//   media/<userId>/<videoId>/source      the original, kept until transcoding succeeds
//   media/<userId>/<videoId>/stream.mp4  stream-ready output (or stream.m4a for audio)
//   media/<userId>/<videoId>/thumb.jpg   thumbnail

export const mediaBucket = { id: 'media' } as const;

export const bucketDefinitions = [mediaBucket] as const;
