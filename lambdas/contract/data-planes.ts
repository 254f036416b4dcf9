// Where stream tasks run, defined once: the stage setting (`-c dataPlane=`, lib/stage.ts), the cost model
// (lambdas/core/costs/) and the Stripe prices tool's cost check read it from here.

/**
 * `fargate`: each stream is its own ECS Fargate task (the default: nothing to run but AWS).
 * `external`: stream tasks run packed on hosts registered into the ECS cluster as ECS Anywhere external instances
 * (a rented server whose bandwidth is included), with the same serverless control plane.
 */
export const dataPlanes = ['fargate', 'external'] as const;
export type DataPlane = (typeof dataPlanes)[number];

export const DEFAULT_DATA_PLANE: DataPlane = 'fargate';

export const isDataPlane = (value: unknown): value is DataPlane => typeof value === 'string' && (dataPlanes as readonly string[]).includes(value);

/** The stream task's size on Fargate (lib/streaming-stack.ts builds the task definition from it; the cost model
 * prices it). ARM64: stream copy needs about 1.3 % of a core (docs/stream-task.md, measured). */
export const fargateStreamTask = {
  cpuUnits: 256,
  memoryMiB: 512,
  /** Inputs are downloaded once to local disk: room for a 10 GB+ stream-ready video and its audio. */
  ephemeralStorageGiB: 64,
} as const;
