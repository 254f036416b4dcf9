// The stream use cases: create, edit, delete, start, stop, and the lifecycle callbacks (task ended, heartbeat,
// media settled, billing enforcement). Plan limits are enforced here; concurrency limits by the store's
// conditional writes. docs/streams.md has the transition table.
import { randomUUID } from 'node:crypto';
import type { RealtimePublisher } from '../../contract/realtime-events';
import { streamsMustStop, type Entitlement } from '../billing/entitlement';
import { publishUrl, type Channel } from '../channels/channel';
import { AppError, type ErrorKey } from '../errors';
import type { Video } from '../media/videos';
import { normalizeRestartSchedule } from '../restart-schedule';
import type { SecretBox } from '../secret-box';
import type { BroadcastKeeper, ChannelStore, StreamRun, StreamRunner, StreamStore } from './ports';
import { assertModifiable, healthVerdict, runningStatuses, type Privacy, type Stream, type StreamHealth } from './stream';
import { thumbnailType } from './thumbnail';

export interface StreamsContext {
  streams: StreamStore;
  channels: ChannelStore;
  videos: { get(userId: string, videoId: string): Promise<Video | undefined> };
  runner: StreamRunner;
  broadcasts: BroadcastKeeper;
  entitlement: (userId: string) => Promise<Entitlement>;
  secrets: SecretBox;
  realtime: RealtimePublisher;
  now: () => Date;
  mediaBucket: string;
}

export interface StreamInput {
  title: string;
  description?: string;
  privacy?: Privacy;
  videoId?: string;
  audioId?: string;
  channelIds: string[];
  restartTimes: string[];
  timeZone: string;
}

/** Executions hand over to a fresh one after this many task restarts (Step Functions keeps 25,000 events). */
export const RESTARTS_PER_EXECUTION = 250;

export const executionNameOf = (runId: string, restarts: number) => `${runId}-${Math.floor(restarts / RESTARTS_PER_EXECUTION)}`;

async function owned(context: Pick<StreamsContext, 'streams'>, userId: string, streamId: string): Promise<Stream> {
  const stream = await context.streams.get(userId, streamId);
  if (!stream) throw new AppError('stream not found');
  return stream;
}

/** The media and destinations a stream names must be the user's own; a second destination needs multistreaming. */
async function checkReferences(context: StreamsContext, userId: string, input: StreamInput, entitlement: Entitlement): Promise<void> {
  for (const [field, id, kind] of [['videoId', input.videoId, 'video'], ['audioId', input.audioId, 'audio']] as const) {
    if (id === undefined) continue;
    const item = await context.videos.get(userId, id);
    if (!item) throw new AppError('not found', { field });
    if (item.kind !== kind) throw new AppError('invalid request', { fields: { [field]: `must be ${kind === 'video' ? 'a video' : 'an audio track'}` } });
  }
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
    ...(input.videoId ? { videoId: input.videoId } : {}),
    ...(input.audioId ? { audioId: input.audioId } : {}),
    channelIds: input.channelIds,
    restartTimes: schedule.times,
    timeZone: schedule.timeZone,
  };
}

export async function createStream(context: StreamsContext, userId: string, input: StreamInput): Promise<Stream> {
  const clean = normalized(input);
  await checkReferences(context, userId, clean, await context.entitlement(userId));
  const now = context.now().toISOString();
  const stream: Stream = { id: randomUUID(), userId, ...clean, desired: 'stopped', status: 'stopped', restarts: 0, createdAt: now, updatedAt: now };
  await context.streams.create(stream);
  return stream;
}

export async function updateStream(context: StreamsContext, userId: string, streamId: string, input: StreamInput): Promise<Stream> {
  const stream = await owned(context, userId, streamId);
  assertModifiable(stream);
  const clean = normalized(input);
  await checkReferences(context, userId, clean, await context.entitlement(userId));
  const { description: _d, privacy: _p, videoId: _v, audioId: _a, ...kept } = stream;
  const next: Stream = { ...kept, ...clean, updatedAt: context.now().toISOString() };
  if (!(await context.streams.updateStopped(next))) assertModifiable(await owned(context, userId, streamId));
  return next;
}

/** Sets (or with no image, removes) the stream's own thumbnail; stored beside its media. */
export async function setThumbnail(context: StreamsContext & { objects: ThumbnailObjects }, userId: string, streamId: string, image: Uint8Array | undefined): Promise<Stream> {
  const stream = await owned(context, userId, streamId);
  assertModifiable(stream);
  const key = `media/${userId}/streams/${streamId}/thumbnail`;
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

export async function deleteStream(context: StreamsContext, userId: string, streamId: string): Promise<void> {
  const stream = await owned(context, userId, streamId);
  assertModifiable(stream);
  if (!(await context.streams.deleteStopped(userId, streamId))) assertModifiable(await owned(context, userId, streamId));
}

async function publishState(context: Pick<StreamsContext, 'realtime'>, stream: Pick<Stream, 'userId' | 'id'>, status: string, error?: string): Promise<void> {
  await context.realtime.publish(stream.userId, { type: 'stream.state', streamId: stream.id, status, ...(error ? { error } : {}) });
}

/** Ready, still encoding, or unusable: what a stream's media allows now. */
async function mediaState(context: StreamsContext, stream: Stream): Promise<'ready' | 'encoding' | ErrorKey> {
  if (!stream.videoId) return 'not found';
  let state: 'ready' | 'encoding' = 'ready';
  for (const id of [stream.videoId, stream.audioId]) {
    if (!id) continue;
    const item = await context.videos.get(stream.userId, id);
    if (!item) return 'not found';
    if (item.status === 'failed') return 'uploader encode error';
    if (item.status === 'encoding') state = 'encoding';
  }
  return state;
}

export async function startStream(context: StreamsContext, userId: string, streamId: string): Promise<Stream> {
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
  const claimed: Stream = { ...stream, status, desired: 'running', ...run, restarts: 0 };
  if (status === 'pending') await launchRun(context, claimed);
  await publishState(context, stream, status);
  return claimed;
}

/** Broadcasts first (YouTube destinations), then the task; a failure ends the run with its catalogued reason. */
async function launchRun(context: StreamsContext, stream: Stream): Promise<void> {
  const run = { userId: stream.userId, streamId: stream.id, runId: stream.runId!, executionName: stream.executionName ?? executionNameOf(stream.runId!, 0) };
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

export async function stopStream(context: StreamsContext, userId: string, streamId: string, reason?: ErrorKey): Promise<Stream> {
  await owned(context, userId, streamId);
  const stream = await context.streams.requestStop(userId, streamId, context.now());
  if (!stream) return owned(context, userId, streamId); // already stopped: stopping is idempotent
  if (stream.runId) {
    await context.runner.stop({ userId, streamId, runId: stream.runId, executionName: stream.executionName ?? executionNameOf(stream.runId, 0) });
    await context.streams.finishRun(userId, streamId, stream.runId, reason, context.now());
    await context.broadcasts.end(stream);
  }
  await publishState(context, stream, 'stopped', reason);
  return { ...stream, status: 'stopped', desired: 'stopped' };
}

// ---- Lifecycle callbacks ----

export type LifecycleDecision =
  | { action: 'restart'; delaySeconds: number; restarts: number }
  | { action: 'handover'; executionName: string; restarts: number }
  | { action: 'stop' };

/** How long to wait before the next task: 1 s, doubling to a minute, with up to 20 % jitter so streams that
 * failed together (a destination outage) do not restart in lockstep. Whole seconds: a Wait state's SecondsPath
 * must be an integer. */
export function restartDelaySeconds(restarts: number, random: () => number = Math.random): number {
  const base = Math.min(2 ** Math.max(0, restarts - 1), 60);
  return Math.round(base * (1 + 0.2 * random()));
}

/** The stream task of a run ended (crashed, killed, or the container host went away). */
export async function taskEnded(context: StreamsContext, run: Omit<StreamRun, 'executionName'>, taskError?: string): Promise<LifecycleDecision> {
  const stream = await context.streams.get(run.userId, run.streamId);
  if (!stream || stream.runId !== run.runId || stream.desired !== 'running') return { action: 'stop' };
  const restarts = stream.restarts + 1;
  const handover = restarts % RESTARTS_PER_EXECUTION === 0;
  const executionName = executionNameOf(run.runId, restarts);
  const moved = await context.streams.setRunState(run.userId, run.streamId, run.runId, {
    status: 'pending',
    restarts,
    ...(handover ? { executionName } : {}),
    ...(taskError ? { health: { ...(stream.health ?? emptyHealth(context.now())), lastError: taskError } } : {}),
  }, context.now());
  if (!moved) return { action: 'stop' };
  await publishState(context, stream, 'pending');
  return handover ? { action: 'handover', executionName, restarts } : { action: 'restart', delaySeconds: restartDelaySeconds(restarts), restarts };
}

const emptyHealth = (now: Date): StreamHealth => ({
  actual: 'starting', uptimeSeconds: 0, bitrateKbps: 0, fps: 0, speed: 0, loops: 0, taskRestarts: 0, scheduledRestarts: 0, destinations: [], at: now.toISOString(),
});

/** The run's lifecycle execution itself failed (not a task: the state machine). Without this the stream would
 * look `pending` for ever; it is stopped with the reason, and the user can start it again. */
export async function lifecycleFailed(context: Pick<StreamsContext, 'streams' | 'realtime' | 'now' | 'broadcasts'>, run: StreamRun): Promise<boolean> {
  const stream = await context.streams.get(run.userId, run.streamId);
  if (!stream || stream.runId !== run.runId || stream.executionName !== run.executionName) return false;
  const finished = await context.streams.finishRun(run.userId, run.streamId, run.runId, 'service unavailable', context.now());
  if (finished) {
    await context.broadcasts.end(stream);
    await publishState(context, stream, 'stopped', 'service unavailable');
  }
  return finished;
}

/** A heartbeat of the run's stream task: `started` means media flows. */
export async function applyHeartbeat(context: Pick<StreamsContext, 'streams' | 'realtime' | 'now' | 'broadcasts'>, run: Omit<StreamRun, 'executionName'>, health: StreamHealth): Promise<void> {
  const stream = await context.streams.get(run.userId, run.streamId);
  if (!stream || stream.runId !== run.runId || !['pending', 'started'].includes(stream.status)) return;
  // A scheduled restart happened: YouTube destinations get fresh broadcasts.
  if (health.scheduledRestarts > (stream.health?.scheduledRestarts ?? 0)) await context.broadcasts.rotate(stream);
  const status = health.actual === 'started' ? 'started' : 'pending';
  const firstStart = status === 'started' && !stream.startedAt;
  const changed = await context.streams.setRunState(run.userId, run.streamId, run.runId, { status, health, ...(firstStart ? { startedAt: context.now().toISOString() } : {}) }, context.now());
  if (!changed) return;
  if (status !== stream.status) await publishState(context, stream, status);
  const verdict = healthVerdict({ status, health }, context.now());
  await context.realtime.publish(run.userId, { type: 'stream.heartbeat', streamId: run.streamId, verdict, health: { ...health } });
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
export async function upkeep(context: StreamsContext): Promise<{ running: number; stopped: number }> {
  const running = await context.streams.running();
  let stopped = 0;
  for (const { userId, streamId } of running) {
    const entitlement = await context.entitlement(userId);
    if (streamsMustStop(entitlement, context.now())) {
      await stopStream(context, userId, streamId, entitlement.blockedBy ?? 'no active subscription');
      stopped++;
      continue;
    }
    const stream = await context.streams.get(userId, streamId);
    if (!stream?.runId || stream.status !== 'started') continue;
    const warning = await context.broadcasts.check(stream);
    if (warning !== stream.warning) {
      await context.streams.setRunState(userId, streamId, stream.runId, { warning: warning ?? '' }, context.now());
      // Open pages refetch the stream on stream.state: the warning shows (or goes) without a reload.
      await publishState(context, stream, stream.status);
    }
  }
  return { running: running.length, stopped };
}

// ---- What the stream task runs ----

export interface TaskSpec {
  streamId: string;
  video: string;
  audio?: string;
  destinations: { id: string; url: string }[];
  restartTimes: string[];
  timeZone: string;
}

export const sealContext = (channel: Pick<Channel, 'userId' | 'id'>) => ({ userId: channel.userId, channelId: channel.id });

/** The stream task's spec for a run, with stream keys opened: only the task ever sees them. */
export async function taskSpec(context: Pick<StreamsContext, 'streams' | 'videos' | 'channels' | 'secrets' | 'mediaBucket'>, userId: string, streamId: string): Promise<TaskSpec> {
  const stream = await owned(context, userId, streamId);
  if (!runningStatuses.includes(stream.status)) throw new AppError('stream not found');
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
    video: `s3://${context.mediaBucket}/${video.outputKey}`,
    ...(audio?.outputKey ? { audio: `s3://${context.mediaBucket}/${audio.outputKey}` } : {}),
    destinations,
    restartTimes: stream.restartTimes,
    timeZone: stream.timeZone,
  };
}
