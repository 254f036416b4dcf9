// Handler group "notifications": how the signed-in creator wants to be told (e-mail on or off) and their Telegram
// chat (linked with a one-time deep link, unlinked at will).
import { z } from 'zod';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { notificationsView, startTelegramLink } from '../core/notifications/notifications';
import { notificationsContext } from '../wiring/notifications';
import { json, noContent, userRoute } from './api';
import { createHttpHandler, type HttpHandler } from './handler';
import { authenticateSession } from './session-auth';

const read = userRoute({
  async handle(request, deps) {
    return json(200, await notificationsView(notificationsContext(deps), request.auth.userId));
  },
});

const change = userRoute({
  body: z.object({ email: z.boolean() }),
  async handle(request, deps) {
    const context = notificationsContext(deps);
    await context.settings.setEmail(request.auth.userId, request.body.email);
    return json(200, await notificationsView(context, request.auth.userId));
  },
});

const linkTelegram = userRoute({
  async handle(request, deps) {
    return json(200, await startTelegramLink(notificationsContext(deps), request.auth.userId));
  },
});

const unlinkTelegram = userRoute({
  async handle(request, deps) {
    await notificationsContext(deps).settings.unlinkTelegram(request.auth.userId);
    return noContent();
  },
});

export const createNotificationsHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({
    group: 'notifications',
    deps,
    authenticate: authenticateSession,
    routes: {
      'GET /api/notifications': read,
      'PATCH /api/notifications': change,
      'POST /api/notifications/telegram': linkTelegram,
      'DELETE /api/notifications/telegram': unlinkTelegram,
    },
  });

export const handler = createNotificationsHandler(depsFromEnvironment);
