// What a stream task may do, through the task API (lambdas/http/stream-tasks.ts), with its run token: take the run's
// lease and get what to stream, report heartbeats (each renews the lease), store preview frames, report what its
// ffprobe found in its inputs (kept with the items for later starts). A task reaches
// nothing else: not the table, not the keys, not other users' media (docs/security.md, docs/streams.md).
import {
  TASK_LEASE,
  type Heartbeat,
  type HeartbeatAnswer,
  type LeaseGrant,
  type MediaProbe,
  type StreamTaskSpecInput,
  type TaskCaller,
} from '../../contract/stream-task';
import { hashToken } from '../accounts/tokens';
import { egressBytesBetween } from './egress';
import { pendingEdit, taskPlaylist } from './playlist';
import { publishUrl } from '../channels/channel';
import { AppError } from '../errors';
import type { VideoStore } from '../media/ports';
import type { TaskCredentials } from './ports';
import { healthVerdict, runningStatuses, type StreamHealth } from './stream';
import { publishState, sealContext, type StreamsContext } from './streams';

/** Where the task's media comes from and where its preview frames go (S3 in AWS, s3rver locally). */
export interface TaskMedia {
  /** A short-lived URL the task downloads an object from. */
  downloadUrl(key: string): Promise<string>;
  putPreview(userId: string, streamId: string, jpeg: Uint8Array): Promise<void>;
}

export type TaskSessionContext = Pick<StreamsContext, 'streams' | 'channels' | 'secrets' | 'broadcasts' | 'realtime' | 'history' | 'now'> & {
  media: TaskMedia;
  /** The items a run streams, and where what its probes found is kept. */
  videos: Pick<VideoStore, 'get' | 'updateWhileReady'>;
};

const credentials = (caller: TaskCaller, token: string): TaskCredentials => ({ ...caller, tokenHash: hashToken(token) });
const leaseMs = TASK_LEASE.ttlSeconds * 1000;

/** The task takes its run's lease and gets its spec: stream keys opened here, media as short-lived URLs. */
export async function grantLease(context: TaskSessionContext, caller: TaskCaller, token: string): Promise<LeaseGrant> {
  const taken = await context.streams.takeLease(credentials(caller, token), leaseMs, context.now());
  if (!taken) throw new AppError('task lease lost');
  return { spec: await taskSpec(context, caller.userId, caller.streamId), lease: TASK_LEASE };
}

/** The stream task's spec for a run, with stream keys opened: only the task ever sees them. */
export async function taskSpec(
  context: Pick<TaskSessionContext, 'streams' | 'videos' | 'channels' | 'secrets' | 'media'>,
  userId: string,
  streamId: string,
): Promise<StreamTaskSpecInput> {
  const stream = await context.streams.get(userId, streamId);
  if (!stream || !runningStatuses.includes(stream.status)) throw new AppError('task lease lost');
  const [video, audio] = await Promise.all([stream.videoId, stream.audioId].map((id) => (id ? context.videos.get(userId, id) : undefined)));
  if (!video?.outputKey) throw new AppError('not found', { field: 'videoId' });
  const destinations = [];
  for (const channelId of stream.channelIds) {
    const channel = await context.channels.get(userId, channelId);
    if (!channel?.rtmpUrl || !channel.sealedKey) continue;
    destinations.push({ id: channel.id, url: publishUrl(channel.rtmpUrl, await context.secrets.open(channel.sealedKey, sealContext(channel))) });
  }
  if (!destinations.length) throw new AppError('not found', { field: 'channelIds' });
  return {
    streamId,
    video: await context.media.downloadUrl(video.outputKey),
    ...(video.streamProbe ? { videoProbe: video.streamProbe } : {}),
    ...(audio?.outputKey ? { audio: await context.media.downloadUrl(audio.outputKey), ...(audio.streamProbe ? { audioProbe: audio.streamProbe } : {}) } : {}),
    ...(stream.playlist ? { playlist: await taskPlaylist(context.videos, (key) => context.media.downloadUrl(key), userId, stream.playlist) } : {}),
    destinations,
    restartTimes: stream.restartTimes,
    timeZone: stream.timeZone,
  };
}

/** The heartbeat as the stream keeps it. */
export function healthOf(heartbeat: Heartbeat): StreamHealth {
  return {
    actual: heartbeat.actual,
    uptimeSeconds: heartbeat.uptimeSeconds,
    bitrateKbps: heartbeat.bitrateKbps,
    fps: heartbeat.fps,
    speed: heartbeat.speed,
    loops: heartbeat.loops,
    taskRestarts: heartbeat.restarts,
    scheduledRestarts: heartbeat.scheduledRestarts,
    ...(heartbeat.nextRestartAt ? { nextRestartAt: heartbeat.nextRestartAt } : {}),
    ...(heartbeat.lastError ? { lastError: heartbeat.lastError } : {}),
    destinations: heartbeat.destinations,
    ...(heartbeat.playlist ? { playlist: heartbeat.playlist } : {}),
    since: heartbeat.since,
    at: heartbeat.at,
  };
}

/** What a heartbeat tells operations (the handler records it as metrics). */
export interface HeartbeatFacts {
  /** ffmpeg restarts since the previous heartbeat. */
  ffmpegRestarts: number;
  stalled: boolean;
  /** Seconds from losing media to media again, when this heartbeat ends an outage. */
  recoverySeconds?: number;
  /** Media bytes sent to the destinations since the previous heartbeat. */
  egressBytes: number;
}

export interface HeartbeatOutcome {
  facts: HeartbeatFacts;
  /** Someone has the stream's page open: the task should store preview frames. */
  watched: boolean;
  /** A playlist edit the task does not have yet. */
  playlist?: HeartbeatAnswer['playlist'];
}

function factsOf(previous: StreamHealth | undefined, health: StreamHealth): HeartbeatFacts {
  const ffmpegRestarts = Math.max(0, health.taskRestarts - (previous?.taskRestarts ?? 0));
  const recovered = previous?.actual === 'restarting' && health.actual === 'started' && previous.since && health.since;
  return {
    ffmpegRestarts,
    egressBytes: previous ? egressBytesBetween(previous, health) : 0,
    stalled: ffmpegRestarts > 0 && !!health.lastError?.startsWith('stalled'),
    ...(recovered ? { recoverySeconds: Math.max(0, (Date.parse(health.since!) - Date.parse(previous.since!)) / 1000) } : {}),
  };
}

/** A heartbeat: renews the lease (refused: the task must stop), moves the stream between pending and started,
 * rotates YouTube broadcasts after a scheduled restart, and tells the user's open pages. */
export async function recordHeartbeat(context: TaskSessionContext, caller: TaskCaller, token: string, heartbeat: Heartbeat): Promise<HeartbeatOutcome> {
  const now = context.now();
  const health = healthOf(heartbeat);
  const renewed = await context.streams.renewLease(credentials(caller, token), health, leaseMs, now);
  if (!renewed) throw new AppError('task lease lost');
  const { previous } = renewed;
  const started = health.actual === 'started';
  const status = started ? 'started' : 'pending';
  const stream = { userId: caller.userId, id: caller.streamId };
  const wasStarted = previous?.actual === 'started';
  const scheduledRestart = health.scheduledRestarts > (previous?.scheduledRestarts ?? 0);
  if (!previous || wasStarted !== started) {
    const moved = await context.streams.setRunState(caller.userId, caller.streamId, renewed.runId, { status, ...(started ? { markStarted: true } : {}) }, now);
    if (!moved) throw new AppError('task lease lost');
    await publishState(context, stream, status);
    if (started) await context.history.record(caller.userId, caller.streamId, { at: now.toISOString(), kind: 'live' });
    else if (wasStarted && !scheduledRestart)
      await context.history.record(caller.userId, caller.streamId, {
        at: now.toISOString(),
        kind: 'interrupted',
        ...(health.lastError ? { reason: health.lastError } : {}),
      });
  }
  // A scheduled restart happened: YouTube destinations get fresh broadcasts.
  if (scheduledRestart) {
    await context.history.record(caller.userId, caller.streamId, { at: now.toISOString(), kind: 'scheduled restart' });
    const current = await context.streams.get(caller.userId, caller.streamId);
    if (current) await context.broadcasts.rotate(current);
  }
  const watchers = await context.realtime.publish(caller.userId, {
    type: 'stream.heartbeat',
    streamId: caller.streamId,
    verdict: healthVerdict({ status, health }, now),
    health: { ...health },
  });
  const playlist = heartbeat.playlist && (await pendingEdit(context, caller.userId, caller.streamId, heartbeat.playlist.revision));
  return { facts: factsOf(previous, health), watched: watchers > 0, ...(playlist ? { playlist } : {}) };
}

/** A preview frame of where the loop is (stored every minute by the task while watched). Its time is noted only
 * once the frame is stored: the API shows a preview from that note on, and a browser that asked before the object
 * existed got a 404 for a broken picture. Only the lease's holder may store one. */
export async function storePreview(context: TaskSessionContext, caller: TaskCaller, token: string, jpeg: Uint8Array): Promise<void> {
  const holder = credentials(caller, token);
  if (!(await context.streams.holdsLease(holder))) throw new AppError('task lease lost');
  await context.media.putPreview(caller.userId, caller.streamId, jpeg);
  if (!(await context.streams.notePreview(holder, context.now()))) throw new AppError('task lease lost');
}

/** The run's task reports what its ffprobe found in one of its inputs: the item keeps it for later starts. Nothing is
 * kept when the stream no longer has such an input or the item is no longer ready (a quality change began): the next
 * task probes again. */
export async function storeProbe(context: TaskSessionContext, caller: TaskCaller, token: string, input: 'video' | 'audio', probe: MediaProbe): Promise<void> {
  if (!(await context.streams.holdsLease(credentials(caller, token)))) throw new AppError('task lease lost');
  const stream = await context.streams.get(caller.userId, caller.streamId);
  const itemId = input === 'video' ? stream?.videoId : stream?.audioId;
  const item = itemId ? await context.videos.get(caller.userId, itemId) : undefined;
  if (item?.status !== 'ready') return;
  await context.videos.updateWhileReady(caller.userId, item.id, item.revision ?? 0, { streamProbe: probe });
}
