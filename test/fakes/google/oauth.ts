// Google's OAuth 2.0 endpoints for a web-server app: the consent screen (answered at once by a test-chosen
// account and decision), the token endpoint (authorization_code with PKCE, refresh_token), revocation, tokeninfo,
// and signed id_tokens with their certificates.
import { createHash, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Account, Accounts } from './accounts';
import { OAuthError } from './errors';
import { randomString } from '../shared/random';

export const YOUTUBE_SCOPES = {
  youtube: 'https://www.googleapis.com/auth/youtube',
  forceSsl: 'https://www.googleapis.com/auth/youtube.force-ssl',
  readonly: 'https://www.googleapis.com/auth/youtube.readonly',
  upload: 'https://www.googleapis.com/auth/youtube.upload',
} as const;

/** Scopes the consent screen always grants; everything else is a box the user may untick (granular consent). */
const BASIC_SCOPES = new Set([
  'openid',
  'email',
  'profile',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
]);
const ACCESS_TOKEN_SECONDS = 3599;
const CODE_SECONDS = 600;

export interface ConsentDecision {
  /** Who signs in: `sub`, e-mail or channel id (default: `login_hint`, else the first account). */
  account?: string;
  /** The user presses Cancel: the app gets `error=access_denied`. */
  deny?: boolean;
  /** Scopes the user unticks on the consent screen. */
  withhold?: string[];
}

export interface ConsentRecord {
  clientId: string | null;
  redirectUri: string | null;
  scope: string[];
  state: string | null;
  accessType: string | null;
  prompt: string | null;
  loginHint: string | null;
  includeGrantedScopes: boolean;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  /** What came back to the app: the granted scopes, or the error. */
  outcome: { granted: string[] } | { error: string };
}

export type Reply = { kind: 'json'; status: number; body: object } | { kind: 'redirect'; location: string } | { kind: 'page'; status: number; text: string };

interface Grant {
  sub: string;
  clientId: string;
  scopes: Set<string>;
  revoked: boolean;
  hasRefreshToken: boolean;
}

interface AuthorizationCode {
  grant: Grant;
  scopes: string[];
  redirectUri: string;
  challenge: { value: string; method: 'S256' | 'plain' } | null;
  offline: boolean;
  forceConsent: boolean;
  expiresAt: number;
  used: boolean;
}

export interface AccessGrant {
  account: Account;
  scopes: Set<string>;
}

export class OAuthServer {
  readonly consents: ConsentRecord[] = [];
  private readonly decisions: ConsentDecision[] = [];
  private readonly grants: Grant[] = [];
  private readonly codes = new Map<string, AuthorizationCode>();
  private readonly accessTokens = new Map<string, { grant: Grant; scopes: Set<string>; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, Grant>();
  private signingKey: { kid: string; privateKey: KeyObject; publicPem: string; jwk: object } | undefined;

  constructor(
    private readonly client: { id: string; secret: string; redirectUris: string[] | undefined },
    private readonly accounts: Accounts,
    private readonly now: () => number,
  ) {}

  /** The next consent screen(s) answer with these decisions, in order. */
  queueDecision(decision: ConsentDecision): void {
    this.decisions.push(decision);
  }

  /** GET /o/oauth2/v2/auth */
  authorize(query: URLSearchParams): Reply {
    const clientId = query.get('client_id');
    const redirectUri = query.get('redirect_uri');
    const scope = (query.get('scope') ?? '').split(/[ +]/).filter(Boolean);
    const record: Omit<ConsentRecord, 'outcome'> = {
      clientId,
      redirectUri,
      scope,
      state: query.get('state'),
      accessType: query.get('access_type'),
      prompt: query.get('prompt'),
      loginHint: query.get('login_hint'),
      includeGrantedScopes: query.get('include_granted_scopes') === 'true',
      codeChallenge: query.get('code_challenge'),
      codeChallengeMethod: query.get('code_challenge_method'),
    };
    // Problems with the client or the redirect are shown on Google's own error page, never sent to the app.
    if (clientId !== this.client.id) return errorPage(401, 'invalid_client', 'The OAuth client was not found.');
    if (!redirectUri || !URL.canParse(redirectUri) || (this.client.redirectUris && !this.client.redirectUris.includes(redirectUri))) {
      return errorPage(
        400,
        'redirect_uri_mismatch',
        `The redirect URI in the request, ${redirectUri ?? ''}, does not match the ones authorized for the OAuth client.`,
      );
    }
    if (query.get('response_type') !== 'code') return errorPage(400, 'invalid_request', 'Invalid response_type: only code is supported here.');
    if (scope.length === 0) return errorPage(400, 'invalid_request', 'Missing required parameter: scope');
    const method = record.codeChallengeMethod ?? (record.codeChallenge ? 'plain' : null);
    if (method !== null && method !== 'S256' && method !== 'plain') return errorPage(400, 'invalid_request', 'Invalid code_challenge_method value.');
    if (method !== null && !record.codeChallenge) return errorPage(400, 'invalid_request', 'Missing code_challenge.');

    const decision = this.decisions.shift() ?? {};
    const back = new URL(redirectUri);
    if (record.state !== null) back.searchParams.set('state', record.state);
    if (decision.deny) {
      back.searchParams.set('error', 'access_denied');
      this.consents.push({ ...record, outcome: { error: 'access_denied' } });
      return { kind: 'redirect', location: back.toString() };
    }
    const hinted = record.loginHint ? this.accounts.find(record.loginHint) : undefined;
    const account = decision.account ? this.accounts.get(decision.account) : (hinted ?? this.accounts.first);
    const withheld = new Set(decision.withhold ?? []);
    let granted = scope.filter((each) => BASIC_SCOPES.has(each) || !withheld.has(each));
    const grant = this.grantFor(account.sub);
    if (record.includeGrantedScopes) granted = [...new Set([...grant.scopes, ...granted])];
    for (const each of granted) grant.scopes.add(each);

    const code = `4/0A${randomString(70)}`;
    this.codes.set(code, {
      grant,
      scopes: granted,
      redirectUri,
      challenge: method && record.codeChallenge ? { value: record.codeChallenge, method } : null,
      offline: record.accessType === 'offline',
      forceConsent: record.prompt?.split(' ').includes('consent') ?? false,
      expiresAt: this.now() + CODE_SECONDS * 1000,
      used: false,
    });
    this.consents.push({ ...record, outcome: { granted } });
    back.searchParams.set('iss', 'https://accounts.google.com');
    back.searchParams.set('code', code);
    back.searchParams.set('scope', granted.join(' '));
    back.searchParams.set('authuser', '0');
    back.searchParams.set('prompt', 'consent');
    return { kind: 'redirect', location: back.toString() };
  }

  /** POST /token */
  token(form: URLSearchParams, authorization: string | null): Reply {
    return this.answer(() => {
      this.authenticateClient(form, authorization);
      const grantType = form.get('grant_type');
      if (grantType === 'authorization_code') return this.exchangeCode(form);
      if (grantType === 'refresh_token') return this.refresh(form);
      if (!grantType) throw new OAuthError(400, 'invalid_request', 'Required parameter is missing: grant_type');
      throw new OAuthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
    });
  }

  /** POST /revoke?token=… (or the token in a form body): ends the whole grant, refresh token included. */
  revoke(token: string | null): Reply {
    const grant = token ? (this.refreshTokens.get(token) ?? this.accessTokens.get(token)?.grant) : undefined;
    if (!grant || grant.revoked) return { kind: 'json', status: 400, body: { error: 'invalid_token', error_description: 'Token expired or revoked' } };
    grant.revoked = true;
    return { kind: 'json', status: 200, body: {} };
  }

  /** GET|POST /tokeninfo, the token in the query, the form or a Bearer header. */
  tokenInfo(accessToken: string | null): Reply {
    const found = accessToken ? this.validAccessToken(accessToken) : undefined;
    if (!found) return { kind: 'json', status: 400, body: { error: 'invalid_token', error_description: 'Invalid Value' } };
    const account = this.accounts.get(found.grant.sub);
    const expiresIn = Math.floor((found.expiresAt - this.now()) / 1000);
    return {
      kind: 'json',
      status: 200,
      body: {
        azp: this.client.id,
        aud: this.client.id,
        sub: account.sub,
        scope: [...found.scopes].join(' '),
        exp: String(Math.floor(found.expiresAt / 1000)),
        expires_in: String(expiresIn),
        email: account.email,
        email_verified: 'true',
        access_type: 'offline',
      },
    };
  }

  /** GET /oauth2/v1/certs (PEM by key id) and /oauth2/v3/certs (JWK set), for verifying id_tokens. */
  certificates(format: 'pem' | 'jwk'): Reply {
    const key = this.key();
    return { kind: 'json', status: 200, body: format === 'pem' ? { [key.kid]: key.publicPem } : { keys: [key.jwk] } };
  }

  /** The account and scopes behind a Bearer token, or undefined when it is unknown, expired or revoked. */
  accessGrant(accessToken: string): AccessGrant | undefined {
    const found = this.validAccessToken(accessToken);
    return found && { account: this.accounts.get(found.grant.sub), scopes: found.scopes };
  }

  /** Every authorization code, access token and refresh token handed out so far (tests search logs for them). */
  issued(): { codes: string[]; accessTokens: string[]; refreshTokens: string[] } {
    return { codes: [...this.codes.keys()], accessTokens: [...this.accessTokens.keys()], refreshTokens: [...this.refreshTokens.keys()] };
  }

  /** The user removes the app at myaccount.google.com/permissions. */
  revokeAccount(sub: string): void {
    for (const grant of this.grants) if (grant.sub === sub) grant.revoked = true;
  }

  /** Access tokens of one account (or all) expire now; refresh tokens keep working. */
  expireAccessTokens(sub?: string): void {
    for (const token of this.accessTokens.values()) if (sub === undefined || token.grant.sub === sub) token.expiresAt = this.now();
  }

  private answer(build: () => object): Reply {
    try {
      return { kind: 'json', status: 200, body: build() };
    } catch (error) {
      if (error instanceof OAuthError) return { kind: 'json', status: error.status, body: { error: error.error, error_description: error.description } };
      throw error;
    }
  }

  private authenticateClient(form: URLSearchParams, authorization: string | null): void {
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    if (authorization?.toLowerCase().startsWith('basic ')) {
      const [basicId = '', basicSecret = ''] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
      id = decodeURIComponent(basicId);
      secret = decodeURIComponent(basicSecret);
    }
    if (id !== this.client.id) throw new OAuthError(401, 'invalid_client', 'The OAuth client was not found.');
    if (secret !== this.client.secret) throw new OAuthError(401, 'invalid_client', 'Unauthorized');
  }

  private exchangeCode(form: URLSearchParams): object {
    const code = form.get('code');
    if (!code) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: code');
    const issued = this.codes.get(code);
    if (!issued || issued.used || issued.expiresAt <= this.now() || issued.grant.revoked) throw new OAuthError(400, 'invalid_grant', 'Bad Request');
    if (form.get('redirect_uri') !== issued.redirectUri) throw new OAuthError(400, 'redirect_uri_mismatch', 'Bad Request');
    if (issued.challenge) {
      const verifier = form.get('code_verifier');
      if (!verifier) throw new OAuthError(400, 'invalid_grant', 'Missing code verifier.');
      const derived = issued.challenge.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (derived !== issued.challenge.value) throw new OAuthError(400, 'invalid_grant', 'Invalid code verifier.');
    }
    issued.used = true;
    const tokens: Record<string, string | number> = this.issueAccessToken(issued.grant, new Set(issued.scopes));
    // Google hands out a refresh token on the first offline consent, and again only when consent is forced.
    if (issued.offline && (!issued.grant.hasRefreshToken || issued.forceConsent)) {
      const refreshToken = `1//0${randomString(100)}`;
      this.refreshTokens.set(refreshToken, issued.grant);
      issued.grant.hasRefreshToken = true;
      tokens.refresh_token = refreshToken;
    }
    return tokens;
  }

  private refresh(form: URLSearchParams): object {
    const token = form.get('refresh_token');
    if (!token) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: refresh_token');
    const grant = this.refreshTokens.get(token);
    if (!grant || grant.revoked) throw new OAuthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    return this.issueAccessToken(grant, new Set(grant.scopes));
  }

  private issueAccessToken(grant: Grant, scopes: Set<string>): Record<string, string | number> {
    const accessToken = `ya29.a0${randomString(150)}`;
    this.accessTokens.set(accessToken, { grant, scopes, expiresAt: this.now() + ACCESS_TOKEN_SECONDS * 1000 });
    const tokens: Record<string, string | number> = {
      access_token: accessToken,
      expires_in: ACCESS_TOKEN_SECONDS,
      scope: [...scopes].join(' '),
      token_type: 'Bearer',
    };
    if (scopes.has('openid')) tokens.id_token = this.idToken(this.accounts.get(grant.sub), scopes, accessToken);
    return tokens;
  }

  private idToken(account: Account, scopes: Set<string>, accessToken: string): string {
    const key = this.key();
    const issuedAt = Math.floor(this.now() / 1000);
    const digest = createHash('sha256').update(accessToken).digest();
    const claims: Record<string, string | number | boolean> = {
      iss: 'https://accounts.google.com',
      azp: this.client.id,
      aud: this.client.id,
      sub: account.sub,
      at_hash: digest.subarray(0, 16).toString('base64url'),
      iat: issuedAt,
      exp: issuedAt + 3600,
    };
    if (scopes.has('email') || scopes.has('https://www.googleapis.com/auth/userinfo.email')) {
      claims.email = account.email;
      claims.email_verified = true;
    }
    if (scopes.has('profile') || scopes.has('https://www.googleapis.com/auth/userinfo.profile')) claims.name = account.name;
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const signed = `${encode({ alg: 'RS256', kid: key.kid, typ: 'JWT' })}.${encode(claims)}`;
    return `${signed}.${createSign('RSA-SHA256').update(signed).sign(key.privateKey).toString('base64url')}`;
  }

  private key() {
    if (!this.signingKey) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const kid = randomString(40, '0123456789abcdef');
      this.signingKey = {
        kid,
        privateKey,
        publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
      };
    }
    return this.signingKey;
  }

  private grantFor(sub: string): Grant {
    const existing = this.grants.find((grant) => grant.sub === sub && grant.clientId === this.client.id && !grant.revoked);
    if (existing) return existing;
    const grant: Grant = { sub, clientId: this.client.id, scopes: new Set(), revoked: false, hasRefreshToken: false };
    this.grants.push(grant);
    return grant;
  }

  private validAccessToken(token: string) {
    const found = this.accessTokens.get(token);
    return found && !found.grant.revoked && found.expiresAt > this.now() ? found : undefined;
  }
}

function errorPage(status: number, error: string, description: string): Reply {
  return { kind: 'page', status, text: `<!doctype html><title>Error ${status}: ${error}</title><h1>Error ${status}: ${error}</h1><p>${description}</p>` };
}
