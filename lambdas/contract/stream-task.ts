// What crosses the boundary between Loopcast and a stream task, defined once: the spec of what it streams, the
// heartbeat it reports, its run lease, and the task API it talks to in managed mode (lambdas/http/stream-tasks.ts
// serves it; stream-task/src/task-api.ts calls it). docs/stream-task.md and docs/streams.md describe them.
// Zod's mini build (the same schemas as functions, not methods): the stream task loads this module at every start,
// and the whole of Zod was a third of the task's start (docs/stream-task.md).
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// Messages in English, as the full Zod gives them (the mini build has none of its own: "Invalid input" for all).
z.config(en());

/** A string of `min` to `max` characters. */
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const id = text(1, 64);
const source = text(1, 4096);

/** More items than any plan allows (lambdas/core/plans.ts, playlistItems): a bound on what a spec may carry. */
export const PLAYLIST_MAX_ITEMS = 500;

/** When an edit of a running stream's playlist takes effect: at the next join (seamless), or at the next restart. */
export const playlistApplyModes = ['join', 'restart'] as const;
export type PlaylistApply = (typeof playlistApplyModes)[number];

/** A playlist (docs/playlists.md): library videos played one after another, in order or shuffled for every pass. */
export const taskPlaylistSchema = z.object({
  /** Counts the stream's playlist edits: the task reports the newest it has, and gets newer ones. */
  revision: z.int().check(z.minimum(0)),
  shuffle: z.boolean(),
  /** The video's id, and its source (fetched like `video`). An item may appear more than once. */
  items: z.array(z.object({ id, url: source })).check(z.minLength(1), z.maxLength(PLAYLIST_MAX_ITEMS)),
});

export type TaskPlaylist = z.output<typeof taskPlaylistSchema>;

const seconds = z.number().check(z.minimum(-1e7), z.maximum(1e7));

/**
 * What a stream task's ffprobe found in a stream-ready file (stream-task/src/media.ts): its length, bitrates, tracks
 * and, for videos, the packets at both ends that say whether it loops seamlessly by copy (stream-task/src/loop-ready.ts).
 * The task reports it once (`TASK_API.probe`) and the item keeps it, so later starts skip the ffprobe (a quarter of a
 * start on the local stack). It holds for the bytes whose S3 ETag it names, and a task uses it only for those.
 */
export const mediaProbeSchema = z.object({
  etag: text(1, 128),
  durationUs: z.int().check(z.minimum(0), z.maximum(1e12)),
  bitRate: z.optional(z.number().check(z.minimum(0), z.maximum(1e10))),
  streams: z
    .array(z.object({ codecType: text(0, 32), codecName: text(0, 64), bitRate: z.optional(z.number().check(z.minimum(0), z.maximum(1e10))) }))
    .check(z.maxLength(32)),
  timeline: z.optional(
    z.object({ fileStart: seconds, videoStart: seconds, videoLength: seconds, audioStart: seconds, audioLastStart: seconds, audioFrame: seconds }),
  ),
});

export type MediaProbe = z.output<typeof mediaProbeSchema>;

/** The inputs of a single-video stream a probe is reported for. */
export const probedInputs = ['video', 'audio'] as const;

export const streamTaskSpecSchema = z.object({
  streamId: id,
  /** `s3://bucket/key`, an `https://` (or locally `http://`) URL such as a presigned S3 URL, or a local path. */
  video: source,
  /** A separate audio track, fetched like the video; the video's own audio is then not used. */
  audio: z.optional(source),
  /** What an earlier task's ffprobe found in `video` and `audio`, when one has reported it. */
  videoProbe: z.optional(mediaProbeSchema),
  audioProbe: z.optional(mediaProbeSchema),
  /** Several videos instead of one (`video` is then the first item's source and not used). */
  playlist: z.optional(taskPlaylistSchema),
  destinations: z
    .array(
      z.object({
        id,
        /** Full publish URL including the stream key, e.g. rtmp://a.rtmp.youtube.com/live2/<key>. */
        url: z
          .string()
          .check(z.maxLength(2048), z.regex(/^rtmps?:\/\/[^/\s]+\/\S+$/i, 'must be an rtmp:// or rtmps:// URL with an application and stream key')),
      }),
    )
    .check(z.minLength(1)),
  /** "HH:MM" in timeZone. */
  restartTimes: z._default(z.array(z.string()), []),
  timeZone: z._default(z.string(), 'UTC'),
});

export type StreamTaskSpec = z.output<typeof streamTaskSpecSchema>;
export type StreamTaskSpecInput = z.input<typeof streamTaskSpecSchema>;

const count = z.int().check(z.minimum(0), z.maximum(1e12));
const rate = z.number().check(z.minimum(0), z.maximum(1e9));

/** A heartbeat of the stream task (stream-task/src/heartbeat.ts makes it), as it reaches the task API. */
export const heartbeatSchema = z.object({
  streamId: id,
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
  nextRestartAt: z.optional(z.iso.datetime()),
  lastError: z.optional(text(0, 2000)),
  destinations: z.array(z.object({ id, state: z.enum(['ok', 'failed']) })).check(z.maxLength(50)),
  /** A playlist's task: the newest revision it has (playing, or waiting for its moment), the one playing, and the
   * item playing. */
  playlist: z.optional(z.object({ revision: count, applied: count, videoId: id })),
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

export { TASK_API } from './task-api-paths';

/** Who is asking: the run the token was minted for and the instance that holds (or asks for) its lease. */
export const taskCallerSchema = z.object({
  userId: id,
  streamId: id,
  /** The ECS task ARN in AWS, the local runner's task id locally. */
  instanceId: text(1, 256),
});

export type TaskCaller = z.output<typeof taskCallerSchema>;

export const leaseRequestSchema = taskCallerSchema;
export const heartbeatRequestSchema = z.extend(taskCallerSchema, { heartbeat: heartbeatSchema });

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

/** A probe of one of the run's inputs, reported for the item to keep. */
export const probeRequestSchema = z.extend(taskCallerSchema, { input: z.enum(probedInputs), probe: mediaProbeSchema });

/** The preview frame's query parameters (the body is the JPEG). */
export const previewQuerySchema = taskCallerSchema;
