// Where users reach support (spec section 1: e-mail, chat, Telegram), in one place. Placeholders until the operator
// sets the real ones at build time: VITE_SUPPORT_EMAIL, VITE_SUPPORT_CHAT_URL, VITE_SUPPORT_TELEGRAM_URL.
const env = import.meta.env as Record<string, string | undefined>;

export const support = {
  email: env.VITE_SUPPORT_EMAIL || 'support@loopcast.example.com',
  chatUrl: env.VITE_SUPPORT_CHAT_URL || 'https://chat.loopcast.example.com',
  telegramUrl: env.VITE_SUPPORT_TELEGRAM_URL || 'https://t.me/loopcast_support',
} as const;
