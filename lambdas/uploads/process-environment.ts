// The uploads function's process settings: its environment in lib/api-stack.ts, and the environment bench:upload
// starts its upload server with, so the bench measures the memory the function runs with.
//
// glibc's allocator: each PATCH moves up to 4 MiB, and the leftover it reads back, through short-lived buffers. By
// default glibc raises its mmap threshold to the largest block freed (up to 32 MiB), so once a large buffer is
// freed, later ones of its size come from the heap, where freed blocks between live ones stay resident rather than
// returned, and each thread's arena holds its own. Fixed thresholds return every block above 128 KiB to the system
// when freed and trim the heap's top as soon as 128 KiB is free there; two arenas bound the per-thread copies.
// Measured (bench:upload, 2026-12-02): peak RSS at 10 GB 162.7-176.8 MB in three runs with these, 190.6 MB with
// glibc's defaults, at the same CPU (docs/uploads.md).
export const UPLOADS_FUNCTION_ENVIRONMENT = {
  // The function has 512 MB; the old generation is capped well below it (the live heap is about 20 MB). V8 sizes
  // the young generation from the memory the process sees (128 MB of it on a 24 GB machine, mostly empty: a GC
  // policy, not data held); 4 MB semispaces make it the same wherever the handler runs, the bench's machine too.
  NODE_OPTIONS: '--max-old-space-size=384 --max-semi-space-size=4',
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
} as const;
