// What crosses the boundary between Loopcast and a stream task, defined once: the spec of what it streams, the
// heartbeat it reports, its run lease, and the task API it talks to in managed mode (lambdas/http/stream-tasks.ts
// serves it; stream-task/src/task-api.ts calls it). docs/stream-task.md and docs/streams.md describe them.
import { z } from 'zod';

const source = z.string().min(1).max(4096);

/** More items than any plan allows (lambdas/core/plans.ts, playlistItems): a bound on what a spec may carry. */
export const PLAYLIST_MAX_ITEMS = 500;

/** When an edit of a running stream's playlist takes effect: at the next join (seamless), or at the next restart. */
export const playlistApplyModes = ['join', 'restart'] as const;
export type PlaylistApply = (typeof playlistApplyModes)[number];

/** A playlist (docs/playlists.md): library videos played one after another, in order or shuffled for every pass. */
export const taskPlaylistSchema = z.object({
  /** Counts the stream's playlist edits: the task reports the newest it has, and gets newer ones. */
  revision: z.number().int().min(0),
  shuffle: z.boolean(),
  /** The video's id, and its source (fetched like `video`). An item may appear more than once. */
  items: z
    .array(z.object({ id: z.string().min(1).max(64), url: source }))
    .min(1)
    .max(PLAYLIST_MAX_ITEMS),
});

export type TaskPlaylist = z.output<typeof taskPlaylistSchema>;

export const streamTaskSpecSchema = z.object({
  streamId: z.string().min(1).max(64),
  /** `s3://bucket/key`, an `https://` (or locally `http://`) URL such as a presigned S3 URL, or a local path. */
  video: source,
  /** A separate audio track, fetched like the video; the video's own audio is then not used. */
  audio: source.optional(),
  /** Several videos instead of one (`video` is then the first item's source and not used). */
  playlist: taskPlaylistSchema.optional(),
  destinations: z
    .array(
      z.object({
        id: z.string().min(1).max(64),
        /** Full publish URL including the stream key, e.g. rtmp://a.rtmp.youtube.com/live2/<key>. */
        url: z
          .string()
          .max(2048)
          .regex(/^rtmps?:\/\/[^/\s]+\/\S+$/i, 'must be an rtmp:// or rtmps:// URL with an application and stream key'),
      }),
    )
    .min(1),
  /** "HH:MM" in timeZone. */
  restartTimes: z.array(z.string()).default([]),
  timeZone: z.string().default('UTC'),
});

export type StreamTaskSpec = z.output<typeof streamTaskSpecSchema>;
export type StreamTaskSpecInput = z.input<typeof streamTaskSpecSchema>;

const count = z.number().int().min(0).max(1e12);
const rate = z.number().min(0).max(1e9);
const text = z.string().max(2000);

/** A heartbeat of the stream task (stream-task/src/heartbeat.ts makes it), as it reaches the task API. */
export const heartbeatSchema = z.object({
  streamId: z.string().min(1).max(64),
  desired: z.enum(['running', 'stopped']),
  actual: z.enum(['starting', 'started', 'restarting', 'stopping', 'stopped', 'failed']),
  since: z.iso.datetime(),
  uptimeSeconds: count,
  bitrateKbps: rate,
  fps: rate,
  speed: rate,
  loops: count,
  restarts: count,
  scheduledRestarts: count,
  nextRestartAt: z.iso.datetime().optional(),
  lastError: text.optional(),
  destinations: z.array(z.object({ id: z.string().min(1).max(64), state: z.enum(['ok', 'failed']) })).max(50),
  /** A playlist's task: the newest revision it has (playing, or waiting for its moment), the one playing, and the
   * item playing. */
  playlist: z.object({ revision: count, applied: count, videoId: z.string().min(1).max(64) }).optional(),
  at: z.iso.datetime(),
});

export type Heartbeat = z.output<typeof heartbeatSchema>;

/**
 * The run lease: at most one task publishes a run. The lifecycle's PrepareTask mints a token for the next task and
 * revokes the previous holder; the task takes the lease with its own instance id, renews it with every heartbeat
 * and stops (exit LEASE_LOST_EXIT_CODE) when a renewal is refused, or when it could not renew for so long that the
 * lease would expire.
 */
export const TASK_LEASE = {
  /** Heartbeats are sent at least this often (and at once on every change of state), and each renews the lease.
   * Every heartbeat is a request to the task API and a write: 30 s keeps a stream-month of them to cents. */
  renewSeconds: 30,
  /** A lease not renewed for this long may be taken by another instance of the same token. */
  ttlSeconds: 90,
} as const;

/** The task API, below the HTTP API's base path; every request carries `Authorization: Bearer <run token>`. */
export const TASK_API = {
  lease: '/task/lease',
  heartbeat: '/task/heartbeat',
  preview: '/task/preview',
} as const;

/** Who is asking: the run the token was minted for and the instance that holds (or asks for) its lease. */
export const taskCallerSchema = z.object({
  userId: z.string().min(1).max(64),
  streamId: z.string().min(1).max(64),
  /** The ECS task ARN in AWS, the local runner's task id locally. */
  instanceId: z.string().min(1).max(256),
});

export type TaskCaller = z.output<typeof taskCallerSchema>;

export const leaseRequestSchema = taskCallerSchema;
export const heartbeatRequestSchema = taskCallerSchema.extend({ heartbeat: heartbeatSchema });

/** The answer to a lease request: what to stream (stream keys opened, media as short-lived URLs) and how often to
 * renew. */
export interface LeaseGrant {
  spec: StreamTaskSpecInput;
  lease: typeof TASK_LEASE;
}

/** The task API's answer to a heartbeat: whether anyone is watching the stream's card now, so the task stores preview
 * frames only then (a frame a minute nobody looks at would be most of a stream's control-plane cost). */
export interface HeartbeatAnswer {
  previews: boolean;
  /** The stream's playlist was edited since the revision the heartbeat reported: the new one, and when it applies. */
  playlist?: { playlist: TaskPlaylist; apply: PlaylistApply };
}

/** The preview frame's query parameters (the body is the JPEG). */
export const previewQuerySchema = taskCallerSchema;
