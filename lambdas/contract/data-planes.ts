// Where stream tasks run, defined once: the stage settings (`-c dataPlane=`, `-c spot=`, `-c taskNetwork=`,
// `-c hostArch=`; lib/stage.ts), the streaming stack (lib/streaming-stack.ts), the lifecycle's PrepareTask (the
// disk a Fargate task gets) and the cost model (lambdas/core/costs/) read it from here.

/**
 * `fargate`: each stream is its own ECS Fargate task (the default: nothing to run but AWS).
 * `external`: stream tasks run packed on hosts registered into the ECS cluster as ECS Anywhere external instances
 * (a rented server whose bandwidth is included), with the same serverless control plane.
 */
export const dataPlanes = ['fargate', 'external'] as const;
export type DataPlane = (typeof dataPlanes)[number];

export const DEFAULT_DATA_PLANE: DataPlane = 'fargate';

export const isDataPlane = (value: unknown): value is DataPlane => typeof value === 'string' && (dataPlanes as readonly string[]).includes(value);

/**
 * How a Fargate task reaches the internet (docs/decisions.md, "No public IPv4?"):
 * `public-ipv4`: a public IPv4 address per task in a public subnet (the default: every destination answers IPv4);
 * `ipv6-only`: IPv6-only subnets, no IPv4 address at all; only destinations with an IPv6 address can be reached.
 */
export const taskNetworks = ['public-ipv4', 'ipv6-only'] as const;
export type TaskNetwork = (typeof taskNetworks)[number];
export const DEFAULT_TASK_NETWORK: TaskNetwork = 'public-ipv4';
export const isTaskNetwork = (value: unknown): value is TaskNetwork => typeof value === 'string' && (taskNetworks as readonly string[]).includes(value);

/** The CPU architecture of the external data plane's hosts: one image is built for it. */
export const hostArchitectures = ['amd64', 'arm64'] as const;
export type HostArchitecture = (typeof hostArchitectures)[number];
export const DEFAULT_HOST_ARCHITECTURE: HostArchitecture = 'amd64';
export const isHostArchitecture = (value: unknown): value is HostArchitecture =>
  typeof value === 'string' && (hostArchitectures as readonly string[]).includes(value);

/** The stream task's size on Fargate (lib/streaming-stack.ts builds the task definition from it; the cost model
 * prices it). ARM64: stream copy needs about 1.3 % of a core (docs/stream-task.md, measured). */
export const fargateStreamTask = {
  cpuUnits: 256,
  memoryMiB: 512,
} as const;

const GIB = 1024 ** 3;

/**
 * A Fargate task's disk (ephemeral storage). The task definition asks for none, so a task gets the 20 GiB Fargate
 * includes at no charge; a stream whose media does not fit there gets a larger disk through RunTask's task override,
 * decided by PrepareTask from the media's sizes (lambdas/core/streams/lifecycle.ts).
 */
export const fargateDisk = {
  /** What every Fargate task gets without paying for storage. */
  freeGiB: 20,
  /** The least an override may ask for (the ECS API reference says 21 for task definitions and, in places, 20 for
   * overrides: no override is sent at all while the stream fits in the free 20). */
  minimumOverrideGiB: 21,
  /** Fargate's most. */
  maximumGiB: 200,
  /** The container image (Debian, ffmpeg, Node: about 0.6 GB unpacked, its layers counted on this disk too) and the
   * task's logs and temporary files. */
  reservedGiB: 2,
  /** The video is downloaded once and may be remuxed once into a loop-ready copy (stream-task/src/loop-ready.ts). */
  videoCopies: 2,
  /** Filesystem overhead and rounding. */
  headroom: 1.1,
} as const;

/** The disk a Fargate task needs for a stream's media: the free 20 GiB when it fits, else enough (whole GiB, at most
 * Fargate's 200: a stream-ready video above ~90 GB cannot stream on Fargate, docs/costs.md). */
export function fargateEphemeralStorageGiB(media: { videoBytes: number; audioBytes?: number }): number {
  const neededGiB = fargateDisk.reservedGiB + ((fargateDisk.videoCopies * media.videoBytes + (media.audioBytes ?? 0)) * fargateDisk.headroom) / GIB;
  if (neededGiB <= fargateDisk.freeGiB) return fargateDisk.freeGiB;
  return Math.min(fargateDisk.maximumGiB, Math.max(fargateDisk.minimumOverrideGiB, Math.ceil(neededGiB)));
}

/**
 * The stream task on an ECS Anywhere host (an ExternalTaskDefinition, bridge networking). ECS places tasks on a host
 * while the sum of their reservations fits what the host registered, so these reservations are the packing: one copy
 * loop measured 1.5 % of a core (ffmpeg 1.29 %, its supervisor 0.19 %: npm run bench:stream) and is assumed to take
 * 150 MiB; each is reserved with 20 % headroom (ECS then fills a host's cores and memory to 80 %). The host's link is
 * not a resource ECS knows: the host install script caps the streams a host takes by the memory it registers
 * (stream-task/host/install.sh, --max-streams).
 */
export const externalStreamTask = {
  /** 20 of a core's 1024 units: 1.5 % measured / 80 %. */
  cpuUnits: 20,
  /** 150 MiB / 80 %, rounded to 192: what ECS counts per task. */
  memoryReservationMiB: 192,
  /** The hard limit: a task that leaks is killed (and restarted by the lifecycle) before it harms its neighbours. */
  memoryLimitMiB: 512,
} as const;
