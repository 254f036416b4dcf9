// Connecting a YouTube account with google-auth-library's OAuth2Client against the fake: PKCE, granular consent,
// refresh, revocation, id_tokens, and Google's OAuth error shapes surfacing as GaxiosError.
import { CodeChallengeMethod, gaxios } from 'google-auth-library';
import { REDIRECT_URI, connect, consent, oauthClient, youtubeClient } from './connect';
import { YOUTUBE_SCOPES } from './oauth';
import { startFakeGoogle, type FakeGoogle } from './server';

let fake: FakeGoogle;

beforeEach(async () => {
  fake = await startFakeGoogle();
});
afterEach(() => fake.stop());

async function gaxiosFailure(call: Promise<unknown>): Promise<InstanceType<typeof gaxios.GaxiosError>> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof gaxios.GaxiosError)) throw new Error(`expected a GaxiosError, got ${String(error)}`);
  return error;
}

describe('connect', () => {
  test('consent with PKCE, offline access and the YouTube scope, then the channel name and avatar', async () => {
    const { youtube, tokens, callback } = await connect(fake);

    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe('state-bound-to-session');
    expect(callback.searchParams.get('scope')).toBe(YOUTUBE_SCOPES.youtube);
    const [request] = fake.consents;
    expect(request).toMatchObject({
      clientId: fake.clientId,
      redirectUri: REDIRECT_URI,
      scope: [YOUTUBE_SCOPES.youtube],
      accessType: 'offline',
      prompt: 'consent',
      codeChallengeMethod: 'S256',
      state: 'state-bound-to-session',
    });
    expect(request?.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: YOUTUBE_SCOPES.youtube });
    expect(tokens.access_token).toMatch(/^ya29\./);
    expect(tokens.refresh_token).toMatch(/^1\/\/0/);
    expect(tokens.expiry_date).toBeGreaterThan(Date.now() + 3500_000);

    const { data } = await youtube.channels.list({ part: ['snippet'], mine: true });
    expect(data.kind).toBe('youtube#channelListResponse');
    expect(data.items?.[0]?.id).toBe(fake.defaultAccount.channel?.id);
    expect(data.items?.[0]?.snippet).toMatchObject({ title: 'Creator Loops', thumbnails: { default: { width: 88, height: 88 } } });
    expect(data.items?.[0]?.snippet?.thumbnails?.high?.url).toMatch(/^https:\/\/yt3\.ggpht\.com\//);
  });

  test('the code exchange checks the PKCE verifier and accepts a code once', async () => {
    const oauth = oauthClient(fake);
    const { codeChallenge } = await oauth.generateCodeVerifierAsync();
    const url = oauth.generateAuthUrl({ scope: [YOUTUBE_SCOPES.youtube], code_challenge: codeChallenge, code_challenge_method: CodeChallengeMethod.S256 });
    const code = (await consent(url)).searchParams.get('code') ?? '';

    const wrong = await gaxiosFailure(oauth.getToken({ code, codeVerifier: 'x'.repeat(43) }));
    expect(wrong.status).toBe(400);
    expect(wrong.response?.data).toEqual({ error: 'invalid_grant', error_description: 'Invalid code verifier.' });
    const missing = await gaxiosFailure(oauth.getToken({ code }));
    expect(missing.response?.data).toEqual({ error: 'invalid_grant', error_description: 'Missing code verifier.' });

    const { codeVerifier: goodVerifier, codeChallenge: goodChallenge } = await oauth.generateCodeVerifierAsync();
    const goodUrl = oauth.generateAuthUrl({ scope: [YOUTUBE_SCOPES.youtube], code_challenge: goodChallenge, code_challenge_method: CodeChallengeMethod.S256 });
    const goodCode = (await consent(goodUrl)).searchParams.get('code') ?? '';
    await expect(oauth.getToken({ code: goodCode, codeVerifier: goodVerifier })).resolves.toMatchObject({ tokens: { token_type: 'Bearer' } });
    const reused = await gaxiosFailure(oauth.getToken({ code: goodCode, codeVerifier: goodVerifier }));
    expect(reused.response?.data).toEqual({ error: 'invalid_grant', error_description: 'Bad Request' });
  });

  test('a user who unticks the YouTube permission: the token lacks the scope and YouTube refuses', async () => {
    fake.nextConsent({ withhold: [YOUTUBE_SCOPES.youtube] });
    const { youtube, tokens, callback } = await connect(fake, { scope: ['openid', 'email', YOUTUBE_SCOPES.youtube] });
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);
    expect(callback.searchParams.get('scope')).toBe('openid email');

    const refused = await gaxiosFailure(youtube.channels.list({ part: ['snippet'], mine: true }));
    expect(refused.status).toBe(403);
    expect(refused.response?.data).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED', errors: [{ reason: 'insufficientPermissions' }] } });
  });

  test('a user who cancels the consent screen', async () => {
    fake.nextConsent({ deny: true });
    const oauth = oauthClient(fake);
    const callback = await consent(oauth.generateAuthUrl({ scope: [YOUTUBE_SCOPES.youtube], state: 's1' }));
    expect(Object.fromEntries(callback.searchParams)).toEqual({ error: 'access_denied', state: 's1' });
  });

  test('an unregistered redirect URI stops on Google’s error page', async () => {
    const strict = await startFakeGoogle({ redirectUris: [REDIRECT_URI] });
    try {
      const url = oauthClient(strict).generateAuthUrl({ scope: [YOUTUBE_SCOPES.youtube], redirect_uri: 'https://evil.example/callback' });
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('redirect_uri_mismatch');
    } finally {
      await strict.stop();
    }
  });

  test('a second Google account, chosen with login_hint, connects its own channel', async () => {
    const second = fake.addAccount({ email: 'second@example.com', channelTitle: 'Second Channel' });
    const { youtube } = await connect(fake, { loginHint: 'second@example.com' });
    const { data } = await youtube.channels.list({ part: ['snippet'], mine: true });
    expect(data.items?.map((channel) => channel.snippet?.title)).toEqual(['Second Channel']);
    expect(data.items?.[0]?.id).toBe(second.channel?.id);
  });

  test('a Google account without a YouTube channel lists no channel', async () => {
    const plain = fake.addAccount({ channel: false });
    fake.nextConsent({ account: plain.sub });
    const { youtube } = await connect(fake);
    const { data } = await youtube.channels.list({ part: ['snippet'], mine: true });
    expect(data.pageInfo).toEqual({ totalResults: 0, resultsPerPage: 5 });
    expect(data.items).toBeUndefined();
  });

  test('a refresh token comes with the first offline consent, and again only when consent is forced', async () => {
    const first = await connect(fake, { prompt: 'select_account' });
    expect(first.tokens.refresh_token).toBeDefined();
    const quiet = await connect(fake, { prompt: 'select_account' });
    expect(quiet.tokens.refresh_token).toBeUndefined();
    const forced = await connect(fake, { prompt: 'consent' });
    expect(forced.tokens.refresh_token).toBeDefined();
  });

  test('an openid request gets an id_token that OAuth2Client verifies against the fake’s certificates', async () => {
    const { oauth, tokens } = await connect(fake, { scope: ['openid', 'email', YOUTUBE_SCOPES.youtube] });
    const ticket = await oauth.verifyIdToken({ idToken: tokens.id_token ?? '', audience: fake.clientId });
    expect(ticket.getPayload()).toMatchObject({
      iss: 'https://accounts.google.com',
      sub: fake.defaultAccount.sub,
      email: 'creator@example.com',
      email_verified: true,
    });
  });

  test('a wrong client secret is invalid_client', async () => {
    const oauth = oauthClient(fake);
    const code = (await consent(oauth.generateAuthUrl({ scope: [YOUTUBE_SCOPES.youtube] }))).searchParams.get('code') ?? '';
    const impostor = oauthClient({ ...fake, clientSecret: 'GOCSPX-wrong' });
    const error = await gaxiosFailure(impostor.getToken(code));
    expect(error.status).toBe(401);
    expect(error.response?.data).toEqual({ error: 'invalid_client', error_description: 'Unauthorized' });
  });
});

describe('tokens over time', () => {
  test('an expired access token is a 401 authError; the client refreshes with its refresh token and retries', async () => {
    const { tokens } = await connect(fake);
    fake.expireAccessTokens();

    const stale = oauthClient(fake);
    stale.setCredentials({ access_token: tokens.access_token ?? null });
    const rejected = await gaxiosFailure(youtubeClient(fake, stale).channels.list({ part: ['id'], mine: true }));
    expect(rejected.status).toBe(401);
    expect(rejected.response?.data).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED', errors: [{ reason: 'authError', domain: 'global', location: 'Authorization' }] },
    });

    // Stored tokens without an expiry: OAuth2Client meets the 401, refreshes and repeats the call.
    const stored = oauthClient(fake);
    stored.setCredentials({ access_token: tokens.access_token ?? null, refresh_token: tokens.refresh_token ?? null });
    const refreshed = new Promise((resolve) => stored.on('tokens', resolve));
    const { data } = await youtubeClient(fake, stored).channels.list({ part: ['id'], mine: true });
    expect(data.items).toHaveLength(1);
    expect(await refreshed).toMatchObject({ token_type: 'Bearer', scope: YOUTUBE_SCOPES.youtube });
    expect(fake.calls.filter((call) => call.api === 'token').length).toBe(2);
  });

  test('a grant the user revoked in their Google account: refresh fails with invalid_grant', async () => {
    const { oauth, youtube } = await connect(fake);
    fake.revokeGrant(fake.defaultAccount.sub);

    const refresh = await gaxiosFailure(oauth.refreshAccessToken());
    expect(refresh.status).toBe(400);
    expect(refresh.message).toBe('invalid_grant');
    expect(refresh.response?.data).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    const call = await gaxiosFailure(youtube.channels.list({ part: ['id'], mine: true }));
    expect(call.status).toBe(401);
  });

  test('the app disconnecting revokes the grant through the revoke endpoint', async () => {
    const { oauth, tokens } = await connect(fake);
    await expect(oauth.revokeToken(tokens.refresh_token ?? '')).resolves.toMatchObject({ status: 200 });
    const after = oauthClient(fake);
    after.setCredentials({ refresh_token: tokens.refresh_token ?? null });
    expect((await gaxiosFailure(after.refreshAccessToken())).response?.data).toMatchObject({ error: 'invalid_grant' });
    expect((await gaxiosFailure(oauth.revokeToken(tokens.refresh_token ?? ''))).response?.data).toEqual({
      error: 'invalid_token',
      error_description: 'Token expired or revoked',
    });
  });

  test('tokeninfo reports the granted scopes', async () => {
    const { oauth, tokens } = await connect(fake);
    const info = await oauth.getTokenInfo(tokens.access_token ?? '');
    expect(info).toMatchObject({ aud: fake.clientId, sub: fake.defaultAccount.sub, scopes: [YOUTUBE_SCOPES.youtube] });
  });
});
