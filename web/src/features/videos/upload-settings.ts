// How the web app sends a file with tus (docs/uploads.md): plain data, so the benchmark (bench/upload.ts) sends
// exactly as the browser does.
//
// Chunks of 4 MiB (a Lambda Function URL takes 6 MB per request, and binary bodies arrive base64-encoded).
// A file of PARALLEL_MIN_BYTES or more goes as PARALLEL_UPLOADS partial uploads sent at once (tus's
// concatenation: tus-js-client's `parallelUploads`), which the server joins inside S3: one chunk at a time
// leaves the creator's uplink idle for a round trip plus the server's time at every chunk.
import type { BitrateTier, MediaKind, OutputProfileId } from '@loopcast/core/media-spec';

export const CHUNK_BYTES = 4 * 1024 * 1024;
export const RETRY_DELAYS_MS = [0, 1000, 3000, 5000];
export const PARALLEL_UPLOADS = 4;
/** The server's S3 part size: partial uploads start on its multiples, so each of them fills whole parts. */
export const PART_BYTES = 8 * 1024 * 1024;
/** Below this a file goes as one upload: every partial upload gets at least two parts. */
export const PARALLEL_MIN_BYTES = PARALLEL_UPLOADS * 2 * PART_BYTES;

export interface UploadMetadata {
  filename: string;
  filetype: string;
  kind: MediaKind;
  /** Videos: the output asked for (docs/api.md, "Media library"). */
  profile?: OutputProfileId;
  tier?: BitrateTier;
}

/** Where each partial upload of a file of `size` bytes starts and ends: PART_BYTES units shared out evenly. */
export function partialUploadBoundaries(size: number): { start: number; end: number }[] {
  const units = Math.ceil(size / PART_BYTES);
  const base = Math.floor(units / PARALLEL_UPLOADS);
  const extra = units % PARALLEL_UPLOADS;
  const boundaries: { start: number; end: number }[] = [];
  let start = 0;
  for (let index = 0; index < PARALLEL_UPLOADS; index++) {
    const end = Math.min(size, start + (base + (index < extra ? 1 : 0)) * PART_BYTES);
    boundaries.push({ start, end });
    start = end;
  }
  return boundaries;
}

/** tus-js-client's options for sending a file of `size` bytes: in partial uploads (each with the file's own
 * metadata, so the server checks the plan for every one) when it is large enough, else none. */
export function parallelUploadOptions(size: number | null | undefined, metadata: UploadMetadata) {
  if (!size || size < PARALLEL_MIN_BYTES) return {};
  return {
    parallelUploads: PARALLEL_UPLOADS,
    parallelUploadBoundaries: partialUploadBoundaries(size),
    metadataForPartialUploads: { ...metadata },
  };
}
