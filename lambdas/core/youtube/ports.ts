// What the YouTube integration needs from Google: OAuth (consent, code exchange, refresh) and the YouTube Data API
// v3 calls it makes, as small interfaces (lambdas/adapters/google implements them with googleapis).

/** The scope asked for: manage the user's YouTube account (live broadcasts and streams, thumbnails). */
export const YOUTUBE_SCOPE = 'https://www.googleapis.com/auth/youtube';
/** Scopes that also allow what Loopcast does, if Google grants one of them instead. */
export const SUFFICIENT_SCOPES = [YOUTUBE_SCOPE, 'https://www.googleapis.com/auth/youtube.force-ssl'];

/** Why a YouTube call failed, as YouTube says it (the `reason` of its error), reduced to what Loopcast acts on. */
export type YouTubeFailure =
  | 'revoked' // invalid_grant on refresh: the user removed the app's access
  | 'live streaming not enabled'
  | 'quota exceeded'
  | 'not found' // the broadcast or stream no longer exists
  | 'invalid image'
  | 'other';

export class YouTubeError extends Error {
  constructor(
    readonly failure: YouTubeFailure,
    message: string,
  ) {
    super(message);
    this.name = 'YouTubeError';
  }
}

export interface ConsentRequest {
  state: string;
  codeChallenge: string;
  redirectUri: string;
}

export interface Grant {
  refreshToken: string;
  scopes: string[];
}

export interface YouTubeChannelInfo {
  id: string;
  title: string;
  avatarUrl?: string;
}

export interface LiveStreamInfo {
  id: string;
  /** rtmp://a.rtmp.youtube.com/live2 */
  ingestionAddress: string;
  /** The stream key. */
  streamName: string;
}

export type BroadcastState = 'created' | 'ready' | 'testing' | 'live' | 'complete' | 'revoked' | 'missing';

export interface BroadcastDetails {
  title: string;
  description: string;
  privacy: 'public' | 'unlisted' | 'private';
  scheduledStart: Date;
}

/** One signed-in YouTube account (a refresh token): every call may throw YouTubeError. */
export interface YouTubeAccount {
  channel(): Promise<YouTubeChannelInfo>;
  createLiveStream(title: string): Promise<LiveStreamInfo>;
  liveStream(id: string): Promise<LiveStreamInfo | undefined>;
  createBroadcast(details: BroadcastDetails): Promise<string>;
  bind(broadcastId: string, liveStreamId: string): Promise<void>;
  broadcastState(broadcastId: string): Promise<BroadcastState>;
  complete(broadcastId: string): Promise<void>;
  setThumbnail(broadcastId: string, image: { bytes: Uint8Array; contentType: string }): Promise<void>;
}

export interface GoogleOAuth {
  consentUrl(request: ConsentRequest): string;
  /** PKCE code challenge (S256) and its verifier. */
  newCodeVerifier(): Promise<{ codeVerifier: string; codeChallenge: string }>;
  exchange(code: string, codeVerifier: string, redirectUri: string): Promise<Grant>;
  account(refreshToken: string): YouTubeAccount;
}
