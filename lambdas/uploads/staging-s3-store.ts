// @tus/s3-store's S3Store with fewer sequential round trips per PATCH, and a termination that leaves nothing.
//
// tus answers a PATCH with getUpload() then write(), both under the upload's lock. The base class has each of
// them read the metadata and list the parts again (four metadata reads, two ListParts, one after the other);
// here getUpload() lists the parts and the leftover `.part` object at once and hands what it found to the
// write() that follows, which only trusts it for the very offset it was computed for.
//
// It also joins finished partial uploads into one object inside S3 (tus's concatenation extension): a multipart
// upload whose parts are server-side copies (UploadPartCopy) of the partial objects, so no byte passes through
// the handler again.
import { Readable } from 'node:stream';
import type { Part } from '@aws-sdk/client-s3';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import { ERRORS, Upload } from '@tus/utils';

interface UploadState {
  metadata: MetadataValue;
  parts: Part[];
  incompletePartSize: number | undefined;
  offset: number;
}

/** States left by a getUpload() that no write() followed (HEAD requests) are dropped beyond this many. */
const MAX_REMEMBERED = 1000;

/** The S3 errors meaning the multipart upload is gone: completed (or aborted). */
const isMissingUpload = (error: unknown) => ['NoSuchUpload', 'NoSuchKey'].includes((error as { name?: string }).name ?? '');

/** The largest range one UploadPartCopy copies: many ranges copied at once finish sooner than a few big ones
 * (S3 takes parts of 5 MiB to 5 GiB). */
const COPY_RANGE_BYTES = 256 * 1024 * 1024;
/** S3's smallest part, but for the last one of an upload. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** UploadPartCopy requests in flight at once while joining partial uploads. */
const COPIES_AT_ONCE = 8;

/** One UploadPartCopy: bytes `start` to `end` (exclusive) of the object `source`. */
interface CopyRange {
  source: string;
  start: number;
  end: number;
}

/** The ranges that copy `sources` in order as parts: none above COPY_RANGE_BYTES, none but the last under
 * MIN_PART_BYTES (a short tail joins the range before it). Every source but the last must be at least
 * MIN_PART_BYTES long (checked by the caller). */
export function copyRanges(sources: { id: string; size: number }[]): CopyRange[] {
  const ranges: CopyRange[] = [];
  for (const { id, size } of sources) {
    for (let start = 0; start < size; start += COPY_RANGE_BYTES) {
      const end = Math.min(size, start + COPY_RANGE_BYTES);
      const previous = ranges.at(-1);
      if (end - start < MIN_PART_BYTES && previous?.source === id) previous.end = end;
      else ranges.push({ source: id, start, end });
    }
  }
  return ranges;
}

export class StagingS3Store extends S3Store {
  private readonly lastSeen = new Map<string, UploadState>();

  override async getUpload(id: string): Promise<Upload> {
    let metadata: MetadataValue;
    try {
      metadata = await this.getMetadata(id);
    } catch {
      throw ERRORS.FILE_NOT_FOUND;
    }
    let state: UploadState;
    try {
      state = await this.stateOf(id, metadata);
    } catch (error) {
      // The `.info` object exists but the multipart upload does not: it was completed.
      if (!isMissingUpload(error)) throw error;
      return new Upload({ ...metadata.file, offset: metadata.file.size ?? 0 });
    }
    this.remember(id, state);
    return new Upload({ ...metadata.file, offset: state.offset });
  }

  /** The base class's write, from the state getUpload() just read when it is still that of `offset`. */
  override async write(src: Readable, id: string, offset: number): Promise<number> {
    const remembered = this.lastSeen.get(id);
    this.lastSeen.delete(id);
    const state = remembered?.offset === offset ? remembered : await this.stateOf(id, await this.getMetadata(id));
    const { metadata } = state;
    const nextPartNumber = (state.parts.at(-1)?.PartNumber ?? 0) + 1;

    let source = src;
    // What the leftover holds by its size, and what was read of it.
    let leftoverSize = 0;
    let leftover = 0;
    if (state.incompletePartSize !== undefined) {
      // The leftover goes in front of the new bytes, read straight from S3 (the base class first copies it to a
      // temporary file): S3 answers at disk speed, so it is read whole before the client's bytes are waited for,
      // and it is deleted once read, before a new leftover can be written under the same key.
      const body = await this.getIncompletePart(id);
      if (body) {
        leftoverSize = state.incompletePartSize;
        source = Readable.from(
          (async function* leftoverThenRequest(store: StagingS3Store) {
            for await (const chunk of body as AsyncIterable<Buffer>) {
              leftover += chunk.length;
              yield chunk;
            }
            await store.deleteIncompletePart(id);
            yield* src;
          })(this),
        );
      }
    }
    const bytesUploaded = await this.uploadParts(metadata, source, nextPartNumber, offset - leftoverSize);
    const newOffset = offset + bytesUploaded - leftover;

    if (metadata.file.size === newOffset) {
      await this.finishMultipartUpload(metadata, await this.listAllParts(metadata));
      await this.completeMetadata(metadata.file);
      await this.clearCache(id);
    }
    return newOffset;
  }

  /** Termination also removes the leftover `.part` object and waits for the cache entry to go (the base class
   * forgets the first and does not await the second, which a frozen Lambda may never finish). */
  override async remove(id: string): Promise<void> {
    this.lastSeen.delete(id);
    await super.remove(id);
    await Promise.all([this.deleteIncompletePart(id), this.clearCache(id)]);
  }

  /** Makes `final` (size set) the concatenation of the finished uploads `partials`, in order, by copies inside
   * S3; its `.info` is written as for any upload, so HEAD answers it as complete. */
  async concatenate(final: Upload, partials: { id: string; size: number }[]): Promise<void> {
    await this.create(final);
    const metadata = await this.getMetadata(final.id);
    const ranges = copyRanges(partials);
    const parts: Part[] = new Array(ranges.length);
    let next = 0;
    const copyNext = async (): Promise<void> => {
      while (next < ranges.length) {
        const index = next++;
        const { source, start, end } = ranges[index]!;
        const { CopyPartResult } = await this.client.uploadPartCopy({
          Bucket: this.bucket,
          Key: final.id,
          UploadId: metadata['upload-id'],
          PartNumber: index + 1,
          CopySource: encodeURI(`${this.bucket}/${source}`),
          CopySourceRange: `bytes=${start}-${end - 1}`,
        });
        parts[index] = { PartNumber: index + 1, ETag: CopyPartResult?.ETag };
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, ranges.length) }, copyNext));
      await this.finishMultipartUpload(metadata, parts);
    } catch (error) {
      await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: final.id, UploadId: metadata['upload-id'] }).catch(() => undefined);
      await this.discard(final.id);
      throw error;
    }
    await this.clearCache(final.id);
  }

  /** Deletes a finished (or abandoned) upload's objects: the object, `.info` and `.part`, and its cache entry. */
  async discard(id: string): Promise<void> {
    this.lastSeen.delete(id);
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true },
    });
    await this.clearCache(id);
  }

  private async stateOf(id: string, metadata: MetadataValue): Promise<UploadState> {
    const [parts, incompletePartSize] = await Promise.all([this.listAllParts(metadata), this.getIncompletePartSize(id)]);
    const offset = parts.reduce((sum, part) => sum + (part.Size ?? 0), 0) + (incompletePartSize ?? 0);
    return { metadata, parts, incompletePartSize, offset };
  }

  private async listAllParts(metadata: MetadataValue): Promise<Part[]> {
    const parts: Part[] = [];
    let marker: string | undefined;
    do {
      const page = await this.client.listParts({
        Bucket: this.bucket,
        Key: metadata.file.id,
        UploadId: metadata['upload-id'],
        ...(marker ? { PartNumberMarker: marker } : {}),
      });
      parts.push(...(page.Parts ?? []));
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    return parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
  }

  private remember(id: string, state: UploadState): void {
    this.lastSeen.delete(id);
    this.lastSeen.set(id, state);
    if (this.lastSeen.size > MAX_REMEMBERED) this.lastSeen.delete(this.lastSeen.keys().next().value!);
  }
}
