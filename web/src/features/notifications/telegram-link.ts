// Where linking a Telegram chat stands on the page. Pure.
import type { TelegramLink } from './api/notifications-api';

/**
 * - `idle`: no link asked for (or the chat was linked before);
 * - `waiting`: a link is out and unexpired: the creator is in Telegram pressing Start;
 * - `linked`: the settings say linked while a link was out: it was used;
 * - `expired`: the link's time is over unused; a new one is needed.
 */
export type LinkingState = 'idle' | 'waiting' | 'linked' | 'expired';

export function linkingState(link: TelegramLink | undefined, linked: boolean, now: number): LinkingState {
  if (!link) return 'idle';
  if (linked) return 'linked';
  return now < Date.parse(link.expiresAt) ? 'waiting' : 'expired';
}

/** Whole minutes left on the link, at least 1 while it works ("works for 10 minutes"). */
export const minutesLeft = (link: TelegramLink, now: number): number => Math.max(1, Math.ceil((Date.parse(link.expiresAt) - now) / 60_000));
