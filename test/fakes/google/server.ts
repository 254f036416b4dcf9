// A fake Google for tests: OAuth 2.0 (consent, tokens, revocation) and the YouTube Data API v3 on one local port.
// The real google-auth-library and googleapis clients are pointed at it:
//   new OAuth2Client({ clientId, clientSecret, redirectUri, endpoints: fake.endpoints })
//   google.youtube({ version: 'v3', auth, rootUrl: fake.youtubeRootUrl })
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Accounts, type Account, type NewAccount } from './accounts';
import { YouTubeApiError, youtubeErrors } from './errors';
import { OAuthServer, YOUTUBE_SCOPES, type ConsentDecision, type ConsentRecord, type Reply } from './oauth';
import { QUOTA_COSTS, Quota, type YouTubeMethod } from './quota';
import { YouTube, type StreamStatus } from './youtube';
import { listen, readBody, redirect, sendJson, sendText } from '../shared/http';
import { randomString } from '../shared/random';

export interface FakeGoogleOptions {
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs; when given, any other one is refused like an unregistered one. */
  redirectUris?: string[];
  /** Wall clock in milliseconds (default Date.now): token expiry, quota days, timestamps. */
  now?: () => number;
  /** Units per Pacific-time day (default 10,000, Google's default allocation). */
  dailyQuota?: number;
  /** RTMP ingestion addresses handed out in liveStreams (default YouTube's); point them at a local nginx-rtmp. */
  ingestionAddress?: string;
  backupIngestionAddress?: string;
  /** How long `testStarting`/`liveStarting` last before `testing`/`live` (default 0: the next read). */
  transitionDelayMs?: number;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string[]>;
  status: number;
  /** The YouTube method (liveBroadcasts.insert, ...) or the OAuth endpoint (token, revoke, ...). */
  api: YouTubeMethod | 'auth' | 'token' | 'revoke' | 'tokeninfo' | 'certs' | 'unknown';
  /** The Google account behind the access token, for YouTube calls that presented a valid one. */
  sub?: string;
  reason?: string;
  quotaCost: number;
}

export interface FakeGoogle {
  url: string;
  clientId: string;
  clientSecret: string;
  /** For `new OAuth2Client({ endpoints })` (google-auth-library's option names). */
  endpoints: {
    oauth2AuthBaseUrl: string;
    oauth2TokenUrl: string;
    oauth2RevokeUrl: string;
    tokenInfoUrl: string;
    oauth2FederatedSignonPemCertsUrl: string;
    oauth2FederatedSignonJwkCertsUrl: string;
  };
  /** For `google.youtube({ version: 'v3', rootUrl })`. */
  youtubeRootUrl: string;
  /** The account that signs in unless a decision or `login_hint` says otherwise. */
  defaultAccount: Account;
  addAccount(account?: NewAccount): Account;
  account(key: string): Account;
  /** How the next consent screen is answered (deny, untick scopes, another account). Queued in order. */
  nextConsent(decision: ConsentDecision): void;
  consents: ConsentRecord[];
  /** Every authorization code, access token and refresh token issued so far. */
  issued(): { codes: string[]; accessTokens: string[]; refreshTokens: string[] };
  calls: RecordedCall[];
  quota: { dailyLimit: number; used(day?: string): number; byDay(): Record<string, number>; spend(units: number): void };
  setLiveStreamingEnabled(accountKey: string, enabled: boolean): void;
  /** The user removes the app's access in their Google account: refresh fails with invalid_grant. */
  revokeGrant(accountKey: string): void;
  expireAccessTokens(accountKey?: string): void;
  /** Media starts or stops reaching a stream's ingestion point. */
  setStreamStatus(streamId: string, status: StreamStatus): void;
  /** YouTube ends a broadcast on its own. */
  endBroadcast(broadcastId: string): void;
  broadcast(broadcastId: string): ReturnType<YouTube['broadcast']>;
  thumbnail(videoId: string): { contentType: string; bytes: Buffer } | undefined;
  stop(): Promise<void>;
}

/** Scopes that authorize each YouTube method, from the method reference pages. */
const READ = [YOUTUBE_SCOPES.readonly, YOUTUBE_SCOPES.youtube, YOUTUBE_SCOPES.forceSsl, 'https://www.googleapis.com/auth/youtubepartner'];
const WRITE = [YOUTUBE_SCOPES.youtube, YOUTUBE_SCOPES.forceSsl, 'https://www.googleapis.com/auth/youtubepartner'];
const UPLOAD = [...WRITE, YOUTUBE_SCOPES.upload];

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const now = options.now ?? Date.now;
  const clientId =
    options.clientId ?? `${randomString(12, '0123456789')}-${randomString(32, 'abcdefghijklmnopqrstuvwxyz0123456789')}.apps.googleusercontent.com`;
  const clientSecret = options.clientSecret ?? `GOCSPX-${randomString(28)}`;
  const accounts = new Accounts(now);
  const defaultAccount = accounts.add({ email: 'creator@example.com', name: 'Creator', channelTitle: 'Creator Loops' });
  const oauth = new OAuthServer({ id: clientId, secret: clientSecret, redirectUris: options.redirectUris }, accounts, now);
  const youtube = new YouTube(
    accounts,
    now,
    {
      rtmp: options.ingestionAddress ?? 'rtmp://a.rtmp.youtube.com/live2',
      rtmpBackup: options.backupIngestionAddress ?? 'rtmp://b.rtmp.youtube.com/live2?backup=1',
    },
    options.transitionDelayMs ?? 0,
  );
  const quota = new Quota(options.dailyQuota ?? 10_000, now);
  const calls: RecordedCall[] = [];

  const server = await listen(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const body = await readBody(request);
    const call: RecordedCall = { method, path: url.pathname, query: queryRecord(url.searchParams), status: 0, api: 'unknown', quotaCost: 0 };
    calls.push(call);
    const youtubeMethod = YouTube.method(method, url.pathname);
    if (youtubeMethod) return serveYouTube(youtubeMethod, request, response, url, body, call);
    const reply = serveOAuth(method, url, body, request, call);
    call.status = reply.kind === 'redirect' ? 302 : reply.status;
    if (reply.kind === 'json') return sendJson(response, reply.status, reply.body, { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate' });
    if (reply.kind === 'redirect') return redirect(response, 302, reply.location);
    sendText(response, reply.status, reply.text, reply.status === 404 ? 'text/plain' : 'text/html');
  });

  function serveOAuth(method: string, url: URL, body: Buffer, request: IncomingMessage, call: RecordedCall): Reply {
    const form = new URLSearchParams(body.toString('utf8'));
    const route = `${method} ${url.pathname}`;
    if (route === 'GET /o/oauth2/v2/auth') {
      call.api = 'auth';
      return oauth.authorize(url.searchParams);
    }
    if (route === 'POST /token') {
      call.api = 'token';
      return oauth.token(form, request.headers.authorization ?? null);
    }
    if (route === 'POST /revoke') {
      call.api = 'revoke';
      return oauth.revoke(url.searchParams.get('token') ?? form.get('token'));
    }
    if (url.pathname === '/tokeninfo') {
      call.api = 'tokeninfo';
      const bearer = /^bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
      return oauth.tokenInfo(url.searchParams.get('access_token') ?? form.get('access_token') ?? bearer);
    }
    if (url.pathname === '/oauth2/v1/certs' || url.pathname === '/oauth2/v3/certs') {
      call.api = 'certs';
      return oauth.certificates(url.pathname.includes('v1') ? 'pem' : 'jwk');
    }
    return { kind: 'page', status: 404, text: `Not Found: ${method} ${url.pathname}` };
  }

  function serveYouTube(method: YouTubeMethod, request: IncomingMessage, response: ServerResponse, url: URL, body: Buffer, call: RecordedCall): void {
    call.api = method;
    try {
      const authorization = request.headers.authorization ?? '';
      if (!authorization.toLowerCase().startsWith('bearer ')) throw youtubeErrors.loginRequired();
      const grant = oauth.accessGrant(authorization.slice(7).trim());
      if (!grant) throw youtubeErrors.invalidCredentials();
      call.sub = grant.account.sub;
      const accepted = method === 'thumbnails.set' ? UPLOAD : method.endsWith('.list') ? READ : WRITE;
      if (!accepted.some((scope) => grant.scopes.has(scope))) throw youtubeErrors.insufficientScopes();
      const cost = QUOTA_COSTS[method];
      if (!quota.allows(cost)) throw youtubeErrors.quotaExceeded();
      // Every request the API accepted for processing is charged, failed ones included.
      quota.spend(cost);
      call.quotaCost = cost;
      const reply = youtube.handle(method, { query: url.searchParams, body, contentType: request.headers['content-type'] ?? null, account: grant.account });
      call.status = reply.status;
      if (reply.body) sendJson(response, reply.status, reply.body);
      else response.writeHead(reply.status).end();
    } catch (error) {
      if (!(error instanceof YouTubeApiError)) throw error;
      call.status = error.status;
      call.reason = error.reason;
      sendJson(response, error.status, error.body);
    }
  }

  const url = server.url;
  return {
    url,
    clientId,
    clientSecret,
    endpoints: {
      oauth2AuthBaseUrl: `${url}/o/oauth2/v2/auth`,
      oauth2TokenUrl: `${url}/token`,
      oauth2RevokeUrl: `${url}/revoke`,
      tokenInfoUrl: `${url}/tokeninfo`,
      oauth2FederatedSignonPemCertsUrl: `${url}/oauth2/v1/certs`,
      oauth2FederatedSignonJwkCertsUrl: `${url}/oauth2/v3/certs`,
    },
    youtubeRootUrl: `${url}/`,
    defaultAccount,
    addAccount: (account) => accounts.add(account),
    account: (key) => accounts.get(key),
    nextConsent: (decision) => oauth.queueDecision(decision),
    consents: oauth.consents,
    issued: () => oauth.issued(),
    calls,
    quota: {
      dailyLimit: quota.dailyLimit,
      used: (day) => quota.used(day),
      byDay: () => quota.byDay(),
      spend: (units) => quota.spend(units),
    },
    setLiveStreamingEnabled(accountKey, enabled) {
      const channel = accounts.get(accountKey).channel;
      if (!channel) throw new Error(`account ${accountKey} has no YouTube channel`);
      channel.liveStreamingEnabled = enabled;
    },
    revokeGrant: (accountKey) => oauth.revokeAccount(accounts.get(accountKey).sub),
    expireAccessTokens: (accountKey) => oauth.expireAccessTokens(accountKey === undefined ? undefined : accounts.get(accountKey).sub),
    setStreamStatus: (streamId, status) => youtube.setStreamStatus(streamId, status),
    endBroadcast: (broadcastId) => youtube.endBroadcast(broadcastId),
    broadcast: (broadcastId) => youtube.broadcast(broadcastId),
    thumbnail: (videoId) => youtube.thumbnails.get(videoId),
    stop: () => server.stop(),
  };
}

function queryRecord(query: URLSearchParams): Record<string, string[]> {
  const record: Record<string, string[]> = {};
  for (const [key, value] of query) (record[key] ??= []).push(value);
  return record;
}
