// The task API's paths, apart from the task contract's schemas (stream-task.ts re-exports them): a stream task asks
// for its run's lease before it loads Zod and the rest of itself (stream-task/src/main.ts).

/** The task API, below the HTTP API's base path; every request carries `Authorization: Bearer <run token>`. */
export const TASK_API = {
  lease: '/task/lease',
  heartbeat: '/task/heartbeat',
  preview: '/task/preview',
  probe: '/task/probe',
} as const;
