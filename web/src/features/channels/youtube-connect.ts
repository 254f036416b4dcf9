// The YouTube part of the Channels page: what Google's round trip brought back, the plan's room for another
// account, and a channel's page on YouTube. Pure.
import { isErrorKey, type ErrorKey } from '@loopcast/core/errors';
import type { ChannelView } from './api/channels-api';

/** The callback opens the page with `?connected=<channel id>` or `?error=<catalogue key>`. */
export type ConnectReturn = { connected: string } | { error: ErrorKey };

const returnParams = ['connected', 'error'] as const;

/** What the callback said, if this visit is its redirect; a key the catalogue does not know reads 'internal error'. */
export function connectReturnOf(params: URLSearchParams): ConnectReturn | undefined {
  const connected = params.get('connected');
  if (connected) return { connected };
  const error = params.get('error');
  if (error === null) return undefined;
  return { error: isErrorKey(error) ? error : 'internal error' };
}

/** The address's query without the callback's answer, so a reload or a shared link does not repeat it. */
export function withoutConnectReturn(params: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(params);
  for (const name of returnParams) rest.delete(name);
  return rest;
}

export interface YouTubeRoom {
  /** Connected accounts, revoked ones included (they hold their place until disconnected). */
  connected: number;
  /** undefined while the plan loads. */
  limit: number | undefined;
  full: boolean;
}

export function youtubeRoom(channels: readonly Pick<ChannelView, 'kind'>[], limit: number | undefined): YouTubeRoom {
  const connected = channels.filter((channel) => channel.kind === 'youtube').length;
  return { connected, limit, full: limit !== undefined && connected >= limit };
}

/** The channel's page on YouTube. */
export const youtubeChannelUrl = (channelId: string): string => `https://www.youtube.com/channel/${encodeURIComponent(channelId)}`;
