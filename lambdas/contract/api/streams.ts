// What the API answers about streams (GET /streams, GET /streams/{id} and the stream routes), built by
// lambdas/core/streams/stream.ts and read by the web app; the stream's parts the API also takes (schedule, playlist,
// privacy). Types only; weekdays are the pure domain's (lambdas/core/wall-clock.ts).
import type { Weekday } from '../../core/wall-clock';
import type { PlaylistApply } from '../stream-task';

/**
 * stopped: not running (the initial state);
 * encoding: start requested, waiting for its video or audio to finish transcoding;
 * pending: start requested, the stream task is being (re)started;
 * started: media flows to the destinations;
 * stopping: stop requested, the task is being ended.
 */
export type StreamStatus = 'stopped' | 'encoding' | 'pending' | 'started' | 'stopping';

/** YouTube broadcasts' privacy (other destinations ignore it). */
export type Privacy = 'public' | 'unlisted' | 'private';

/** One word for the Streams page: is the loop on air as it should be? */
export type HealthVerdict = 'healthy' | 'degraded' | 'recovering' | 'offline';

/** The latest heartbeat of the stream task (stream-task/src/heartbeat.ts), as kept on the stream. */
export interface StreamHealth {
  actual: string;
  uptimeSeconds: number;
  bitrateKbps: number;
  fps: number;
  speed: number;
  loops: number;
  taskRestarts: number;
  scheduledRestarts: number;
  nextRestartAt?: string;
  lastError?: string;
  destinations: { id: string; state: 'ok' | 'failed' }[];
  /** A playlist's task: the newest revision it has, the one playing, and the video playing. */
  playlist?: { revision: number; applied: number; videoId: string };
  /** When the task's actual state was entered. */
  since?: string;
  /** When the task last stored a preview frame (streamPreviewKey in lambdas/core/media/media-urls.ts). */
  previewAt?: string;
  at: string;
}

/** Several library videos played one after another (lambdas/core/streams/playlist.ts). */
export interface StreamPlaylist {
  /** Library video ids in play order; one may appear more than once. */
  videoIds: string[];
  shuffle: boolean;
  /** Counts the playlist's edits; the task reports the newest it holds. */
  revision: number;
  /** When the latest edit of a running stream takes effect. */
  apply: PlaylistApply;
}

/** Once: `startAt` and `stopAt` are wall-clock date-times in the stream's zone, "YYYY-MM-DDTHH:MM" (what a
 * datetime-local input gives), seconds optional ("YYYY-MM-DDTHH:MM:SS"). A stop comes at `stopAt`, or
 * `durationMinutes` after the start. */
export interface OnceSchedule {
  kind: 'once';
  startAt?: string;
  stopAt?: string;
  durationMinutes?: number;
}

/** An on-air window of the weekly timetable: from `start` on `day` to `stop`, on the same day or, when `stop` is not
 * after `start`, on the next ("fri 22:00-02:00" ends on Saturday). */
export interface WeeklyWindow {
  day: Weekday;
  start: string;
  stop: string;
}

export interface WeeklySchedule {
  kind: 'weekly';
  windows: WeeklyWindow[];
}

/** When a stream goes on and off air by itself (lambdas/core/streams/schedule.ts). */
export type StreamSchedule = OnceSchedule | WeeklySchedule;

/** What the API shows of a stream: not its owner, its run's internals or its thumbnail's storage key
 * (lambdas/core/streams/stream.ts, `streamView`). */
export interface StreamView {
  id: string;
  title: string;
  description?: string;
  privacy?: Privacy;
  /** The video looped; with a playlist, the playlist's first (its card picture and thumbnail). */
  videoId?: string;
  playlist?: StreamPlaylist;
  audioId?: string;
  channelIds: string[];
  restartTimes: string[];
  timeZone: string;
  /** When it goes on and off air by itself, in `timeZone`; none: only when the creator says so. */
  schedule?: StreamSchedule;
  status: StreamStatus;
  startedAt?: string;
  /** Times the stream task was restarted by the lifecycle in this run (the task restarts ffmpeg itself too). */
  restarts: number;
  health?: StreamHealth;
  /** Why the stream stopped or cannot run, as a catalogue key. */
  lastError?: string;
  /** A problem of a running stream that does not stop it (a YouTube grant revoked: other destinations go on). */
  warning?: string;
  createdAt: string;
  updatedAt: string;
  hasCustomThumbnail: boolean;
  verdict: HealthVerdict;
  /** Minutes a running stream may be unhealthy before the creator is told (needs attention). */
  attentionMinutes: number;
  /** Not healthy for longer than its attention time: the creator has been told (since `attentionSince`). */
  needsAttention: boolean;
  attentionSince?: string;
  /** The schedule's next start and next stop (ISO instants), when it has any left. */
  nextStartAt?: string;
  nextStopAt?: string;
}
