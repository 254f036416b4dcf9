// Destinations a stream goes to: an RTMP(S) server URL + stream key on any platform (the presets of
// lambdas/contract/destination-presets.ts, or a custom server), or a connected YouTube account.
import { isIP } from 'node:net';
import type { ChannelKind, ChannelView } from '../../contract/api/channels';
import type { DestinationPresetId } from '../../contract/destination-presets';
import { AppError } from '../errors';
import { canonicalHost } from './destination-address';
import { presetOfChannel } from './platform-fit';

export type { ChannelKind };

export interface Channel {
  id: string;
  userId: string;
  kind: ChannelKind;
  name: string;
  /** RTMP: the server URL (application included), e.g. rtmp://a.rtmp.youtube.com/live2. */
  rtmpUrl?: string;
  /** RTMP: the stream key, sealed (lambdas/core/secret-box.ts); never shown again after it is saved. */
  sealedKey?: string;
  /** RTMP: the key's last characters, so the user can tell keys apart. */
  keyHint?: string;
  /** The platform the creator picked; absent on destinations saved before platforms were picked (their server
   * URL's platform applies, presetOfChannel). */
  preset?: DestinationPresetId;
  /** YouTube: the connected account. Its reusable liveStream's ingestion address and key are `rtmpUrl` and
   * `sealedKey`, so a YouTube destination streams like any RTMP one; broadcasts are bound to it per run. */
  youtube?: YouTubeLink;
  createdAt: string;
}

export interface YouTubeLink {
  channelId: string;
  avatarUrl?: string;
  /** The OAuth refresh token, sealed; never logged, never sent to the browser. */
  sealedRefreshToken: string;
  liveStreamId: string;
  /** revoked: the user removed Loopcast's access in their Google account; they must connect again. */
  status: 'connected' | 'revoked';
}

export const CHANNEL_NAME_MAX = 80;

/** rtmp:// or rtmps:// with a host and an application path; no key, no query (the key is its own field). A numeric
 * host is written as the address it means (0x7f.1 is 127.0.0.1), so the policy checks what will be dialled. */
export function normalizeRtmpUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new AppError('invalid request', { fields: { url: 'not a URL' } });
  }
  if (!['rtmp:', 'rtmps:'].includes(parsed.protocol)) throw new AppError('invalid request', { fields: { url: 'must start with rtmp:// or rtmps://' } });
  if (!parsed.hostname || parsed.search || parsed.hash || parsed.username)
    throw new AppError('invalid request', { fields: { url: 'must be a server URL without credentials or query' } });
  const path = parsed.pathname.replace(/\/+$/, '');
  if (!path || path === '/') throw new AppError('invalid request', { fields: { url: 'must name the application, e.g. rtmp://host/live' } });
  const host = canonicalHost(parsed.hostname);
  return `${parsed.protocol}//${isIP(host) === 6 ? `[${host}]` : host}${parsed.port ? `:${parsed.port}` : ''}${path}`;
}

/** The publish URL ffmpeg needs: server URL + '/' + key. */
export const publishUrl = (rtmpUrl: string, key: string): string => `${rtmpUrl}/${key}`;

/** What the browser sees: the key only as a hint of its last characters. */
/** Stream keys are printable ASCII (every platform's are), without what would end the URL's path: anything else in
 * ffmpeg's arguments crash-looped the task and put the key in its error (security audit L4). */
export const isStreamKey = (key: string): boolean => /^[\x21-\x7e]+$/.test(key) && !/[/?#]/.test(key);

/** Keys shorter than this get no characters in their hint: the last four of a short key are most of it. */
export const KEY_HINT_MIN_LENGTH = 12;

/** The key's last four characters behind dots, so keys can be told apart; only dots for a short key. */
export const keyHintOf = (key: string): string => `••••${key.length >= KEY_HINT_MIN_LENGTH ? key.slice(-4) : ''}`;

export function channelView(channel: Channel): ChannelView {
  return {
    id: channel.id,
    kind: channel.kind,
    name: channel.name,
    preset: presetOfChannel(channel),
    ...(channel.rtmpUrl ? { rtmpUrl: channel.rtmpUrl } : {}),
    ...(channel.keyHint ? { keyHint: channel.keyHint } : {}),
    ...(channel.youtube
      ? {
          youtube: {
            channelId: channel.youtube.channelId,
            status: channel.youtube.status,
            ...(channel.youtube.avatarUrl ? { avatarUrl: channel.youtube.avatarUrl } : {}),
          },
        }
      : {}),
    createdAt: channel.createdAt,
  };
}
