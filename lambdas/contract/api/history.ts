// What the API answers about a stream's past (GET /streams/{id}/history, the dashboard's incidents), built by
// lambdas/core/streams/history.ts and read by the web app. Types only.

export type StreamEventKind =
  /** The run was started: by the creator, or (`reason` 'schedule') by the stream's schedule. */
  | 'started'
  /** Media reached the destinations. */
  | 'live'
  /** Media stopped reaching them while the stream should run; `reason` says why when the task knew. */
  | 'interrupted'
  /** The stream task was restarted after a failure (crash, kill, host gone, stopped reporting). */
  | 'restarted'
  /** ffmpeg was restarted at one of the stream's restart times. */
  | 'scheduled restart'
  /** A YouTube broadcast was made again or replaced; `reason` is the warning, if any. */
  | 'broadcast'
  /** The stream had not been healthy for its attention time; the creator was told. */
  | 'needs attention'
  /** Healthy again after an incident; `durationSeconds` is how long it was not healthy. */
  | 'recovered'
  /** The run ended; `reason` is the catalogue key of why, 'schedule' when its schedule stopped it, none when the
   * creator stopped it. */
  | 'stopped'
  /** The schedule's start could not happen (a plan limit, the media, a destination); `reason` is the catalogue key. */
  | 'start refused';

export interface StreamEvent {
  at: string;
  kind: StreamEventKind;
  reason?: string;
  durationSeconds?: number;
}

/** A timeline entry: an interruption or a restart carries how long media was gone (until media again, or the
 * stop), or `ongoing` while it lasts. */
export type TimelineEntry = StreamEvent & { ongoing?: boolean };

export interface HistoryView {
  /** Share of the time the stream should have run during which media reached its destinations, over the last day,
   * week and month; null when it did not run in the window. */
  uptime: { day: number | null; week: number | null; month: number | null };
  /** Newest first: the last 30 days, at most HISTORY_VIEW_LIMIT entries. */
  events: TimelineEntry[];
}

/** An incident of one of the user's streams (the dashboard's list). */
export interface Incident extends TimelineEntry {
  streamId: string;
  streamTitle: string;
}
