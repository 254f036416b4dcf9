// Business metrics, defined once: the handlers and the stream task emit them (CloudWatch embedded metric format
// through Powertools), the ops dashboard and alarms read them (lib/ops-stack.ts). All carry the `stage` dimension.

export const METRICS_NAMESPACE = 'Loopcast';

export const metricNames = {
  /** Streams running (pending, encoding or started) across all users; a gauge sampled every 5 minutes. */
  streamsRunning: 'StreamsRunning',
  /** A user started a stream. */
  streamStarts: 'StreamStarts',
  /** The lifecycle started a new stream task after the previous one died (a restart the creator sees). */
  streamTaskRestarts: 'StreamTaskRestarts',
  /** A lifecycle execution handed its run over to a fresh one (250 rounds, 180 days, or a task round's timeout). */
  lifecycleHandovers: 'LifecycleHandovers',
  /** The reconciler ended stream tasks whose run was over or whose lease another task held. Should stay 0. */
  orphanTasksEnded: 'OrphanTasksEnded',
  /** The reconciler gave a running stream a fresh execution because its own was gone. Should stay 0. */
  streamsRelaunched: 'StreamsRelaunched',
  /** The reconciler restarted a stream whose task stopped renewing its lease (hung, or its host gone). */
  staleStreamsRestarted: 'StaleStreamsRestarted',
  /** The stream task restarted ffmpeg after an exit or a stall (heartbeat counters, per report). */
  ffmpegRestarts: 'FfmpegRestarts',
  /** The stream task found ffmpeg stalled (no progress) and killed it. */
  streamStalls: 'StreamStalls',
  /** Seconds from a failure to media flowing again (per recovery). */
  recoverySeconds: 'RecoverySeconds',
  /** Media bytes the stream tasks sent to their destinations (every destination counted), from each heartbeat's
   * measured bitrate as the task API receives it; RTMP and TCP/IP overhead not included (lambdas/core/streams/egress.ts).
   * The ops dashboard turns it into egress GB and the estimated cost per stream-month (lambdas/core/costs/). */
  streamEgressBytes: 'StreamEgressBytes',
  /** A stream's schedule started it, stopped it, or could not start it (a plan limit, its media: the creator is
   * told); and how late a transition was acted on, in seconds after its time. */
  scheduledStarts: 'ScheduledStarts',
  scheduledStops: 'ScheduledStops',
  scheduledStartsRefused: 'ScheduledStartsRefused',
  scheduledTransitionLagSeconds: 'ScheduledTransitionLagSeconds',
  /** Streams stopped because the plan ended or a failed payment outlived its grace. */
  streamsStoppedByBilling: 'StreamsStoppedByBilling',
  /** tus uploads created: the plan accepted them and the store made them (a refusal by the plan is not counted). */
  uploadsStarted: 'UploadsStarted',
  /** Uploads finished and registered as library items. */
  uploadsCompleted: 'UploadsCompleted',
  /** Uploads whose last byte was stored but which could not become library items (registering them threw). Uploads
   * abandoned or expired before their last byte are not seen by any request, so not counted here. */
  uploadsFailed: 'UploadsFailed',
  /** Seconds from an upload's creation to its last byte stored (per upload, registered or not). */
  uploadSeconds: 'UploadSeconds',
  /** Transcodes started, finished, failed; their duration in seconds. */
  transcodesStarted: 'TranscodesStarted',
  transcodesCompleted: 'TranscodesCompleted',
  transcodesFailed: 'TranscodesFailed',
  transcodeSeconds: 'TranscodeSeconds',
  /** Seconds one realtime publish took to post its event to every connection of the user: the connections' query and
   * every PostToConnection, until the last connection's was answered (per publish that found a connection). What the
   * local bench's p99 stands for in AWS (docs/realtime.md): whether posting past the SDK's pipeline would pay. */
  realtimeBroadcastSeconds: 'RealtimeBroadcastSeconds',
  /** YouTube Data API quota units spent (10,000 a day per Google project). */
  youtubeQuotaUnits: 'YouTubeQuotaUnits',
  /** The units spent so far on the current quota day, which Google counts from midnight Pacific time (a UTC-day sum
   * of YouTubeQuotaUnits would mix two of Google's days). */
  youtubeQuotaUsedToday: 'YouTubeQuotaUsedToday',
  /** Stripe webhooks refused (bad signature) or failed while being applied. */
  stripeWebhookFailures: 'StripeWebhookFailures',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];
