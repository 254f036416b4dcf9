// Messages the server pushes to a user's browsers over the realtime WebSocket, defined once for the publishers
// (handlers, workflow, stream task) and the web app (web/src/features/realtime). A user receives only their own.

export interface VideoProgressEvent {
  type: 'video.progress';
  videoId: string;
  /** Transcoding progress, 0-100. */
  percent: number;
}

export interface VideoStateEvent {
  type: 'video.state';
  videoId: string;
  status: string;
  error?: string;
}

export interface UploadFinishedEvent {
  type: 'upload.finished';
  videoId: string;
}

export interface StreamStateEvent {
  type: 'stream.state';
  streamId: string;
  status: string;
  error?: string;
}

export interface StreamHeartbeatEvent {
  type: 'stream.heartbeat';
  streamId: string;
  /** healthy | degraded | recovering | offline (lambdas/core/streams/stream.ts). */
  verdict: string;
  health: Record<string, unknown>;
}

export interface SubscriptionChangedEvent {
  type: 'subscription.changed';
}

export type RealtimeEvent = VideoProgressEvent | VideoStateEvent | UploadFinishedEvent | StreamStateEvent | StreamHeartbeatEvent | SubscriptionChangedEvent;

export type RealtimeEventType = RealtimeEvent['type'];

export interface RealtimePublisher {
  /** Delivers an event to every open connection of the user; connections that are gone are dropped. Answers how many
   * connections it was sent to (0: nobody is watching). */
  publish(userId: string, event: RealtimeEvent): Promise<number>;
}
