// Connecting a YouTube account: Google's consent screen (offline access, PKCE, `state` bound to the signed-in
// user), then the code exchange, the granted-scope check, the channel, and one reusable liveStream whose
// ingestion address and key become the destination's RTMP URL and key.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { keyHintOf, type Channel } from '../channels/channel';
import { AppError, type ErrorKey } from '../errors';
import { urlPrefix, type LanguageCode } from '../languages';
import type { SecretBox } from '../secret-box';
import type { ChannelStore } from '../streams/ports';
import { youtubeSealContext } from './broadcasts';
import { SUFFICIENT_SCOPES, YouTubeError, type GoogleOAuth } from './ports';

/** A consent in progress: single use, ten minutes. */
export interface OAuthState {
  stateHash: string;
  userId: string;
  sealedCodeVerifier: string;
  language: LanguageCode;
  expiresAt: number;
}

export interface OAuthStateStore {
  put(state: OAuthState): Promise<void>;
  /** Removes and returns it in one step: a callback works once. */
  take(stateHash: string): Promise<OAuthState | undefined>;
}

export interface ConnectContext {
  /** Google, or undefined when it is not configured on this server. */
  oauth: () => Promise<GoogleOAuth | undefined>;
  channels: ChannelStore;
  states: OAuthStateStore;
  secrets: SecretBox;
  /** The plan's limit of connected YouTube accounts. */
  channelLimit: (userId: string) => Promise<number>;
  now: () => Date;
  /** Where Google sends the browser back: https://<site>/api/channels/youtube/callback */
  callbackUrl: string;
}

const STATE_TTL_SECONDS = 600;
const hash = (value: string) => createHash('sha256').update(value).digest('hex');
const stateContext = (userId: string) => ({ userId, purpose: 'oauth-code-verifier' });

async function oauthOf(context: ConnectContext): Promise<GoogleOAuth> {
  const oauth = await context.oauth();
  if (!oauth) throw new AppError('youtube not configured');
  return oauth;
}

/**
 * Before the consent screen the account is unknown, and a user whose access was removed may be about to reconnect
 * it: only the accounts still connected count. After consent every other account counts, revoked ones included,
 * unless this is one of them coming back.
 */
async function assertRoomForAnother(
  context: ConnectContext,
  userId: string,
  account: { known: false } | { known: true; reconnectingChannelId?: string },
): Promise<void> {
  const counted = (await context.channels.list(userId)).filter(
    (c) => c.kind === 'youtube' && (account.known ? c.youtube?.channelId !== account.reconnectingChannelId : c.youtube?.status !== 'revoked'),
  );
  if (counted.length >= (await context.channelLimit(userId))) throw new AppError('channel limit');
}

/** The consent URL to send the browser to. */
export async function startConnect(context: ConnectContext, userId: string, language: LanguageCode): Promise<{ url: string }> {
  const oauth = await oauthOf(context);
  await assertRoomForAnother(context, userId, { known: false });
  const state = randomBytes(32).toString('base64url');
  const { codeVerifier, codeChallenge } = await oauth.newCodeVerifier();
  await context.states.put({
    stateHash: hash(state),
    userId,
    sealedCodeVerifier: await context.secrets.seal(codeVerifier, stateContext(userId)),
    language,
    expiresAt: Math.floor(context.now().getTime() / 1000) + STATE_TTL_SECONDS,
  });
  return { url: oauth.consentUrl({ state, codeChallenge, redirectUri: context.callbackUrl }) };
}

export interface Callback {
  code?: string;
  state?: string;
  /** Google's `error` (access_denied when the user cancels). */
  error?: string;
}

/** Where the browser goes after Google: the Channels page, with the new channel or the catalogued error. */
export async function finishConnect(
  context: ConnectContext,
  sessionUserId: string | undefined,
  callback: Callback,
): Promise<{ location: string; channel?: Channel; error?: ErrorKey }> {
  const record = callback.state ? await context.states.take(hash(callback.state)) : undefined;
  const page = `${urlPrefix(record?.language ?? 'en')}/app/channels`;
  const fail = (error: ErrorKey) => ({ location: `${page}?error=${encodeURIComponent(error)}`, error });
  if (!record || record.expiresAt <= Math.floor(context.now().getTime() / 1000)) return fail('invalid token');
  // The callback must come back to the browser that asked: another signed-in user (or none) cannot finish it.
  if (record.userId !== sessionUserId) return fail('not owner');
  if (callback.error || !callback.code) return fail('youtube scope missing');
  try {
    const oauth = await oauthOf(context);
    const grant = await oauth.exchange(callback.code, await context.secrets.open(record.sealedCodeVerifier, stateContext(record.userId)), context.callbackUrl);
    if (!grant.scopes.some((scope) => SUFFICIENT_SCOPES.includes(scope))) return fail('youtube scope missing');
    const account = oauth.account(grant.refreshToken);
    const info = await account.channel();
    const existing = (await context.channels.list(record.userId)).find((c) => c.youtube?.channelId === info.id);
    await assertRoomForAnother(context, record.userId, { known: true, ...(existing ? { reconnectingChannelId: info.id } : {}) });
    const liveStream = (existing && (await account.liveStream(existing.youtube!.liveStreamId))) || (await account.createLiveStream('Loopcast'));
    const id = existing?.id ?? randomUUID();
    const channel: Channel = {
      id,
      userId: record.userId,
      kind: 'youtube',
      name: info.title,
      rtmpUrl: liveStream.ingestionAddress,
      sealedKey: await context.secrets.seal(liveStream.streamName, { userId: record.userId, channelId: id }),
      keyHint: keyHintOf(liveStream.streamName),
      youtube: {
        channelId: info.id,
        ...(info.avatarUrl ? { avatarUrl: info.avatarUrl } : {}),
        sealedRefreshToken: await context.secrets.seal(grant.refreshToken, youtubeSealContext({ userId: record.userId, id })),
        liveStreamId: liveStream.id,
        status: 'connected',
      },
      createdAt: existing?.createdAt ?? context.now().toISOString(),
    };
    if (existing) await context.channels.update(channel);
    else await context.channels.create(channel);
    return { location: `${page}?connected=${encodeURIComponent(id)}`, channel };
  } catch (error) {
    if (error instanceof AppError) return fail(error.key);
    if (error instanceof YouTubeError && error.failure === 'live streaming not enabled') return fail('livestreaming not enabled');
    if (error instanceof YouTubeError && error.failure === 'revoked') return fail('Google refresh token error');
    return fail('starting stream failed');
  }
}
