import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { MediaObjects } from '../../core/media/ports';

/** Objects of the media bucket the library deletes and serves (thumbnails), and stream thumbnails it stores. */
export class S3MediaObjects implements MediaObjects {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async remove(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      if (batch.length) {
        await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      }
    }
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async read(key: string): Promise<{ body: Uint8Array; contentType: string } | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: await object.Body!.transformToByteArray(), contentType: object.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }
}
