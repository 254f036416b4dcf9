// Composition: how the creator is told (e-mail, Telegram) from Deps.
import type { Deps } from './deps';
import { DynamoAccountsStore } from '../adapters/dynamo/accounts-store';
import { DynamoBillingStore } from '../adapters/dynamo/billing-store';
import { DynamoNotificationSettings } from '../adapters/dynamo/notification-settings-store';
import { logger } from '../adapters/logger';
import { TelegramBotApi } from '../adapters/telegram/bot-api';
import { notify, type NotificationsContext } from '../core/notifications/notifications';
import type { StreamAlerts } from '../core/streams/streams';

export function notificationsContext(deps: Deps): NotificationsContext {
  const table = deps.config.tables.app;
  return {
    settings: new DynamoNotificationSettings(deps.db, table),
    users: new DynamoAccountsStore(deps.db, table),
    mailer: deps.mailer,
    telegram: async () => {
      const settings = await deps.telegram();
      return settings ? new TelegramBotApi(settings) : undefined;
    },
    publicUrl: deps.config.publicUrl,
    now: deps.now,
  };
}

export function streamAlerts(deps: Deps): StreamAlerts {
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
}
