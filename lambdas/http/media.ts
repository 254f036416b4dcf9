// Handler group "media": the media library (videos and separate audio tracks) and its pictures.
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { AppError } from '../core/errors';
import { bitrateTiers, outputProfileIds } from '../core/media-spec';
import * as library from '../core/media/library';
import { streamPreviewKey } from '../contract/buckets';
import { pictureUrl, verifyPictureUrl, type PictureKind } from '../core/media/media-urls';
import { TITLE_MAX_LENGTH, videoView, type Video } from '../core/media/videos';
import { libraryContext } from '../wiring/media';
import { streamsContext } from '../wiring/streams';
import { json, noContent, publicRoute, userRoute } from './api';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';
import { singleLineText } from './text-fields';

async function view(deps: Deps, video: Video) {
  return {
    ...videoView(video),
    ...(video.thumbnailKey ? { thumbnailUrl: pictureUrl(await deps.signingKey(), 'thumbnail', video.userId, video.id, deps.now()) } : {}),
  };
}

const list = userRoute({
  async handle(request, deps) {
    const videos = await libraryContext(deps).videos.list(request.auth.userId);
    return json(200, { videos: await Promise.all(videos.map((video) => view(deps, video))) });
  },
});

const get = userRoute({
  async handle(request, deps) {
    return json(200, await view(deps, await library.ownedVideo(libraryContext(deps), request.auth.userId, request.params.id ?? '')));
  },
});

const rename = userRoute({
  body: z.object({ title: singleLineText(TITLE_MAX_LENGTH) }),
  async handle(request, deps) {
    const video = await library.renameVideo(libraryContext(deps), request.auth.userId, request.params.id ?? '', request.body.title);
    return json(200, await view(deps, video));
  },
});

const changeQuality = userRoute({
  body: z.object({ profile: z.enum(outputProfileIds), tier: z.enum(bitrateTiers) }),
  async handle(request, deps) {
    const video = await library.changeQuality(libraryContext(deps), request.auth.userId, request.params.id ?? '', request.body);
    return json(200, await view(deps, video));
  },
});

const remove = userRoute({
  async handle(request, deps) {
    await library.deleteVideo(libraryContext(deps), request.auth.userId, request.params.id ?? '');
    return noContent();
  },
});

const signedQuery = z.object({
  u: z.string().max(128).optional(),
  e: z.string().max(16).optional(),
  s: z.string().max(64).optional(),
  v: z.string().max(64).optional(),
});

/** A picture behind a signed URL: the key it names is only found for the owner the URL was signed for. */
function picture(kind: PictureKind, keyOf: (deps: Deps, owner: string, id: string) => Promise<string | undefined>) {
  return publicRoute({
    query: signedQuery,
    async handle(request, deps) {
      const id = request.params.id ?? '';
      const owner = verifyPictureUrl(await deps.signingKey(), kind, id, request.query, deps.now());
      const key = owner ? await keyOf(deps, owner, id) : undefined;
      const image = key ? await libraryContext(deps).objects.read(key) : undefined;
      if (!image) throw new AppError('not found');
      return { status: 200, body: image.body, headers: { 'content-type': image.contentType, 'cache-control': 'private, max-age=3600' } };
    },
  });
}

const thumbnail = picture('thumbnail', async (deps, owner, videoId) => (await libraryContext(deps).videos.get(owner, videoId))?.thumbnailKey);
const preview = picture('preview', async (_deps, owner, streamId) => streamPreviewKey(owner, streamId));
const streamThumbnail = picture('stream-thumbnail', async (deps, owner, streamId) => (await streamsContext(deps).streams.get(owner, streamId))?.thumbnailKey);

export const createMediaHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({
    group: 'media',
    deps,
    authenticate: authenticateSession,
    routes: {
      'GET /api/videos': list,
      'GET /api/videos/{id}': get,
      'PATCH /api/videos/{id}': rename,
      'DELETE /api/videos/{id}': remove,
      'POST /api/videos/{id}/quality': changeQuality,
      'GET /api/media/{id}/thumbnail': thumbnail,
      'GET /api/media/{id}/preview': preview,
      'GET /api/media/{id}/stream-thumbnail': streamThumbnail,
    },
  });

export const handler = createMediaHandler(depsFromEnvironment);
