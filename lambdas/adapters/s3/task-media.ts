import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { streamPreviewKey } from '../../core/media/media-urls';
import type { TaskMedia } from '../../core/streams/task-session';

/** A stream task fetches its inputs once at start; an hour is plenty, and a restarted task gets fresh URLs. */
const DOWNLOAD_URL_TTL_SECONDS = 3600;

/** The media a stream task reads and the preview frames it stores, in the media bucket: the task itself has no
 * access to the bucket, only these URLs and the task API. */
export class S3TaskMedia implements TaskMedia {
  constructor(private readonly s3: S3Client, private readonly bucket: string) {}

  downloadUrl(key: string): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: DOWNLOAD_URL_TTL_SECONDS });
  }

  async putPreview(userId: string, streamId: string, jpeg: Uint8Array): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: streamPreviewKey(userId, streamId), Body: jpeg, ContentType: 'image/jpeg' }));
  }
}
