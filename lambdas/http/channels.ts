// Handler group "channels": the destinations streams go to (RTMP server + stream key; YouTube accounts).
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { destinationPresetIds } from '../contract/destination-presets';
import { channelView } from '../core/channels/channel';
import * as channels from '../core/channels/channels';
import { channelsContext } from '../wiring/streams';
import { json, noContent, publicRoute, userRoute } from './api';
import { logger } from '../adapters/logger';
import { entitlementOfUser } from '../core/billing/billing';
import { languageCodes } from '../core/languages';
import * as youtube from '../core/youtube/connect';
import { billingContextStores } from '../wiring/billing';
import { connectContext } from '../wiring/youtube';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';
import { singleLineText } from './text-fields';

const list = userRoute({
  async handle(request, deps) {
    const channels = (await channelsContext(deps).channels.list(request.auth.userId)).map(channelView);
    // The Channels page says when YouTube is not configured on this server (RTMP keys still work).
    return json(200, { channels, youtubeAvailable: (await deps.google()) !== undefined });
  },
});

/** The plan's limit of connected YouTube accounts. */
const channelLimit = (deps: Deps) => async (userId: string) => (await entitlementOfUser(billingContextStores(deps), userId)).limits.youtubeChannels;

const connectYouTube = userRoute({
  body: z.object({ language: z.enum(languageCodes).default('en') }),
  async handle(request, deps) {
    return json(200, await youtube.startConnect(connectContext(deps, channelLimit(deps)), request.auth.userId, request.body.language));
  },
});

/** Google sends the browser back here (a top-level navigation: no Bearer header, but the same-origin
 * `auth_token` cookie comes along, which binds the callback to the user who started it). */
const youtubeCallback = publicRoute({
  query: z.object({ code: z.string().max(2048).optional(), state: z.string().max(256).optional(), error: z.string().max(256).optional() }),
  async handle(request, deps) {
    const token = request.cookies.auth_token;
    const session = token ? await authenticateSession(token, deps) : undefined;
    const { location, error } = await youtube.finishConnect(connectContext(deps, channelLimit(deps)), session?.userId, request.query);
    if (error) logger.info('youtube connect refused', { error });
    return { status: 302, headers: { location: `${deps.config.publicUrl}${location}` } };
  },
});

const addRtmp = userRoute({
  body: z.object({ name: singleLineText(80), url: singleLineText(512), key: z.string().min(1).max(512), preset: z.enum(destinationPresetIds).optional() }),
  async handle(request, deps) {
    return json(201, channelView(await channels.addRtmpChannel(channelsContext(deps), request.auth.userId, request.body)));
  },
});

const update = userRoute({
  body: z
    .object({
      name: singleLineText(80).optional(),
      url: singleLineText(512).optional(),
      key: z.string().min(1).max(512).optional(),
      preset: z.enum(destinationPresetIds).optional(),
    })
    .refine((body) => body.name !== undefined || body.url !== undefined || body.key !== undefined || body.preset !== undefined, {
      message: 'nothing to change',
      path: ['name'],
    }),
  async handle(request, deps) {
    return json(200, channelView(await channels.updateChannel(channelsContext(deps), request.auth.userId, request.params.id ?? '', request.body)));
  },
});

const remove = userRoute({
  async handle(request, deps) {
    await channels.removeChannel(channelsContext(deps), request.auth.userId, request.params.id ?? '');
    return noContent();
  },
});

export const createChannelsHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({
    group: 'channels',
    deps,
    authenticate: authenticateSession,
    routes: {
      'GET /api/channels': list,
      'POST /api/channels/rtmp': addRtmp,
      'PATCH /api/channels/{id}': update,
      'DELETE /api/channels/{id}': remove,
      'POST /api/channels/youtube': connectYouTube,
      'GET /api/channels/youtube/callback': youtubeCallback,
    },
  });

export const handler = createChannelsHandler(depsFromEnvironment);
