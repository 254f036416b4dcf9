// The web-server OAuth flow with PKCE, run by google-auth-library's own OAuth2Client against the fake: build the
// consent URL, follow Google's redirect back to the app, exchange the code. For the fake's tests and for any test
// that needs a connected YouTube client.
import { CodeChallengeMethod, OAuth2Client, type Credentials } from 'google-auth-library';
import { google, type youtube_v3 } from 'googleapis';
import { YOUTUBE_SCOPES } from './oauth';
import type { FakeGoogle } from './server';

export const REDIRECT_URI = 'http://127.0.0.1:8080/api/channels/youtube/callback';

export interface ConnectOptions {
  scope?: string[];
  loginHint?: string;
  prompt?: string;
}

export interface Connected {
  oauth: OAuth2Client;
  youtube: youtube_v3.Youtube;
  tokens: Credentials;
  /** Where Google sent the browser back: `code`, `state`, `scope`, ... */
  callback: URL;
}

export function oauthClient(fake: FakeGoogle): OAuth2Client {
  return new OAuth2Client({ clientId: fake.clientId, clientSecret: fake.clientSecret, redirectUri: REDIRECT_URI, endpoints: fake.endpoints });
}

/**
 * The service-wide rootUrl reaches every JSON call, but googleapis does not apply it to media upload URLs
 * (thumbnails.set): pass `{ rootUrl: fake.youtubeRootUrl }` as that call's own options too.
 */
export function youtubeClient(fake: FakeGoogle, auth: OAuth2Client): youtube_v3.Youtube {
  // No retries: a fake answering 5xx is a bug to see at once, not to retry.
  return google.youtube({ version: 'v3', auth, rootUrl: fake.youtubeRootUrl, retry: false });
}

/** Follows the consent URL and returns Google's redirect back to the app. */
export async function consent(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`consent screen answered ${response.status}: ${await response.text()}`);
  return new URL(location);
}

export async function connect(fake: FakeGoogle, options: ConnectOptions = {}): Promise<Connected> {
  const oauth = oauthClient(fake);
  const { codeVerifier, codeChallenge } = await oauth.generateCodeVerifierAsync();
  if (!codeChallenge) throw new Error('google-auth-library made no code challenge');
  const url = oauth.generateAuthUrl({
    access_type: 'offline',
    prompt: options.prompt ?? 'consent',
    scope: options.scope ?? [YOUTUBE_SCOPES.youtube],
    state: 'state-bound-to-session',
    code_challenge_method: CodeChallengeMethod.S256,
    code_challenge: codeChallenge,
    ...(options.loginHint ? { login_hint: options.loginHint } : {}),
  });
  const callback = await consent(url);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in the callback: ${callback.toString()}`);
  const { tokens } = await oauth.getToken({ code, codeVerifier });
  oauth.setCredentials(tokens);
  return { oauth, youtube: youtubeClient(fake, oauth), tokens, callback };
}
