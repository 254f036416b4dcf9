// Where users reach support (spec section 1: e-mail, chat, Telegram), from the build's configuration: the Vite
// env VITE_SUPPORT_EMAIL, VITE_SUPPORT_CHAT_URL and VITE_SUPPORT_TELEGRAM_URL, which `cdk deploy -c supportEmail=...`
// also sets (docs/deploy.md). A channel that is not set is shown nowhere: no link, no legal sentence naming it. A
// value that is not a usable address, or a documentation placeholder (example.com and the other reserved names),
// fails the build, since the public pages are rendered with it.

export interface SupportChannels {
  email?: string;
  chatUrl?: string;
  telegramUrl?: string;
}

/** RFC 2606 / 6761 names that never reach anyone. */
const placeholderHost = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;

function checked(name: string, value: string | undefined, usable: (value: string) => string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const host = usable(trimmed);
  if (host === undefined) throw new Error(`${name}=${trimmed} is not a usable support address`);
  if (placeholderHost.test(host)) throw new Error(`${name}=${trimmed} is a placeholder: set the real address or leave it unset`);
  return trimmed;
}

const emailHost = (value: string) => /^[^\s@]+@([^\s@]+\.[^\s@]+)$/.exec(value)?.[1];
const httpsHost = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
};

export function supportChannelsFrom(env: Record<string, string | undefined>): SupportChannels {
  return {
    email: checked('VITE_SUPPORT_EMAIL', env.VITE_SUPPORT_EMAIL, emailHost),
    chatUrl: checked('VITE_SUPPORT_CHAT_URL', env.VITE_SUPPORT_CHAT_URL, httpsHost),
    telegramUrl: checked('VITE_SUPPORT_TELEGRAM_URL', env.VITE_SUPPORT_TELEGRAM_URL, httpsHost),
  };
}

/** This build's channels (jest has no import.meta.env: none). */
export const support: SupportChannels = supportChannelsFrom((import.meta.env as Record<string, string | undefined> | undefined) ?? {});

/** Where "contact us" points: the e-mail, else the chat, else Telegram; nothing when no channel is configured. */
export const supportContactHref = (channels: SupportChannels = support): string | undefined =>
  channels.email ? `mailto:${channels.email}` : (channels.chatUrl ?? channels.telegramUrl);

export const hasSupportChannel = (channels: SupportChannels = support): boolean => supportContactHref(channels) !== undefined;
