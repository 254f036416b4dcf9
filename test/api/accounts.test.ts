// Accounts through the real HTTP API of the local stack, on DynamoDB Local: every rule of issue 4.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../local/stack';
import { DynamoAccountsStore } from '../../lambdas/adapters/dynamo/accounts-store';
import { rateLimits, type Limit } from '../../lambdas/core/accounts/rate-limits';
import { api, holdTheClock, mailsTo, signedInUser, strongPassword, tokenOf, uniqueEmail, type ApiResult } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
const realNow = () => new Date();
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());
afterEach(() => {
  stack.deps.now = realNow;
});

const registration = (email: string, overrides: Record<string, unknown> = {}) => ({
  displayName: 'Ana Creator',
  email,
  password: strongPassword,
  acceptTerms: true,
  ageConfirmed: true,
  ...overrides,
});
const later = (hours: number) => () => new Date(Date.now() + hours * 3600_000);

describe('register', () => {
  test('creates a pending account and e-mails a confirmation link in the user language', async () => {
    const email = uniqueEmail('Ana');
    const response = await api(stack, 'POST', '/register', { body: registration(email.toUpperCase(), { language: 'es' }) });
    expect(response).toMatchObject({ status: 202, body: { accepted: true, email: email.toLowerCase() } });
    const [mail] = await mailsTo(stack, email);
    expect(mail?.subject).toBe('Confirma tu correo para Loopcast');
    expect(mail?.link).toMatch(new RegExp(`^${stack.urls.web}/es/app/auth/confirm\\?token=[\\w-]{43}$`));
  });

  test.each([
    ['a malformed e-mail', { email: 'not-an-email' }, 422, 'validation.bad_email'],
    ['a disposable e-mail', { email: 'someone@mailinator.com' }, 422, 'disposable email'],
    ['a short password', { password: 'short' }, 422, 'weak password'],
    ['a common password', { password: 'password123' }, 422, 'weak password'],
    ['the e-mail as password', { password: 'SAME-AS-EMAIL' }, 422, 'weak password'],
    ['terms not accepted', { acceptTerms: false }, 400, 'registration error'],
    ['no age confirmation', { ageConfirmed: undefined }, 400, 'registration error'],
    ['an empty display name', { displayName: '   ' }, 400, 'invalid request'],
    ['an unknown language', { language: 'fr' }, 400, 'invalid request'],
  ])('refuses %s with a catalogued error', async (_, overrides, status, key) => {
    const email = uniqueEmail();
    const body = registration(email, overrides);
    if (body.password === 'SAME-AS-EMAIL') body.password = email;
    const response = await api(stack, 'POST', '/register', { body });
    expect(response.status).toBe(status);
    expect(response.body.error).toBe(key);
    expect(await mailsTo(stack, email)).toEqual([]);
  });

  // Security audit L9: a taken address answered 409 'already exists', which told anyone who has an account.
  test('a taken address gets the same answer as a free one, also for concurrent sign-ups; its owner is told by e-mail', async () => {
    const email = uniqueEmail();
    const results = await Promise.all(Array.from({ length: 5 }, () => api(stack, 'POST', '/register', { body: registration(email) })));
    expect(results.map((r) => ({ status: r.status, body: r.body }))).toEqual(results.map(() => ({ status: 202, body: { accepted: true, email } })));
    // One account; while it is unconfirmed, the other sign-ups each sent a fresh confirmation link (3 at most an hour).
    const mails = await mailsTo(stack, email);
    expect(mails.length).toBeGreaterThanOrEqual(2);
    expect(new Set(mails.map((m) => m.subject))).toEqual(new Set(['Confirm your e-mail for Loopcast']));
  });

  test("signing up again with a confirmed account's address sends its owner a note to sign in, and changes nothing", async () => {
    const { email } = await signedInUser(stack, 'owner');
    const again = await api(stack, 'POST', '/register', { body: registration(email, { displayName: 'Someone Else', password: 'another long passphrase' }) });
    expect(again).toMatchObject({ status: 202, body: { accepted: true, email } });
    const note = (await mailsTo(stack, email)).at(-1);
    expect(note).toMatchObject({ subject: 'You already have a Loopcast account', link: `${stack.urls.web}/app/auth/login` });
    // The account is unchanged: the owner's password still signs in.
    expect((await api(stack, 'POST', '/login', { body: { email, password: strongPassword } })).body.user).toMatchObject({ displayName: 'owner' });
  });

  test('malformed and oversized bodies are 4xx with a catalogue key, never 500', async () => {
    expect((await api(stack, 'POST', '/register', { body: '{"email":' })).body.error).toBe('malformed json');
    const huge = await api(stack, 'POST', '/register', { body: registration(uniqueEmail(), { displayName: 'x'.repeat(70_000) }) });
    expect(huge).toMatchObject({ status: 413, body: { error: 'payload too large' } });
    const wrongType = await api(stack, 'POST', '/register', { body: 'email=a', headers: { 'content-type': 'text/plain' } });
    expect(wrongType).toMatchObject({ status: 415, body: { error: 'unsupported media type' } });
    expect((await api(stack, 'POST', '/register', { body: [] })).body.error).toBe('invalid request');
  });
});

describe('confirm and sign in', () => {
  test('sign-in waits for confirmation; the link works once and signs the user in', async () => {
    const email = uniqueEmail();
    await api(stack, 'POST', '/register', { body: registration(email) });
    expect((await api(stack, 'POST', '/login', { body: { email, password: strongPassword } })).body.error).toBe('email not confirmed');

    const token = tokenOf((await mailsTo(stack, email)).at(-1));
    const confirmed = await api(stack, 'POST', '/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user).toMatchObject({ email, status: 'active' });
    expect((await api(stack, 'GET', '/me', { token: confirmed.body.token })).body.user).toMatchObject({ displayName: 'Ana Creator' });
    expect(await api(stack, 'POST', '/confirm', { body: { token } })).toMatchObject({ status: 400, body: { error: 'invalid token' } });

    const login = await api(stack, 'POST', '/login', { body: { email: ` ${email.toUpperCase()} `, password: strongPassword } });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^[\w-]{43}$/);
  });

  test('an expired confirmation link is refused and a new one can be requested', async () => {
    const email = uniqueEmail();
    await api(stack, 'POST', '/register', { body: registration(email) });
    const token = tokenOf((await mailsTo(stack, email)).at(-1));
    stack.deps.now = later(49);
    expect((await api(stack, 'POST', '/confirm', { body: { token } })).body.error).toBe('invalid token');
    stack.deps.now = realNow;
    expect((await api(stack, 'POST', '/confirm/resend', { body: { email } })).status).toBe(202);
    const fresh = tokenOf((await mailsTo(stack, email)).at(-1));
    expect((await api(stack, 'POST', '/confirm', { body: { token: fresh } })).status).toBe(200);
  });

  test('a wrong password and an unknown e-mail get the same answer', async () => {
    const { email } = await signedInUser(stack);
    const wrong = await api(stack, 'POST', '/login', { body: { email, password: 'not the password at all' } });
    const unknown = await api(stack, 'POST', '/login', { body: { email: uniqueEmail(), password: 'not the password at all' } });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid credentials' } });
    expect(unknown.body).toEqual(wrong.body);
  });

  test('a suspended account cannot sign in and is told so', async () => {
    const { email, userId } = await signedInUser(stack);
    await new DynamoAccountsStore(stack.deps.db, stack.config.tables.app).updateUser(userId, { status: 'suspended' });
    const response = await api(stack, 'POST', '/login', { body: { email, password: strongPassword } });
    expect(response).toMatchObject({ status: 403, body: { error: 'account suspended', message: 'This account is suspended. Please contact support' } });
  });
});

describe('sessions', () => {
  test('logout revokes the session; an expired session is refused', async () => {
    const { token } = await signedInUser(stack);
    expect((await api(stack, 'GET', '/me', { token })).status).toBe(200);
    expect((await api(stack, 'POST', '/logout', { token })).status).toBe(204);
    expect(await api(stack, 'GET', '/me', { token })).toMatchObject({ status: 401, body: { error: 'unauthorized' } });

    const second = await signedInUser(stack);
    stack.deps.now = later(31 * 24);
    expect((await api(stack, 'GET', '/me', { token: second.token })).status).toBe(401);
  });

  test('no token, a garbage token or a non-Bearer header is 401', async () => {
    expect((await api(stack, 'GET', '/me')).status).toBe(401);
    expect((await api(stack, 'GET', '/me', { token: 'x'.repeat(43) })).status).toBe(401);
    expect((await api(stack, 'GET', '/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  test('session and link tokens are stored only as hashes', async () => {
    const { token, email } = await signedInUser(stack);
    await api(stack, 'POST', '/forgot-password', { body: { email } });
    const resetToken = tokenOf((await mailsTo(stack, email)).at(-1));
    const { Items = [] } = await stack.deps.db.send(new ScanCommand({ TableName: stack.config.tables.app }));
    const everything = JSON.stringify(Items);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(resetToken);
    expect(everything).not.toContain(strongPassword);
  });
});

describe('password reset', () => {
  test('unknown and known e-mails get the same answer; the link resets once and ends old sessions', async () => {
    const { email, token: oldSession } = await signedInUser(stack);
    const unknown = await api(stack, 'POST', '/forgot-password', { body: { email: uniqueEmail() } });
    const known = await api(stack, 'POST', '/forgot-password', { body: { email } });
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual(unknown.body);

    const resetToken = tokenOf((await mailsTo(stack, email)).at(-1));
    const weak = await api(stack, 'POST', '/reset-password', { body: { token: resetToken, password: '123456789' } });
    expect(weak.body.error).toBe('weak password');

    const newPassword = 'a brand new long passphrase';
    const reset = await api(stack, 'POST', '/reset-password', { body: { token: resetToken, password: newPassword } });
    expect(reset.status).toBe(200);
    expect((await api(stack, 'GET', '/me', { token: oldSession })).status).toBe(401);
    expect((await api(stack, 'GET', '/me', { token: reset.body.token })).status).toBe(200);
    expect((await api(stack, 'POST', '/reset-password', { body: { token: resetToken, password: newPassword } })).body.error).toBe('invalid token');
    expect((await api(stack, 'POST', '/login', { body: { email, password: strongPassword } })).status).toBe(401);
    expect((await api(stack, 'POST', '/login', { body: { email, password: newPassword } })).status).toBe(200);
  });

  test('a reset link expires after an hour', async () => {
    const { email } = await signedInUser(stack);
    await api(stack, 'POST', '/forgot-password', { body: { email } });
    const resetToken = tokenOf((await mailsTo(stack, email)).at(-1));
    stack.deps.now = later(2);
    expect((await api(stack, 'POST', '/reset-password', { body: { token: resetToken, password: 'another fine passphrase' } })).body.error).toBe(
      'invalid token',
    );
  });

  test('a failing mail service gives the catalogued message', async () => {
    const { email } = await signedInUser(stack);
    const mailer = stack.deps.mailer;
    stack.deps.mailer = { send: () => Promise.reject(new Error('SES throttled')) };
    try {
      const response = await api(stack, 'POST', '/forgot-password', { body: { email } });
      expect(response).toMatchObject({
        status: 502,
        body: { error: 'password reset email failed', message: 'Failed to send password reset email. Please try again' },
      });
    } finally {
      stack.deps.mailer = mailer;
    }
  });
});

describe('rate limits', () => {
  test('sign-in attempts per e-mail are limited with Retry-After', async () => {
    const { email } = await signedInUser(stack);
    holdTheClock(stack);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 11; i++) {
      const response = await api(stack, 'POST', '/login', { body: { email, password: 'wrong password number ' + i } });
      statuses.push(response.status);
      retryAfter = response.headers.get('retry-after');
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Even the right password waits for the window to pass.
    expect((await api(stack, 'POST', '/login', { body: { email, password: strongPassword } })).status).toBe(429);
  });

  // Security audit M4: over the address's limit a reset request answered 429, so anyone could keep its owner from
  // resetting for an hour. Now the answer stays the same and nothing more is sent; the owner has the links sent.
  test('password-reset requests over the per-e-mail limit are answered the same and send nothing', async () => {
    const { email } = await signedInUser(stack);
    holdTheClock(stack);
    const responses = [];
    for (let i = 0; i < rateLimits.resetRequestPerEmail.limit + 2; i++) responses.push(await api(stack, 'POST', '/forgot-password', { body: { email } }));
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 202));
    expect(responses.map((r) => r.headers.get('retry-after'))).toEqual(responses.map(() => null));
    const resets = (await mailsTo(stack, email)).filter((mail) => mail.subject === 'Reset your Loopcast password');
    expect(resets).toHaveLength(rateLimits.resetRequestPerEmail.limit);
    // A link already sent still works.
    expect((await api(stack, 'POST', '/reset-password', { body: { token: tokenOf(resets.at(-1)), password: 'a brand new passphrase' } })).status).toBe(200);
  });

  // Per-IP limits: requests through `api` (the local origin) all count as 127.0.0.1, which the other tests of this
  // file share, so these play CloudFront for viewers of their own (see accounts-viewer-ip.test.ts).
  test('sign-in attempts per IP are limited with Retry-After, across e-mails; another IP still signs in', async () => {
    const { email } = await signedInUser(stack);
    holdTheClock(stack);
    const { limit } = rateLimits.loginPerIp;
    const viewer = '203.0.113.20';
    // A fresh e-mail each time, so only the per-IP limit can answer 429.
    const attempt = () => fromViewer(viewer, '/login', { email: uniqueEmail('ip'), password: 'not the password at all' });
    const statuses: number[] = [];
    for (let i = 0; i < limit; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual(Array.from({ length: limit }, () => 401));
    expectTooManyRequests(await attempt(), rateLimits.loginPerIp);
    // The right password from that IP waits too; from another IP the same account signs in.
    expect((await fromViewer(viewer, '/login', { email, password: strongPassword })).status).toBe(429);
    const elsewhere = await fromViewer('203.0.113.21', '/login', { email, password: strongPassword });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.token).toMatch(/^[\w-]{43}$/);
  }, 120_000); // every attempt spends the decoy scrypt time: about 15 s on two shared cores

  test('registrations per IP are limited with Retry-After, refused ones included; another IP still registers', async () => {
    holdTheClock(stack);
    const { limit } = rateLimits.registerPerIp;
    const viewer = '203.0.113.30';
    expect((await fromViewer(viewer, '/register', registration(uniqueEmail('ip')))).status).toBe(202);
    // Every attempt counts, also one the password policy refuses (cheap: nothing is hashed), so the rest of the
    // bucket fills quickly.
    const statuses: number[] = [];
    for (let i = 1; i < limit; i++) statuses.push((await fromViewer(viewer, '/register', registration(uniqueEmail('ip'), { password: 'short' }))).status);
    expect(statuses).toEqual(Array.from({ length: limit - 1 }, () => 422));
    const email = uniqueEmail('ip');
    expectTooManyRequests(await fromViewer(viewer, '/register', registration(email)), rateLimits.registerPerIp);
    expect(await mailsTo(stack, email)).toEqual([]);
    // Nothing was created: from another IP the same address registers.
    expect((await fromViewer('203.0.113.31', '/register', registration(email))).status).toBe(202);
    expect(await mailsTo(stack, email)).toHaveLength(1);
  }, 120_000); // every answer takes at least FLAT_RESPONSE_MS
});

/** A request CloudFront forwards for the viewer `ip`: the API's own endpoint with the viewer's address beside the
 * origin-verify secret. */
async function fromViewer(ip: string, path: string, body: unknown): Promise<ApiResult<Record<string, any>>> {
  const response = await fetch(`${stack.urls.apiDirect}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-viewer-address': ip, 'x-origin-verify': stack.originVerify },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** 429 with the catalogued answer and a Retry-After of whole seconds, no longer than the limit's window. */
function expectTooManyRequests(response: ApiResult<Record<string, any>>, { windowSeconds }: Limit): void {
  expect(response).toMatchObject({ status: 429, body: { error: 'too many requests', message: 'Too many attempts. Please wait a little and try again' } });
  const retryAfter = response.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}
