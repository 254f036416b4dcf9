import { CHUNK_BYTES, PARALLEL_MIN_BYTES, PARALLEL_UPLOADS, PART_BYTES, parallelUploadOptions, partialUploadBoundaries } from './upload-settings';

const metadata = { filename: 'a.mp4', filetype: 'video/mp4', kind: 'video' as const };

test('a small file goes as one upload', () => {
  expect(parallelUploadOptions(PARALLEL_MIN_BYTES - 1, metadata)).toEqual({});
  expect(parallelUploadOptions(undefined, metadata)).toEqual({});
});

test('a large file goes as partial uploads that cover it exactly, start on part edges and carry its metadata', () => {
  for (const size of [PARALLEL_MIN_BYTES, PARALLEL_MIN_BYTES + 1, 10_000_000_000, 3 * PART_BYTES * PARALLEL_UPLOADS + 12_345]) {
    const options = parallelUploadOptions(size, metadata);
    expect(options).toMatchObject({ parallelUploads: PARALLEL_UPLOADS, metadataForPartialUploads: metadata });
    const boundaries = partialUploadBoundaries(size);
    expect(options).toMatchObject({ parallelUploadBoundaries: boundaries });
    expect(boundaries).toHaveLength(PARALLEL_UPLOADS);
    expect(boundaries[0]!.start).toBe(0);
    expect(boundaries.at(-1)!.end).toBe(size);
    boundaries.forEach((part, index) => {
      if (index > 0) expect(part.start).toBe(boundaries[index - 1]!.end);
      expect(part.start % PART_BYTES).toBe(0);
      // Every partial fills at least two of the server's parts but the last, which is at least a chunk.
      expect(part.end - part.start).toBeGreaterThanOrEqual(index < PARALLEL_UPLOADS - 1 ? 2 * PART_BYTES : CHUNK_BYTES);
    });
  }
});
