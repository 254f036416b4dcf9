// How a creator is told: by e-mail (on unless they turn it off) and by Telegram once they linked a chat with the
// operator's bot (a one-time deep link: https://t.me/<bot>?start=<token>; Telegram sends "/start <token>" to our
// webhook when they press Start). Which alerts there are and their words: messages.ts.
import { hashToken, newToken } from '../accounts/tokens';
import type { AccountsStore, Mailer } from '../accounts/ports';
import type { NotificationsView } from '../../contract/api/notifications';
import { AppError } from '../errors';
import { alertText, telegramLinkedText, type Alert } from './messages';

export interface NotificationSettings {
  email: boolean;
  telegram?: { chatId: string; linkedAt: string };
}

export interface NotificationSettingsStore {
  get(userId: string): Promise<NotificationSettings>;
  setEmail(userId: string, email: boolean): Promise<void>;
  linkTelegram(userId: string, chatId: string, now: Date): Promise<void>;
  unlinkTelegram(userId: string): Promise<void>;
  /** A deep link's token, waiting for Telegram's "/start" (single use). */
  createLink(tokenHash: string, userId: string, expiresAt: Date): Promise<void>;
  /** The user a token was made for, if it is known and not expired; removed either way. */
  consumeLink(tokenHash: string, now: Date): Promise<string | undefined>;
}

/** The operator's Telegram bot; undefined when none is configured. */
export interface TelegramBot {
  username: string;
  sendMessage(chatId: string, text: string): Promise<void>;
}

export interface NotificationsContext {
  settings: NotificationSettingsStore;
  users: Pick<AccountsStore, 'userById'>;
  mailer: Mailer;
  telegram: () => Promise<TelegramBot | undefined>;
  publicUrl: string;
  now: () => Date;
}

/** A deep link works this long: the creator opens Telegram and presses Start. */
export const TELEGRAM_LINK_TTL_SECONDS = 600;

/** Tells the user, by every way they chose. A failing channel does not keep the other from being used; the caller
 * learns what was sent. */
export async function notify(
  context: NotificationsContext,
  userId: string,
  alert: Alert,
  log: (message: string, error: unknown) => void = () => undefined,
): Promise<{ email: boolean; telegram: boolean }> {
  const user = await context.users.userById(userId);
  if (!user) return { email: false, telegram: false };
  const settings = await context.settings.get(userId);
  const message = alertText(alert, user, context.publicUrl);
  const sent = { email: false, telegram: false };
  if (settings.email) {
    try {
      await context.mailer.send({ to: user.email, subject: message.subject, text: message.text, link: message.link });
      sent.email = true;
    } catch (error) {
      log('alert e-mail not sent', error);
    }
  }
  const bot = settings.telegram ? await context.telegram() : undefined;
  if (bot && settings.telegram) {
    try {
      await bot.sendMessage(settings.telegram.chatId, `${message.subject}\n\n${message.text}`);
      sent.telegram = true;
    } catch (error) {
      log('alert Telegram message not sent', error);
    }
  }
  return sent;
}

export async function notificationsView(context: NotificationsContext, userId: string): Promise<NotificationsView> {
  const [settings, bot] = await Promise.all([context.settings.get(userId), context.telegram()]);
  return {
    email: settings.email,
    telegram: { available: bot !== undefined, linked: settings.telegram !== undefined, ...(settings.telegram ? { linkedAt: settings.telegram.linkedAt } : {}) },
  };
}

/** The deep link the creator opens to link a Telegram chat. */
export async function startTelegramLink(context: NotificationsContext, userId: string): Promise<{ link: string; expiresAt: string }> {
  const bot = await context.telegram();
  if (!bot) throw new AppError('telegram not configured');
  const token = newToken();
  const expiresAt = new Date(context.now().getTime() + TELEGRAM_LINK_TTL_SECONDS * 1000);
  await context.settings.createLink(hashToken(token), userId, expiresAt);
  return { link: `https://t.me/${bot.username}?start=${token}`, expiresAt: expiresAt.toISOString() };
}

/** What Telegram sends our webhook (the part we read). */
export interface TelegramUpdate {
  message?: { chat?: { id?: number | string }; text?: string };
}

/** A message to the bot: "/start <token>" from a deep link links the chat; anything else gets a short answer. */
export async function handleTelegramUpdate(context: NotificationsContext, update: TelegramUpdate): Promise<'linked' | 'refused' | 'ignored'> {
  const chatId = update.message?.chat?.id;
  const text = update.message?.text?.trim() ?? '';
  const bot = await context.telegram();
  if (chatId === undefined || !bot) return 'ignored';
  const token = /^\/start\s+([A-Za-z0-9_-]{20,64})$/.exec(text)?.[1];
  const userId = token ? await context.settings.consumeLink(hashToken(token), context.now()) : undefined;
  const user = userId ? await context.users.userById(userId) : undefined;
  if (!user) {
    // The chat's language is not known before it is linked.
    await bot.sendMessage(String(chatId), 'This is the Loopcast bot. To be told here when a stream needs you, open Loopcast → Notifications → Link Telegram.');
    return token ? 'refused' : 'ignored';
  }
  await context.settings.linkTelegram(user.id, String(chatId), context.now());
  await bot.sendMessage(String(chatId), telegramLinkedText(user));
  return 'linked';
}
