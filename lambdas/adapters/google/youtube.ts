// Google OAuth and the YouTube Data API v3 with the real clients (googleapis, google-auth-library). Every call's
// quota cost is counted (10,000 units a day per Google project) and YouTube's error reasons are reduced to the few
// Loopcast acts on. Tests point both clients at a fake Google that speaks the same wire format.
import { Readable } from 'node:stream';
// The YouTube module alone, not the googleapis index (which loads every Google API: tens of MB in each bundle).
import { youtube, type youtube_v3 } from 'googleapis/build/src/apis/youtube/index.js';
import { CodeChallengeMethod, OAuth2Client, type OAuth2ClientOptions } from 'google-auth-library';
import {
  YOUTUBE_SCOPE,
  YouTubeError,
  type BroadcastDetails,
  type BroadcastState,
  type ConsentRequest,
  type GoogleOAuth,
  type Grant,
  type LiveStreamInfo,
  type YouTubeAccount,
  type YouTubeChannelInfo,
  type YouTubeFailure,
} from '../../core/youtube/ports';

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  /** Another OAuth host and YouTube API root (tests: a fake Google); Google's own when absent. */
  endpoints?: OAuth2ClientOptions['endpoints'];
  youtubeRootUrl?: string;
}

/** Records the quota units each call costs. */
export type QuotaMeter = (units: number) => Promise<void>;

/** Published costs of the methods Loopcast calls (YouTube Data API quota calculator). */
const COST = { list: 1, write: 50 } as const;

interface GoogleErrorShape {
  response?: { status?: number; data?: { error?: string | { errors?: { reason?: string }[] } } };
}

/** invalid_grant (refresh refused), or YouTube's `reason`, to what Loopcast acts on. */
function failureOf(error: unknown): YouTubeFailure {
  const data = (error as GoogleErrorShape).response?.data;
  if (data?.error === 'invalid_grant') return 'revoked';
  const reason = typeof data?.error === 'object' ? data.error.errors?.[0]?.reason : undefined;
  switch (reason) {
    case 'liveStreamingNotEnabled':
      return 'live streaming not enabled';
    case 'quotaExceeded':
    case 'rateLimitExceeded':
      return 'quota exceeded';
    case 'liveBroadcastNotFound':
    case 'liveStreamNotFound':
    case 'videoNotFound':
      return 'not found';
    case 'invalidImage':
    case 'badContent':
    case 'mediaBodyTooLarge':
      return 'invalid image';
    default:
      return (error as GoogleErrorShape).response?.status === 401 ? 'revoked' : 'other';
  }
}

class GoogleYouTubeAccount implements YouTubeAccount {
  private readonly youtube: youtube_v3.Youtube;

  constructor(
    auth: OAuth2Client,
    private readonly settings: GoogleSettings,
    private readonly meter: QuotaMeter,
  ) {
    this.youtube = youtube({ version: 'v3', auth, ...(settings.youtubeRootUrl ? { rootUrl: settings.youtubeRootUrl } : {}) });
  }

  /** Runs a call and counts its cost as YouTube does: every request that got past authentication, failed ones
   * too; nothing when the token could not be refreshed or was refused. */
  private async call<T>(units: number, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      await this.meter(units);
      return result;
    } catch (error) {
      const failure = failureOf(error);
      const status = (error as GoogleErrorShape).response?.status;
      if (failure !== 'revoked' && status !== undefined && status !== 401) await this.meter(units);
      throw new YouTubeError(failure, (error as Error).message);
    }
  }

  async channel(): Promise<YouTubeChannelInfo> {
    const { data } = await this.call(COST.list, () => this.youtube.channels.list({ part: ['snippet'], mine: true }));
    const channel = data.items?.[0];
    if (!channel?.id) throw new YouTubeError('not found', 'this Google account has no YouTube channel');
    const avatarUrl = channel.snippet?.thumbnails?.default?.url ?? undefined;
    return { id: channel.id, title: channel.snippet?.title ?? 'YouTube', ...(avatarUrl ? { avatarUrl } : {}) };
  }

  private static liveStreamInfo(stream: youtube_v3.Schema$LiveStream | undefined): LiveStreamInfo | undefined {
    const ingestion = stream?.cdn?.ingestionInfo;
    if (!stream?.id || !ingestion?.ingestionAddress || !ingestion.streamName) return undefined;
    return { id: stream.id, ingestionAddress: ingestion.ingestionAddress, streamName: ingestion.streamName };
  }

  async createLiveStream(title: string): Promise<LiveStreamInfo> {
    const { data } = await this.call(COST.write, () =>
      this.youtube.liveStreams.insert({
        part: ['snippet', 'cdn', 'contentDetails', 'status'],
        requestBody: {
          snippet: { title },
          // Reusable: one stream key per channel, bound to a fresh broadcast per run. Its streams may be of any
          // output profile (720p30 to 2160p60), so YouTube detects the resolution and rate of what arrives.
          cdn: { ingestionType: 'rtmp', resolution: 'variable', frameRate: 'variable' },
          contentDetails: { isReusable: true },
        },
      }),
    );
    const info = GoogleYouTubeAccount.liveStreamInfo(data);
    if (!info) throw new YouTubeError('other', 'YouTube made a live stream without ingestion details');
    return info;
  }

  async liveStream(id: string): Promise<LiveStreamInfo | undefined> {
    const { data } = await this.call(COST.list, () => this.youtube.liveStreams.list({ part: ['cdn'], id: [id] }));
    return GoogleYouTubeAccount.liveStreamInfo(data.items?.[0]);
  }

  async createBroadcast(details: BroadcastDetails): Promise<string> {
    const { data } = await this.call(COST.write, () =>
      this.youtube.liveBroadcasts.insert({
        part: ['snippet', 'status', 'contentDetails'],
        requestBody: {
          snippet: { title: details.title, description: details.description, scheduledStartTime: details.scheduledStart.toISOString() },
          status: { privacyStatus: details.privacy, selfDeclaredMadeForKids: false },
          // Auto start when media arrives; never auto stop: a loop restarting for a few seconds must not end it.
          contentDetails: { enableAutoStart: true, enableAutoStop: false },
        },
      }),
    );
    if (!data.id) throw new YouTubeError('other', 'YouTube made a broadcast without an id');
    return data.id;
  }

  async bind(broadcastId: string, liveStreamId: string): Promise<void> {
    await this.call(COST.write, () => this.youtube.liveBroadcasts.bind({ id: broadcastId, part: ['id', 'contentDetails'], streamId: liveStreamId }));
  }

  async broadcastState(broadcastId: string): Promise<BroadcastState> {
    const { data } = await this.call(COST.list, () => this.youtube.liveBroadcasts.list({ part: ['status'], id: [broadcastId] }));
    const status = data.items?.[0]?.status?.lifeCycleStatus;
    switch (status) {
      case undefined:
      case null:
        return 'missing';
      case 'created':
      case 'ready':
      case 'complete':
      case 'revoked':
      case 'live':
        return status;
      case 'testing':
      case 'testStarting':
        return 'testing';
      case 'liveStarting':
        return 'live';
      default:
        return 'created';
    }
  }

  async complete(broadcastId: string): Promise<void> {
    await this.call(COST.write, () => this.youtube.liveBroadcasts.transition({ id: broadcastId, broadcastStatus: 'complete', part: ['status'] }));
  }

  async setThumbnail(broadcastId: string, image: { bytes: Uint8Array; contentType: string }): Promise<void> {
    // googleapis does not apply the service-wide rootUrl to media uploads: give it per call too.
    await this.call(COST.write, () =>
      this.youtube.thumbnails.set(
        { videoId: broadcastId, media: { mimeType: image.contentType, body: Readable.from(Buffer.from(image.bytes)) } },
        this.settings.youtubeRootUrl ? { rootUrl: this.settings.youtubeRootUrl } : {},
      ),
    );
  }
}

export class GoogleYouTube implements GoogleOAuth {
  constructor(
    private readonly settings: GoogleSettings,
    private readonly meter: QuotaMeter,
  ) {}

  private client(redirectUri?: string): OAuth2Client {
    return new OAuth2Client({
      clientId: this.settings.clientId,
      clientSecret: this.settings.clientSecret,
      ...(redirectUri ? { redirectUri } : {}),
      ...(this.settings.endpoints ? { endpoints: this.settings.endpoints } : {}),
    });
  }

  consentUrl(request: ConsentRequest): string {
    return this.client(request.redirectUri).generateAuthUrl({
      access_type: 'offline',
      // Always ask: Google returns a refresh token only on a consent it just showed.
      prompt: 'consent',
      scope: [YOUTUBE_SCOPE],
      state: request.state,
      code_challenge_method: CodeChallengeMethod.S256,
      code_challenge: request.codeChallenge,
    });
  }

  async newCodeVerifier(): Promise<{ codeVerifier: string; codeChallenge: string }> {
    const { codeVerifier, codeChallenge } = await this.client().generateCodeVerifierAsync();
    return { codeVerifier, codeChallenge: codeChallenge! };
  }

  async exchange(code: string, codeVerifier: string, redirectUri: string): Promise<Grant> {
    try {
      const { tokens } = await this.client(redirectUri).getToken({ code, codeVerifier, redirect_uri: redirectUri });
      if (!tokens.refresh_token) throw new YouTubeError('other', 'Google returned no refresh token');
      return { refreshToken: tokens.refresh_token, scopes: (tokens.scope ?? '').split(/\s+/).filter(Boolean) };
    } catch (error) {
      if (error instanceof YouTubeError) throw error;
      throw new YouTubeError(failureOf(error), (error as Error).message);
    }
  }

  account(refreshToken: string): YouTubeAccount {
    const auth = this.client();
    auth.setCredentials({ refresh_token: refreshToken });
    return new GoogleYouTubeAccount(auth, this.settings, this.meter);
  }
}
