// Handler group "telegram-webhook": Telegram's calls to the operator's bot (a creator pressing Start on a deep link,
// or writing to the bot). Its own function and route, no session: the secret token Telegram sends with every call
// (X-Telegram-Bot-Api-Secret-Token, set with setWebhook; docs/deploy.md) is the only authentication.
import { timingSafeEqual } from 'node:crypto';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { logger } from '../adapters/logger';
import { handleTelegramUpdate, type TelegramUpdate } from '../core/notifications/notifications';
import { AppError } from '../core/errors';
import { notificationsContext } from '../wiring/notifications';
import { json, signedRoute } from './api';
import { createHttpHandler, type HttpHandler } from './handler';

/** Telegram's updates are small; this leaves room without inviting abuse. */
const MAX_UPDATE_BYTES = 256 * 1024;

const sameSecret = (given: string | undefined, expected: string): boolean => {
  const [a, b] = [Buffer.from(given ?? ''), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
};

const webhook = signedRoute({
  maxBodyBytes: MAX_UPDATE_BYTES,
  async handle(request, deps) {
    const settings = await deps.telegram();
    if (!settings) throw new AppError('telegram not configured');
    if (!sameSecret(request.headers['x-telegram-bot-api-secret-token'], settings.webhookSecret)) throw new AppError('wrong signature');
    let update: TelegramUpdate;
    try {
      update = JSON.parse(request.body) as TelegramUpdate;
    } catch {
      throw new AppError('malformed json');
    }
    const outcome = await handleTelegramUpdate(notificationsContext(deps), update);
    logger.info('telegram update', { outcome });
    // Any 2xx: Telegram stops retrying this update.
    return json(200, { ok: true });
  },
});

export const createTelegramWebhookHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({ group: 'telegram-webhook', deps, routes: { 'POST /api/telegram/webhook': webhook } });

export const handler = createTelegramWebhookHandler(depsFromEnvironment);
