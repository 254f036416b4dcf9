import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { streamPreviewKey } from '../../contract/buckets';
import type { TaskMedia } from '../../core/streams/task-session';

/** A stream task fetches its inputs once at start; an hour is plenty, and a restarted task gets fresh URLs. */
const DOWNLOAD_URL_TTL_SECONDS = 3600;

/** The media a stream task reads and the preview frames it stores, in the media bucket: the task itself has no
 * access to the bucket, only these URLs and the task API. */
export class S3TaskMedia implements TaskMedia {
  /** In AWS, download URLs name S3's dual-stack endpoint (`<bucket>.s3.dualstack.<region>.amazonaws.com`), which
   * answers over IPv4 and IPv6 alike: a task without an IPv4 address (`-c taskNetwork=ipv6-only`) and an ECS Anywhere
   * host on IPv6 reach it as every other task does. A local stand-in (a custom endpoint) is used as it is. */
  private readonly presigner: S3Client;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {
    this.presigner = s3.config.isCustomEndpoint
      ? s3
      : new S3Client({ region: s3.config.region, credentials: s3.config.credentials, useDualstackEndpoint: true });
  }

  downloadUrl(key: string): Promise<string> {
    return getSignedUrl(this.presigner, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: DOWNLOAD_URL_TTL_SECONDS });
  }

  async putPreview(userId: string, streamId: string, jpeg: Uint8Array): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: streamPreviewKey(userId, streamId), Body: jpeg, ContentType: 'image/jpeg' }));
  }
}
