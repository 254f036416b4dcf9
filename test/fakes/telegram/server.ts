// A fake of Telegram's Bot API (https://core.telegram.org/bots/api) for one bot, speaking its wire format: POST
// /bot<token>/<method> with JSON, answers `{ ok, result }` or `{ ok: false, error_code, description }`. It knows
// getMe, setWebhook and sendMessage; a chat can be messaged only after its user wrote to the bot, as in Telegram.
// `userSends` plays a user writing to the bot: the update is delivered to the webhook set with setWebhook, with
// its secret token, as Telegram delivers it.
import { listen, readBody, sendJson } from '../shared/http';

export interface SentMessage {
  chatId: string;
  text: string;
}

export interface FakeTelegram {
  /** The Bot API base a client uses instead of https://api.telegram.org. */
  apiBase: string;
  botToken: string;
  botUsername: string;
  messages: SentMessage[];
  webhook(): { url: string; secretToken?: string } | undefined;
  /** A user writes `text` to the bot from `chatId`; answers the webhook's HTTP status. */
  userSends(chatId: number, text: string, secretToken?: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startFakeTelegram(options: { botToken?: string; botUsername?: string } = {}): Promise<FakeTelegram> {
  const botToken = options.botToken ?? '123456:fake-bot-token';
  const botUsername = options.botUsername ?? 'LoopcastTestBot';
  const messages: SentMessage[] = [];
  const chats = new Set<string>();
  let hook: { url: string; secretToken?: string } | undefined;
  let updateId = 1000;
  let messageId = 1;

  const server = await listen(async (request, response) => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
    if (!match) return sendJson(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (match[1] !== botToken) return sendJson(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const body = JSON.parse((await readBody(request)).toString() || '{}') as Record<string, unknown>;
    switch (match[2]) {
      case 'getMe':
        return sendJson(response, 200, { ok: true, result: { id: 123456, is_bot: true, first_name: 'Loopcast', username: botUsername } });
      case 'setWebhook':
        hook = { url: String(body.url), ...(body.secret_token ? { secretToken: String(body.secret_token) } : {}) };
        return sendJson(response, 200, { ok: true, result: true, description: 'Webhook was set' });
      case 'sendMessage': {
        const chatId = String(body.chat_id ?? '');
        if (!chats.has(chatId)) return sendJson(response, 400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
        if (typeof body.text !== 'string' || !body.text)
          return sendJson(response, 400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
        messages.push({ chatId, text: body.text });
        return sendJson(response, 200, {
          ok: true,
          result: { message_id: messageId++, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: 'private' }, text: body.text },
        });
      }
      default:
        return sendJson(response, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    }
  });

  return {
    apiBase: server.url,
    botToken,
    botUsername,
    messages,
    webhook: () => hook,
    async userSends(chatId, text, secretToken) {
      if (!hook) throw new Error('no webhook set');
      chats.add(String(chatId));
      const update = {
        update_id: updateId++,
        message: {
          message_id: messageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: 'private' },
          from: { id: chatId, is_bot: false, first_name: 'Creator' },
          text,
        },
      };
      const response = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...((secretToken ?? hook.secretToken) ? { 'x-telegram-bot-api-secret-token': secretToken ?? hook.secretToken! } : {}),
        },
        body: JSON.stringify(update),
      });
      return response.status;
    },
    stop: () => server.stop(),
  };
}
