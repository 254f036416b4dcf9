// Composition: how the creator is told (e-mail, Telegram) from Deps, made once per Deps (per-deps.ts).
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoNotificationSettings } from '../adapters/dynamo/notification-settings-store';
import { logger } from '../adapters/logger';
import { TelegramBotApi } from '../adapters/telegram/bot-api';
import { notify, type NotificationsContext } from '../core/notifications/notifications';
import type { StreamAlerts } from '../core/streams/streams';
import { accountsStore } from './accounts';
import { clockOf, mailerOf, perDeps } from './per-deps';

export const notificationsContext = perDeps((deps): NotificationsContext => ({
  settings: new DynamoNotificationSettings(deps.db, deps.config.tables.app),
  users: accountsStore(deps),
  mailer: mailerOf(deps),
  telegram: async () => {
    const settings = await deps.telegram();
    return settings ? new TelegramBotApi(settings) : undefined;
  },
  get publicUrl() {
    return deps.config.publicUrl;
  },
  now: clockOf(deps),
}));

export const streamAlerts = perDeps((deps): StreamAlerts => {
  const context = notificationsContext(deps);
  const notices = new DynamoBillingStore(deps.db, deps.config.tables.app);
  const send = async (userId: string, alert: Parameters<StreamAlerts['send']>[1]) => {
    await notify(context, userId, alert, (message, error) => logger.warn(message, { error: error as Error }));
  };
  return {
    send,
    async once(userId, noticeId, alert) {
      if (!(await notices.claimNotice(userId, noticeId, deps.now()))) return false;
      await send(userId, alert);
      return true;
    },
  };
});
