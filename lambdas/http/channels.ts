// Handler group "channels": the destinations streams go to (RTMP server + stream key; YouTube accounts).
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../adapters/deps';
import { channelView } from '../core/channels/channel';
import * as channels from '../core/channels/channels';
import { channelsContext } from '../wiring/streams';
import { json, noContent, userRoute } from './api';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';

const list = userRoute({
  async handle(request, deps) {
    return json(200, { channels: (await channelsContext(deps).channels.list(request.auth.userId)).map(channelView) });
  },
});

const addRtmp = userRoute({
  body: z.object({ name: z.string().trim().min(1).max(80), url: z.string().trim().min(1).max(512), key: z.string().min(1).max(512) }),
  async handle(request, deps) {
    return json(201, channelView(await channels.addRtmpChannel(channelsContext(deps), request.auth.userId, request.body)));
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
      'DELETE /api/channels/{id}': remove,
    },
  });

export const handler = createChannelsHandler(depsFromEnvironment);
