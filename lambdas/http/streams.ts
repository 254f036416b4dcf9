// Handler group "streams": create, edit, delete, start and stop streams.
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { adviseDestinations } from '../core/channels/platform-fit';
import { AppError } from '../core/errors';
import { historyView, recentIncidents } from '../core/streams/history';
import { streamView, type Stream } from '../core/streams/stream';
import * as streams from '../core/streams/streams';
import * as scheduling from '../core/streams/scheduled-runs';
import type { StreamSchedule } from '../core/streams/schedule';
import { schedulingContext, streamsContext, thumbnailContext } from '../wiring/streams';
import { json, noContent, userBinaryRoute, userRoute } from './api';
import { countMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import { pictureUrl } from '../core/media/media-urls';
import { THUMBNAIL_MAX_BYTES } from '../core/streams/thumbnail';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';
import { multiLineText, singleLineText } from './text-fields';
import { PLAYLIST_MAX_ITEMS, playlistApplyModes } from '../contract/stream-task';

const id = z.string().trim().min(1).max(64);
/** The shape only; the domain (lambdas/core/streams/schedule.ts) answers bad times with catalogued errors. */
const schedule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('once'), startAt: z.string().max(32).optional(), stopAt: z.string().max(32).optional(), durationMinutes: z.number().optional() }),
  z.object({ kind: z.literal('weekly'), windows: z.array(z.object({ day: z.string().max(16), start: z.string().max(8), stop: z.string().max(8) })).max(50) }),
]);
const fields = {
  title: singleLineText(100),
  description: multiLineText(5000).optional(),
  privacy: z.enum(['public', 'unlisted', 'private']).optional(),
  videoId: id.optional(),
  /** Several videos instead of `videoId`; `null` (PATCH) turns a playlist back into its first video. */
  playlist: z
    .object({ videoIds: z.array(id).min(1).max(PLAYLIST_MAX_ITEMS), shuffle: z.boolean().default(false) })
    .nullable()
    .optional(),
  audioId: id.nullable().optional(),
  channelIds: z.array(id).max(20),
  // "HH:MM" every day or "ddd HH:MM" on a weekday (lambdas/core/restart-schedule.ts).
  restartTimes: z.array(z.string().max(16)).max(100),
  timeZone: z.string().min(1).max(64),
  attentionMinutes: z.number().int().min(1).max(60).optional(),
};
const playlistBody = z.object({
  videoIds: fields.playlist.unwrap().unwrap().shape.videoIds,
  shuffle: z.boolean().default(false),
  apply: z.enum(playlistApplyModes).default('join'),
});
const createBody = z.object({
  ...fields,
  schedule: schedule.optional(),
  channelIds: fields.channelIds.default([]),
  restartTimes: fields.restartTimes.default([]),
  timeZone: fields.timeZone.default('UTC'),
});
const patchBody = z.object(fields).partial();

/** A live stream's preview: locally, the HLS output of the local RTMP test destination when the stream goes
 * there; otherwise the frame the stream task stores every minute, behind a signed URL. */
async function preview(deps: Deps, stream: Stream): Promise<{ kind: 'hls' | 'image'; url: string } | undefined> {
  if (stream.status !== 'started') return undefined;
  const local = deps.config.localPreview;
  if (!local || !deps.localPreviews) {
    const at = stream.health?.previewAt;
    return at
      ? { kind: 'image', url: `${pictureUrl(await deps.signingKey(), 'preview', stream.userId, stream.id, deps.now())}&v=${encodeURIComponent(at)}` }
      : undefined;
  }
  const channels = streamsContext(deps).channels;
  for (const channelId of stream.channelIds) {
    const channel = await channels.get(stream.userId, channelId);
    if (channel?.rtmpUrl === local.rtmpUrl && channel.sealedKey) {
      const key = await deps.secrets.open(channel.sealedKey, streams.sealContext(channel));
      return { kind: 'hls', url: `/hls/${deps.localPreviews.idFor(key)}.m3u8` };
    }
  }
  return undefined;
}

async function view(deps: Deps, stream: Stream) {
  const shown = await preview(deps, stream);
  // `v` changes with each new picture, so the browser does not show the one it cached before.
  const thumbnailUrl = stream.thumbnailKey
    ? `${pictureUrl(await deps.signingKey(), 'stream-thumbnail', stream.userId, stream.id, deps.now())}&v=${encodeURIComponent(stream.updatedAt)}`
    : undefined;
  return { ...streamView(stream, deps.now()), ...(shown ? { preview: shown } : {}), ...(thumbnailUrl ? { thumbnailUrl } : {}) };
}

/** Refuses a video beyond what a destination's platform accepts, before anything is stored or started; answers the
 * platforms' advice for the response (lambdas/core/channels/platform-fit.ts). */
const platformAdvice = (deps: Deps, userId: string, stream: { videoId?: string; channelIds: readonly string[] }) =>
  adviseDestinations(streamsContext(deps), userId, stream);

async function owned(deps: Deps, userId: string, streamId: string): Promise<Stream> {
  const stream = await streamsContext(deps).streams.get(userId, streamId);
  if (!stream) throw new AppError('stream not found');
  return stream;
}

const list = userRoute({
  async handle(request, deps) {
    const streams = await streamsContext(deps).streams.list(request.auth.userId);
    return json(200, { streams: await Promise.all(streams.map((stream) => view(deps, stream))) });
  },
});

const create = userRoute({
  body: createBody,
  async handle(request, deps) {
    const { audioId, playlist, ...input } = request.body;
    const advice = await platformAdvice(deps, request.auth.userId, { ...input, ...(playlist ? { videoId: playlist.videoIds[0] } : {}) });
    const { schedule: wanted, ...rest } = input;
    const context = schedulingContext(deps);
    const stream = await streams.createStream(context, request.auth.userId, {
      ...rest,
      ...(audioId ? { audioId } : {}),
      ...(playlist ? { playlist } : {}),
      ...(wanted ? { schedule: wanted as StreamSchedule } : {}),
    });
    await scheduling.streamSaved(context, stream);
    return json(201, { ...(await view(deps, stream)), platformAdvice: advice });
  },
});

const get = userRoute({
  async handle(request, deps) {
    return json(200, await view(deps, await owned(deps, request.auth.userId, request.params.id ?? '')));
  },
});

const update = userRoute({
  body: patchBody,
  async handle(request, deps) {
    const current = await owned(deps, request.auth.userId, request.params.id ?? '');
    const { audioId, playlist, ...changes } = request.body;
    // `audioId: null` removes the separate audio track, `playlist: null` the playlist; absent keeps them.
    const keepAudio = audioId === undefined ? current.audioId : (audioId ?? undefined);
    const keepPlaylist = playlist === undefined ? current.playlist : (playlist ?? undefined);
    const merged = { ...current, ...changes, audioId: keepAudio, playlist: keepPlaylist, ...(playlist ? { videoId: playlist.videoIds[0] } : {}) };
    const advice = await platformAdvice(deps, request.auth.userId, merged);
    const context = schedulingContext(deps);
    const stream = await streams.updateStream(context, request.auth.userId, current.id, {
      title: merged.title,
      ...(merged.description !== undefined ? { description: merged.description } : {}),
      ...(merged.privacy !== undefined ? { privacy: merged.privacy } : {}),
      ...(merged.videoId !== undefined ? { videoId: merged.videoId } : {}),
      ...(merged.playlist ? { playlist: { videoIds: merged.playlist.videoIds, shuffle: merged.playlist.shuffle } } : {}),
      ...(merged.audioId !== undefined ? { audioId: merged.audioId } : {}),
      channelIds: merged.channelIds,
      restartTimes: merged.restartTimes,
      timeZone: merged.timeZone,
      ...(merged.attentionMinutes !== undefined ? { attentionMinutes: merged.attentionMinutes } : {}),
    });
    // A new time zone moves the schedule's transitions.
    await scheduling.streamSaved(context, stream);
    return json(200, { ...(await view(deps, stream)), platformAdvice: advice });
  },
});

/** A running stream's playlist too: applied at the next join or the next restart (`apply`). */
const putPlaylist = userRoute({
  body: playlistBody,
  async handle(request, deps) {
    const { apply, ...input } = request.body;
    return json(200, await view(deps, await streams.editPlaylist(streamsContext(deps), request.auth.userId, request.params.id ?? '', input, apply)));
  },
});

const remove = userRoute({
  async handle(request, deps) {
    const context = schedulingContext(deps);
    await streams.deleteStream(context, request.auth.userId, request.params.id ?? '');
    await scheduling.streamDeleted(context, request.params.id ?? '');
    return noContent();
  },
});

const start = userRoute({
  async handle(request, deps) {
    const advice = await platformAdvice(deps, request.auth.userId, await owned(deps, request.auth.userId, request.params.id ?? ''));
    const started = await streams.startStream(streamsContext(deps), request.auth.userId, request.params.id ?? '');
    countMetric(metricNames.streamStarts);
    return json(200, { ...(await view(deps, started)), platformAdvice: advice });
  },
});

const stop = userRoute({
  async handle(request, deps) {
    return json(200, await view(deps, await streams.stopStream(streamsContext(deps), request.auth.userId, request.params.id ?? '')));
  },
});

const putThumbnail = userBinaryRoute({
  // A little over YouTube's 2 MB: a larger picture is the catalogued 'unsupported image', not a bare 413.
  maxBodyBytes: THUMBNAIL_MAX_BYTES + 64 * 1024,
  async handle(request, deps) {
    return json(
      200,
      await view(deps, await streams.setThumbnail(thumbnailContext(deps), request.auth.userId, request.params.id ?? '', new Uint8Array(request.body))),
    );
  },
});

const removeThumbnail = userRoute({
  async handle(request, deps) {
    return json(200, await view(deps, await streams.setThumbnail(thumbnailContext(deps), request.auth.userId, request.params.id ?? '', undefined)));
  },
});

/** In any state: a schedule only starts and stops the stream (docs/streams.md, Schedules). */
const putSchedule = userRoute({
  body: z.object({ schedule: schedule.nullable() }),
  async handle(request, deps) {
    const stream = await scheduling.setStreamSchedule(
      schedulingContext(deps),
      request.auth.userId,
      request.params.id ?? '',
      request.body.schedule as StreamSchedule | null,
    );
    return json(200, await view(deps, stream));
  },
});

const history = userRoute({
  async handle(request, deps) {
    const stream = await owned(deps, request.auth.userId, request.params.id ?? '');
    return json(200, await historyView(streamsContext(deps).history, stream.userId, stream.id, deps.now()));
  },
});

const incidents = userRoute({
  async handle(request, deps) {
    const context = streamsContext(deps);
    return json(200, { incidents: await recentIncidents(context.history, await context.streams.list(request.auth.userId), deps.now()) });
  },
});

export const createStreamsHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({
    group: 'streams',
    deps,
    authenticate: authenticateSession,
    unknownId: 'stream not found',
    routes: {
      'GET /api/streams': list,
      'POST /api/streams': create,
      'GET /api/streams/{id}': get,
      'PATCH /api/streams/{id}': update,
      'DELETE /api/streams/{id}': remove,
      'POST /api/streams/{id}/start': start,
      'POST /api/streams/{id}/stop': stop,
      'PUT /api/streams/{id}/playlist': putPlaylist,
      'PUT /api/streams/{id}/thumbnail': putThumbnail,
      'DELETE /api/streams/{id}/thumbnail': removeThumbnail,
      'PUT /api/streams/{id}/schedule': putSchedule,
      'GET /api/streams/{id}/history': history,
      'GET /api/incidents': incidents,
    },
  });

export const handler = createStreamsHandler(depsFromEnvironment);
