// The operator's Telegram bot through the Bot API (https://core.telegram.org/bots/api): sendMessage only. A plain
// HTTPS call; no library is needed for one method.
import type { TelegramBot } from '../../core/notifications/notifications';

export interface TelegramSettings {
  botToken: string;
  /** The bot's @username, without the @: deep links are https://t.me/<username>?start=<token>. */
  botUsername: string;
  /** What Telegram sends as X-Telegram-Bot-Api-Secret-Token on every webhook call (set with setWebhook). */
  webhookSecret: string;
  /** https://api.telegram.org unless a test points it at a fake. */
  apiBase?: string;
}

export class TelegramBotApi implements TelegramBot {
  readonly username: string;

  constructor(private readonly settings: TelegramSettings) {
    this.username = settings.botUsername;
  }

  async sendMessage(chatId: string, text: string): Promise<void> {
    const response = await fetch(`${this.settings.apiBase ?? 'https://api.telegram.org'}/bot${this.settings.botToken}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chatId, text, link_preview_options: { is_disabled: true } }),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json().catch(() => ({}))) as { ok?: boolean; description?: string };
    // The error names the method and Telegram's description, never the URL (it holds the bot token).
    if (!answer.ok) throw new Error(`Telegram sendMessage failed: ${response.status} ${answer.description ?? ''}`.trim());
  }
}
