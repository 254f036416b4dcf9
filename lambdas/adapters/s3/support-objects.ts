import { AbortMultipartUploadCommand, DeleteObjectsCommand, ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { ErasedObjects, UserObjects } from '../../core/support/ports';

/** Erases everything under prefixes of the media bucket (the support tool's termination). */
export class S3UserObjects implements UserObjects {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async erase(prefixes: string[]): Promise<ErasedObjects> {
    let objectsDeleted = 0;
    let uploadsAborted = 0;
    for (const prefix of prefixes) {
      uploadsAborted += await this.abortUploads(prefix);
      objectsDeleted += await this.deleteObjects(prefix);
    }
    return { objectsDeleted, uploadsAborted };
  }

  /** Unfinished multipart uploads (resumable uploads in progress): their parts are stored but are no objects. */
  private async abortUploads(prefix: string): Promise<number> {
    let aborted = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const page = await this.s3.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: prefix, ...markers }));
      for (const upload of page.Uploads ?? []) {
        await this.s3.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key!, UploadId: upload.UploadId! }));
        aborted++;
      }
      if (!page.IsTruncated) return aborted;
      markers = {
        ...(page.NextKeyMarker ? { KeyMarker: page.NextKeyMarker } : {}),
        ...(page.NextUploadIdMarker ? { UploadIdMarker: page.NextUploadIdMarker } : {}),
      };
    }
  }

  private async deleteObjects(prefix: string): Promise<number> {
    let deleted = 0;
    let token: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length) {
        const result = await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
        const failed = result.Errors ?? [];
        if (failed.length) throw new Error(`${failed.length} objects under ${prefix} could not be deleted (first: ${failed[0]!.Key}: ${failed[0]!.Code})`);
        deleted += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return deleted;
  }
}
