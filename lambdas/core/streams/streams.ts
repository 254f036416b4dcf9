// The stream use cases: create, edit, delete, start, stop, media settled, billing enforcement. Plan limits are
// enforced here; concurrency limits by the store's conditional writes. The lifecycle's decisions are in
// lifecycle.ts, the task API's in task-session.ts, the reconciler in reconcile.ts. docs/streams.md has the
// transition table.
import { randomUUID } from 'node:crypto';
import type { RealtimePublisher } from '../../contract/realtime-events';
import { streamsMustStop, type Entitlement } from '../billing/entitlement';
import type { Channel } from '../channels/channel';
import { AppError, type ErrorKey } from '../errors';
import type { Video } from '../media/videos';
import { normalizeRestartSchedule } from '../restart-schedule';
import type { Alert } from '../notifications/messages';
import type { SecretBox } from '../secret-box';
import type { StreamHistory } from './history';
import type { BroadcastKeeper, ChannelStore, StreamRun, StreamRunner, StreamStore } from './ports';
import { assertScheduleAhead, normalizeSchedule, type StreamSchedule } from './schedule';
import { checkPlaylist, nextPlaylist, streamVideoIds, type PlaylistInput } from './playlist';
import { assertModifiable, executionNameOf, type Privacy, type Stream } from './stream';
import type { PlaylistApply } from '../../contract/stream-task';
import { thumbnailType } from './thumbnail';
import { streamThumbnailKey } from '../../contract/buckets';

export interface StreamsContext {
  streams: StreamStore;
  channels: ChannelStore;
  videos: { get(userId: string, videoId: string): Promise<Video | undefined> };
  runner: StreamRunner;
  broadcasts: BroadcastKeeper;
  entitlement: (userId: string) => Promise<Entitlement>;
  secrets: SecretBox;
  realtime: RealtimePublisher;
  history: StreamHistory;
  alerts: StreamAlerts;
  now: () => Date;
}

/** Telling the creator (lambdas/core/notifications): every time, or once per notice id. */
export interface StreamAlerts {
  send(userId: string, alert: Alert): Promise<void>;
  /** Sends unless a notice of this id was sent before; answers whether it sent. */
  once(userId: string, noticeId: string, alert: Alert): Promise<boolean>;
}

export interface StreamInput {
  title: string;
  description?: string;
  privacy?: Privacy;
  videoId?: string;
  /** Several videos instead of one (the first becomes `videoId`). */
  playlist?: PlaylistInput;
  audioId?: string;
  channelIds: string[];
  restartTimes: string[];
  timeZone: string;
  attentionMinutes?: number;
  /** Set when a stream is created; changed later by setStreamSchedule (scheduled-runs.ts) in any state. */
  schedule?: StreamSchedule;
}

async function owned(context: Pick<StreamsContext, 'streams'>, userId: string, streamId: string): Promise<Stream> {
  const stream = await context.streams.get(userId, streamId);
  if (!stream) throw new AppError('stream not found');
  return stream;
}

/** The media and destinations a stream names must be the user's own; a second destination needs multistreaming. */
async function checkReferences(context: StreamsContext, userId: string, input: StreamInput, entitlement: Entitlement): Promise<void> {
  for (const [field, id, kind] of [
    ['videoId', input.videoId, 'video'],
    ['audioId', input.audioId, 'audio'],
  ] as const) {
    if (id === undefined) continue;
    const item = await context.videos.get(userId, id);
    if (!item) throw new AppError('not found', { field });
    if (item.kind !== kind) throw new AppError('invalid request', { fields: { [field]: `must be ${kind === 'video' ? 'a video' : 'an audio track'}` } });
  }
  if (input.playlist) await checkPlaylist(context.videos, userId, input.playlist, entitlement.limits);
  const unique = new Set(input.channelIds);
  if (unique.size !== input.channelIds.length) throw new AppError('invalid request', { fields: { channelIds: 'each destination once' } });
  for (const channelId of unique) {
    if (!(await context.channels.get(userId, channelId))) throw new AppError('not found', { field: 'channelIds' });
  }
  if (unique.size > entitlement.limits.destinationsPerStream) throw new AppError('plan feature unavailable', { feature: 'multistreaming' });
}

function normalized(input: StreamInput): StreamInput {
  const schedule = normalizeRestartSchedule({ times: input.restartTimes, timeZone: input.timeZone });
  return {
    title: input.title.trim(),
    ...(input.description?.trim() ? { description: input.description.trim() } : {}),
    ...(input.privacy ? { privacy: input.privacy } : {}),
    ...(input.playlist ? { videoId: input.playlist.videoIds[0], playlist: input.playlist } : input.videoId ? { videoId: input.videoId } : {}),
    ...(input.audioId ? { audioId: input.audioId } : {}),
    channelIds: input.channelIds,
    restartTimes: schedule.times,
    timeZone: schedule.timeZone,
    ...(input.attentionMinutes !== undefined ? { attentionMinutes: input.attentionMinutes } : {}),
    ...(input.schedule ? { schedule: normalizeSchedule(input.schedule) } : {}),
  };
}

export async function createStream(context: StreamsContext, userId: string, input: StreamInput): Promise<Stream> {
  const clean = normalized(input);
  if (clean.schedule) assertScheduleAhead(clean.schedule, clean.timeZone, context.now());
  await checkReferences(context, userId, clean, await context.entitlement(userId));
  const now = context.now().toISOString();
  const { playlist, ...fields } = clean;
  const stream: Stream = {
    id: randomUUID(),
    userId,
    ...fields,
    ...(playlist ? { playlist: nextPlaylist(undefined, playlist, 'join') } : {}),
    desired: 'stopped',
    status: 'stopped',
    restarts: 0,
    createdAt: now,
    updatedAt: now,
  };
  await context.streams.create(stream);
  return stream;
}

export async function updateStream(context: StreamsContext, userId: string, streamId: string, input: StreamInput): Promise<Stream> {
  const stream = await owned(context, userId, streamId);
  assertModifiable(stream);
  const clean = normalized(input);
  await checkReferences(context, userId, clean, await context.entitlement(userId));
  const { description: _d, privacy: _p, videoId: _v, playlist: current, audioId: _a, attentionMinutes: _m, ...kept } = stream;
  const { playlist, ...fields } = clean;
  const next: Stream = {
    ...kept,
    ...fields,
    ...(playlist ? { playlist: nextPlaylist(current, playlist, 'join') } : {}),
    updatedAt: context.now().toISOString(),
  };
  if (!(await context.streams.updateStopped(next))) assertModifiable(await owned(context, userId, streamId));
  return next;
}

/** Sets (or with no image, removes) the stream's own thumbnail; stored beside its media. */
export async function setThumbnail(
  context: StreamsContext & { objects: ThumbnailObjects },
  userId: string,
  streamId: string,
  image: Uint8Array | undefined,
): Promise<Stream> {
  const stream = await owned(context, userId, streamId);
  assertModifiable(stream);
  const key = streamThumbnailKey(userId, streamId);
  if (image) await context.objects.put(key, image, thumbnailType(image));
  const { thumbnailKey: _old, ...rest } = stream;
  const next: Stream = { ...rest, ...(image ? { thumbnailKey: key } : {}), updatedAt: context.now().toISOString() };
  if (!(await context.streams.updateStopped(next))) assertModifiable(await owned(context, userId, streamId));
  if (!image && stream.thumbnailKey) await context.objects.remove([stream.thumbnailKey]);
  return next;
}

export interface ThumbnailObjects {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

/**
 * Replaces a stream's playlist. Stopped: like any edit. Running: stored as the next revision, which the stream task
 * gets with its next heartbeat and applies at the next join or the next restart (`apply`); every item must then be
 * ready, and a stream running one video cannot become a playlist until it stops.
 */
export async function editPlaylist(context: StreamsContext, userId: string, streamId: string, input: PlaylistInput, apply: PlaylistApply): Promise<Stream> {
  const stream = await owned(context, userId, streamId);
  const entitlement = await context.entitlement(userId);
  const items = await checkPlaylist(context.videos, userId, input, entitlement.limits);
  if (stream.status === 'stopped' && !stream.playlist) {
    return updateStream(context, userId, streamId, { ...stream, playlist: input });
  }
  if (!stream.playlist) assertModifiable(stream);
  if (stream.status === 'stopping') throw new AppError('stream pending');
  // A task plays it soon: its items must be ready (a stream waiting in `encoding` waits for them too).
  if (stream.status === 'pending' || stream.status === 'started') {
    if (items.some((video) => video.status === 'encoding')) throw new AppError('video encoding');
    if (items.some((video) => video.status === 'failed')) throw new AppError('uploader encode error', { field: 'playlist' });
  }
  const playlist = nextPlaylist(stream.playlist, input, apply);
  if (!(await context.streams.setPlaylist(userId, streamId, playlist, stream.playlist!.revision, context.now()))) throw new AppError('updating stream failed');
  const next: Stream = { ...stream, videoId: playlist.videoIds[0]!, playlist, updatedAt: context.now().toISOString() };
  // Open pages refetch the stream on stream.state: the new list shows without a reload.
  await publishState(context, stream, stream.status);
  return next;
}

export async function deleteStream(context: StreamsContext, userId: string, streamId: string): Promise<void> {
  const stream = await owned(context, userId, streamId);
  assertModifiable(stream);
  if (!(await context.streams.deleteStopped(userId, streamId))) assertModifiable(await owned(context, userId, streamId));
}

export async function publishState(
  context: Pick<StreamsContext, 'realtime'>,
  stream: Pick<Stream, 'userId' | 'id'>,
  status: string,
  error?: string,
): Promise<void> {
  await context.realtime.publish(stream.userId, { type: 'stream.state', streamId: stream.id, status, ...(error ? { error } : {}) });
}

/** Ready, still encoding, or unusable: what a stream's media allows now. */
async function mediaState(context: StreamsContext, stream: Stream): Promise<'ready' | 'encoding' | ErrorKey> {
  if (!stream.videoId) return 'not found';
  let state: 'ready' | 'encoding' = 'ready';
  for (const id of [...streamVideoIds(stream), stream.audioId]) {
    if (!id) continue;
    const item = await context.videos.get(stream.userId, id);
    if (!item) return 'not found';
    if (item.status === 'failed') return 'uploader encode error';
    if (item.status === 'encoding') state = 'encoding';
  }
  return state;
}

/** Who starts or stops a stream: the creator (the API, the support tool, upkeep) or its schedule. */
export type StreamActor = 'creator' | 'schedule';

export async function startStream(context: StreamsContext, userId: string, streamId: string, by: StreamActor = 'creator'): Promise<Stream> {
  const stream = await owned(context, userId, streamId);
  assertModifiable(stream);
  const entitlement = await context.entitlement(userId);
  if (!entitlement.active) throw new AppError(entitlement.blockedBy ?? 'no active subscription');
  if (stream.channelIds.length === 0) throw new AppError('invalid request', { fields: { channelIds: 'choose at least one destination' } });
  await checkReferences(context, userId, stream, entitlement);
  const media = await mediaState(context, stream);
  if (media !== 'ready' && media !== 'encoding') throw new AppError(media, { field: 'videoId' });

  const runId = randomUUID();
  const run = { runId, executionName: executionNameOf(runId, 0) };
  const status = media === 'encoding' ? 'encoding' : 'pending';
  const outcome = await context.streams.claimStart(stream, status, run, entitlement.limits.concurrentStreams, context.now());
  if (outcome === 'stream limit') throw new AppError('stream limit');
  if (outcome === 'conflict') {
    assertModifiable(await owned(context, userId, streamId));
    throw new AppError('stream not found');
  }
  // What claimStart removed from the item (the last run's outcome and health) goes from the answer too.
  const {
    lastError: _lastError,
    warning: _warning,
    startedAt: _startedAt,
    health: _health,
    unhealthySince: _unhealthy,
    attentionSince: _attention,
    ...kept
  } = stream;
  const claimed: Stream = { ...kept, status, desired: 'running', ...run, restarts: 0 };
  await context.history.record(userId, streamId, { at: context.now().toISOString(), kind: 'started', ...(by === 'schedule' ? { reason: 'schedule' } : {}) });
  if (status === 'pending') await launchRun(context, claimed);
  await publishState(context, stream, status);
  return claimed;
}

/** Broadcasts first (YouTube destinations), then the task; a failure ends the run with its catalogued reason. */
async function launchRun(context: StreamsContext, stream: Stream): Promise<void> {
  const run = runOf(stream)!;
  let warning: string | undefined;
  try {
    warning = await context.broadcasts.prepare(stream);
  } catch (error) {
    const reason = error instanceof AppError ? error.key : 'starting stream failed';
    await context.streams.finishRun(stream.userId, stream.id, run.runId, reason, context.now());
    await context.broadcasts.end(stream);
    throw error instanceof AppError ? error : new AppError('starting stream failed');
  }
  if (warning) await context.streams.setRunState(stream.userId, stream.id, run.runId, { warning }, context.now());
  await context.runner.launch(run);
}

/** The run a running stream is on, as the lifecycle names it. */
export function runOf(stream: Stream): StreamRun | undefined {
  return stream.runId
    ? { userId: stream.userId, streamId: stream.id, runId: stream.runId, executionName: stream.executionName ?? executionNameOf(stream.runId, 0) }
    : undefined;
}

/** Stops a run for good: its execution first (no task starts after this), then every task of the stream (media at
 * the destinations ends here), then the run itself, which also removes the lease (a task that survived anyway
 * stops at its next renewal). */
export async function stopStream(context: StreamsContext, userId: string, streamId: string, reason?: ErrorKey, by: StreamActor = 'creator'): Promise<Stream> {
  const before = await owned(context, userId, streamId);
  const stream = await context.streams.requestStop(userId, streamId, context.now());
  if (!stream) return owned(context, userId, streamId); // already stopped: stopping is idempotent
  const run = runOf(stream);
  if (run) {
    await context.runner.stopExecution(run);
    await context.runner.endStreamTasks(streamId, before.lease?.holder ? [before.lease.holder] : []);
    if (await context.streams.finishRun(userId, streamId, run.runId, reason, context.now())) {
      const why = reason ?? (by === 'schedule' ? 'schedule' : undefined);
      await context.history.record(userId, streamId, { at: context.now().toISOString(), kind: 'stopped', ...(why ? { reason: why } : {}) });
    }
    await context.broadcasts.end(stream);
  }
  await publishState(context, stream, 'stopped', reason);
  return { ...stream, status: 'stopped', desired: 'stopped' };
}

/** The media of streams waiting in `encoding` settled: start the ones whose media is all ready, stop the ones
 * whose media failed. */
export async function resumeWaiting(context: StreamsContext, userId: string, streamIds: string[]): Promise<void> {
  for (const streamId of streamIds) {
    const stream = await context.streams.get(userId, streamId);
    if (!stream || stream.status !== 'encoding' || !stream.runId) continue;
    const media = await mediaState(context, stream);
    if (media === 'encoding') continue;
    if (media === 'ready') {
      if (await context.streams.setRunState(userId, streamId, stream.runId, { status: 'pending' }, context.now())) {
        try {
          await launchRun(context, stream);
          await publishState(context, stream, 'pending');
        } catch (error) {
          await publishState(context, stream, 'stopped', error instanceof AppError ? error.key : 'starting stream failed');
        }
      }
    } else if (await context.streams.finishRun(userId, streamId, stream.runId, media, context.now())) {
      await publishState(context, stream, 'stopped', media);
    }
  }
}

/** Every few minutes over every running stream: stop those whose plan ended or whose failed payment outlived its
 * grace period; check the others' YouTube broadcasts. */
/** A trial this close to its end, while a stream runs, is worth an alert: the stream stops with it. */
const TRIAL_ENDING_NOTICE_HOURS = 24;

export async function upkeep(context: StreamsContext): Promise<{ running: number; stopped: number }> {
  const running = await context.streams.running();
  let stopped = 0;
  for (const { userId, streamId } of running) {
    const entitlement = await context.entitlement(userId);
    const now = context.now();
    if (streamsMustStop(entitlement, now)) {
      const stream = await stopStream(context, userId, streamId, entitlement.blockedBy ?? 'no active subscription');
      await context.alerts.send(userId, { kind: 'stopped by plan', streamId, streamTitle: stream.title });
      stopped++;
      continue;
    }
    const hoursLeft = (Date.parse(entitlement.cycleEnd) - now.getTime()) / 3_600_000;
    if (entitlement.state === 'trial' && hoursLeft > 0 && hoursLeft <= TRIAL_ENDING_NOTICE_HOURS) {
      await context.alerts.once(userId, `trial-ending#${entitlement.cycleEnd}`, { kind: 'trial ending', hours: Math.ceil(hoursLeft) });
    }
    const stream = await context.streams.get(userId, streamId);
    if (!stream?.runId || stream.status !== 'started') continue;
    const warning = await context.broadcasts.check(stream);
    if (warning !== stream.warning) {
      await context.streams.setRunState(userId, streamId, stream.runId, { warning: warning ?? '' }, now);
      await context.history.record(userId, streamId, { at: now.toISOString(), kind: 'broadcast', ...(warning ? { reason: warning } : {}) });
      // Open pages refetch the stream on stream.state: the warning shows (or goes) without a reload.
      await publishState(context, stream, stream.status);
    }
  }
  return { running: running.length, stopped };
}

export const sealContext = (channel: Pick<Channel, 'userId' | 'id'>) => ({ userId: channel.userId, channelId: channel.id });
