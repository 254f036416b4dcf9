// The account page's API (issue 17, item 4) through the local stack's real HTTP API, with DynamoDB Local, s3rver,
// nginx-rtmp and a fake Stripe: name and language, a new e-mail address, a new password, the signed-in devices,
// the data export, and closing the account, after which a scan of the whole table and bucket finds nothing of the
// user. Every route's refusals too.
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { DynamoBillingStore } from '../../lambdas/adapters/dynamo/billing-store';
import { emailKey, userKey } from '../../lambdas/adapters/dynamo/keys';
import { rateLimits } from '../../lambdas/core/accounts/rate-limits';
import { confirmClosure } from '../../lambdas/core/accounts/closure';
import { PAYMENT_RETENTION_YEARS } from '../../lambdas/core/support/erasure';
import { billingPeriods, periodPriceCents, plans, stripeLookupKey } from '../../lambdas/core/plans';
import { closureContext } from '../../lambdas/wiring/account';
import type { LocalStack } from '../../local/stack';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe/server';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/server';
import { api, holdTheClock, mailsTo, signedInUser, strongPassword, tokenOf, uniqueEmail } from '../helpers/accounts';
import { createStream, creatorWithDestination } from '../helpers/creators';
import { holdTranscodes, type HeldTranscodes } from '../helpers/held-transcodes';
import { leftoversOf } from '../helpers/leftovers';
import { makeClip, uploadWithTus, waitForStreamStatus } from '../helpers/media';
import { noMediaWithin } from '../helpers/player';
import { listenRealtime } from '../helpers/realtime';
import { startTestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

let fake: FakeStripe;
let telegram: FakeTelegram;
let stack: LocalStack;
let held: HeldTranscodes;
const realNow = () => new Date();

beforeAll(async () => {
  fake = await startFakeStripe();
  for (const period of billingPeriods) {
    fake.seedPrice({
      lookupKey: stripeLookupKey('basic', period),
      unitAmount: periodPriceCents(plans.basic, period)!,
      productName: 'basic',
      interval: period === 'year' ? 'year' : 'month',
      intervalCount: { month: 1, '3months': 3, '6months': 6, year: 1 }[period],
    });
  }
  telegram = await startFakeTelegram();
  stack = await startTestStack({
    rtmp: true,
    stripe: { secretKey: fake.apiKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url },
    telegram: { botToken: telegram.botToken, botUsername: telegram.botUsername, webhookSecret: randomBytes(24).toString('hex'), apiBase: telegram.apiBase },
  });
  held = holdTranscodes(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await fake?.stop();
  await telegram?.stop();
});
afterEach(() => {
  stack.deps.now = realNow;
});

const label = (name: string) => `${name}-${randomBytes(3).toString('hex')}`;
const later = (hours: number) => () => new Date(Date.now() + hours * 3600_000);
const login = (email: string, password = strongPassword, userAgent?: string) =>
  api(stack, 'POST', '/login', { body: { email, password }, ...(userAgent ? { headers: { 'user-agent': userAgent } } : {}) });
const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

async function claimOf(email: string): Promise<string | undefined> {
  const { Item } = await stack.deps.db.send(new GetCommand({ TableName: stack.config.tables.app, Key: emailKey(email) }));
  return Item?.userId as string | undefined;
}

/** Spends a rate limit's whole budget with `attempt`, then expects the next one refused with Retry-After, the clock
 * held still from here to the test's end. */
async function exhaust(limit: number, attempt: () => Promise<{ status: number }>) {
  holdTheClock(stack);
  for (let i = 0; i < limit; i++) expect((await attempt()).status).not.toBe(429);
  const refused = await attempt();
  expect(refused.status).toBe(429);
  return refused as { status: number; body: any; headers: Headers };
}

describe('signed-in routes refuse anyone signed out', () => {
  test.each([
    ['GET', '/account'],
    ['PATCH', '/account'],
    ['POST', '/account/email'],
    ['POST', '/account/password'],
    ['GET', '/account/sessions'],
    ['POST', '/account/sessions/sign-out-others'],
    ['DELETE', '/account/sessions/x'],
    ['GET', '/account/export'],
    ['POST', '/account/close'],
  ])('%s %s answers 401', async (method, path) => {
    const answer = await api(stack, method, path, { token: 'not-a-session', ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
    expect(answer).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });
});

describe('name and language', () => {
  test('GET /account shows the user; PATCH changes the name and the language of e-mails', async () => {
    const ana = await signedInUser(stack, label('ana'));
    expect((await api(stack, 'GET', '/account', { token: ana.token })).body).toEqual({
      user: expect.objectContaining({ id: ana.userId, email: ana.email, status: 'active', language: 'en' }),
    });
    const changed = await api(stack, 'PATCH', '/account', { token: ana.token, body: { displayName: '  Ana Lofi  ', language: 'ua' } });
    expect(changed).toMatchObject({ status: 200, body: { user: { displayName: 'Ana Lofi', language: 'ua' } } });
    expect((await api(stack, 'GET', '/me', { token: ana.token })).body.user).toMatchObject({ displayName: 'Ana Lofi', language: 'ua' });
    // E-mails now come in Ukrainian, with Ukrainian links.
    await api(stack, 'POST', '/account/close', { token: ana.token, body: { password: strongPassword } });
    const mail = (await mailsTo(stack, ana.email)).at(-1);
    expect(mail?.subject).toBe('Підтвердіть закриття акаунта Loopcast');
    expect(mail?.link).toContain('/ua/app/auth/close-account?token=');
  });

  test.each([
    ['nothing to change', {}],
    ['an empty name', { displayName: '   ' }],
    ['a name with control characters', { displayName: 'Ana\u0007' }],
    ['a name longer than 80 characters', { displayName: 'a'.repeat(81) }],
    ['an unknown language', { language: 'fr' }],
  ])('PATCH refuses %s with 400 invalid request', async (_, body) => {
    const bob = await signedInUser(stack, label('bob'));
    expect(await api(stack, 'PATCH', '/account', { token: bob.token, body })).toMatchObject({ status: 400, body: { error: 'invalid request' } });
  });
});

describe('e-mail change', () => {
  test('a link to the new address moves the account there; the old address is told and freed', async () => {
    const cleo = await signedInUser(stack, label('cleo'));
    const newEmail = uniqueEmail('cleo-new');
    const asked = await api(stack, 'POST', '/account/email', { token: cleo.token, body: { email: newEmail.toUpperCase(), password: strongPassword } });
    expect(asked).toMatchObject({ status: 202, body: { pendingEmail: { email: newEmail } } });
    expect((await api(stack, 'GET', '/account', { token: cleo.token })).body).toMatchObject({ user: { email: cleo.email }, pendingEmail: { email: newEmail } });
    const [link] = await mailsTo(stack, newEmail);
    expect(link).toMatchObject({ subject: 'Confirm your new e-mail for Loopcast', link: expect.stringContaining('/app/auth/change-email?token=') });
    // Until the link is followed nothing changes.
    expect((await login(cleo.email)).status).toBe(200);

    const confirmed = await api(stack, 'POST', '/account/email/confirm', { body: { token: tokenOf(link) } });
    expect(confirmed).toMatchObject({ status: 200, body: { user: { id: cleo.userId, email: newEmail } } });
    const told = (await mailsTo(stack, cleo.email)).at(-1);
    expect(told?.subject).toBe('Your Loopcast e-mail was changed');
    expect(told?.text).toContain(`${newEmail[0]}•••@example.com`);
    expect(told?.text).not.toContain(newEmail);
    expect((await login(newEmail)).status).toBe(200);
    expect((await login(cleo.email)).body.error).toBe('invalid credentials');
    expect(await claimOf(newEmail)).toBe(cleo.userId);
    expect(await claimOf(cleo.email)).toBeUndefined();
    // The session that asked stays signed in; the link works once.
    expect((await api(stack, 'GET', '/me', { token: cleo.token })).body.user.email).toBe(newEmail);
    expect((await api(stack, 'GET', '/account', { token: cleo.token })).body.pendingEmail).toBeUndefined();
    expect(await api(stack, 'POST', '/account/email/confirm', { body: { token: tokenOf(link) } })).toMatchObject({
      status: 400,
      body: { error: 'invalid token' },
    });
  });

  test('a taken address gets the same answer, and its owner a note instead of a link', async () => {
    const dan = await signedInUser(stack, label('dan'));
    const owner = await signedInUser(stack, label('owner'));
    const asked = await api(stack, 'POST', '/account/email', { token: dan.token, body: { email: owner.email, password: strongPassword } });
    expect(asked).toMatchObject({ status: 202, body: { pendingEmail: { email: owner.email } } });
    expect((await api(stack, 'GET', '/account', { token: dan.token })).body.pendingEmail).toMatchObject({ email: owner.email });
    const note = (await mailsTo(stack, owner.email)).at(-1);
    expect(note?.subject).toBe('This address already has a Loopcast account');
    expect(note?.link).not.toContain('token=');
    expect(await claimOf(owner.email)).toBe(owner.userId);
  });

  test('an address taken between the request and the link is refused at the link (409 email taken)', async () => {
    const eve = await signedInUser(stack, label('eve'));
    const wanted = uniqueEmail('wanted');
    await api(stack, 'POST', '/account/email', { token: eve.token, body: { email: wanted, password: strongPassword } });
    const link = (await mailsTo(stack, wanted)).at(-1);
    expect(
      (
        await api(stack, 'POST', '/register', {
          body: { displayName: 'Other', email: wanted, password: strongPassword, acceptTerms: true, ageConfirmed: true },
        })
      ).status,
    ).toBeLessThan(300);
    expect(await api(stack, 'POST', '/account/email/confirm', { body: { token: tokenOf(link) } })).toMatchObject({
      status: 409,
      body: { error: 'email taken', message: 'This e-mail address already belongs to another Loopcast account' },
    });
    expect((await api(stack, 'GET', '/me', { token: eve.token })).body.user.email).toBe(eve.email);
  });

  test('a newer request replaces the older link; an expired link is refused', async () => {
    const fay = await signedInUser(stack, label('fay'));
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await api(stack, 'POST', '/account/email', { token: fay.token, body: { email: first, password: strongPassword } });
    await api(stack, 'POST', '/account/email', { token: fay.token, body: { email: second, password: strongPassword } });
    expect((await api(stack, 'POST', '/account/email/confirm', { body: { token: tokenOf((await mailsTo(stack, first)).at(-1)) } })).body.error).toBe(
      'invalid token',
    );
    stack.deps.now = later(49);
    expect((await api(stack, 'POST', '/account/email/confirm', { body: { token: tokenOf((await mailsTo(stack, second)).at(-1)) } })).body.error).toBe(
      'invalid token',
    );
  });

  test.each([
    ['the wrong current password', () => ({ email: uniqueEmail(), password: 'not the password' }), 403, 'wrong password'],
    ["the account's own address", (email: string) => ({ email, password: strongPassword }), 422, 'same email'],
    ['a disposable address', () => ({ email: 'someone@mailinator.com', password: strongPassword }), 422, 'disposable email'],
    ['a malformed address', () => ({ email: 'not-an-email', password: strongPassword }), 422, 'validation.bad_email'],
    ['no password', () => ({ email: uniqueEmail() }), 400, 'invalid request'],
  ])('refuses %s', async (_, body, status, key) => {
    const gus = await signedInUser(stack, label('gus'));
    const answer = await api(stack, 'POST', '/account/email', { token: gus.token, body: body(gus.email) });
    expect(answer).toMatchObject({ status, body: { error: key } });
    expect((await api(stack, 'GET', '/account', { token: gus.token })).body.pendingEmail).toBeUndefined();
  });

  test('links are rate-limited per account', async () => {
    const hal = await signedInUser(stack, label('hal'));
    const refused = await exhaust(rateLimits.emailChangePerUser.limit, () =>
      api(stack, 'POST', '/account/email', { token: hal.token, body: { email: uniqueEmail(), password: strongPassword } }),
    );
    expect(refused.body.error).toBe('too many requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('a malformed or unknown link is refused', async () => {
    expect(await api(stack, 'POST', '/account/email/confirm', { body: { token: 'short' } })).toMatchObject({ status: 400, body: { error: 'invalid request' } });
    expect(await api(stack, 'POST', '/account/email/confirm', { body: { token: 'x'.repeat(43) } })).toMatchObject({
      status: 400,
      body: { error: 'invalid token' },
    });
  });
});

describe('password change', () => {
  test('asks for the current password, ends every other session and keeps this one', async () => {
    const ida = await signedInUser(stack, label('ida'));
    const other = (await login(ida.email, strongPassword, firefoxOnLinux)).body.token as string;
    const newPassword = 'a much better passphrase 42';
    const changed = await api(stack, 'POST', '/account/password', { token: ida.token, body: { currentPassword: strongPassword, newPassword } });
    expect(changed).toMatchObject({ status: 200, body: { sessionsEnded: 1 } });
    expect((await api(stack, 'GET', '/me', { token: other })).status).toBe(401);
    expect((await api(stack, 'GET', '/me', { token: ida.token })).status).toBe(200);
    expect((await login(ida.email)).body.error).toBe('invalid credentials');
    expect((await login(ida.email, newPassword)).status).toBe(200);
    expect((await mailsTo(stack, ida.email)).at(-1)).toMatchObject({
      subject: 'Your Loopcast password was changed',
      link: expect.stringContaining('/app/auth/forgot-password'),
    });
  });

  test.each([
    ['a wrong current password', { currentPassword: 'wrong wrong wrong', newPassword: 'a much better passphrase 42' }, 403, 'wrong password'],
    ['a weak new password', { currentPassword: strongPassword, newPassword: 'password123' }, 422, 'weak password'],
    ['the same password', { currentPassword: strongPassword, newPassword: strongPassword }, 422, 'same password'],
    ['a missing field', { currentPassword: strongPassword }, 400, 'invalid request'],
  ])('refuses %s and changes nothing', async (_, body, status, key) => {
    const jan = await signedInUser(stack, label('jan'));
    const other = (await login(jan.email)).body.token as string;
    expect(await api(stack, 'POST', '/account/password', { token: jan.token, body })).toMatchObject({ status, body: { error: key } });
    expect((await api(stack, 'GET', '/me', { token: other })).status).toBe(200);
    expect((await login(jan.email)).status).toBe(200);
  });

  test('guesses of the current password are rate-limited per account, whatever the route', async () => {
    const kim = await signedInUser(stack, label('kim'));
    let i = 0;
    const refused = await exhaust(rateLimits.passwordCheckPerUser.limit, () =>
      api(stack, 'POST', '/account/password', {
        token: kim.token,
        body: { currentPassword: `guess number ${i++}`, newPassword: 'a much better passphrase 42' },
      }),
    );
    expect(refused.body.error).toBe('too many requests');
    // The right password is refused too until the window ends, on every route that asks for it: the budget is the
    // account's.
    expect(
      (
        await api(stack, 'POST', '/account/password', {
          token: kim.token,
          body: { currentPassword: strongPassword, newPassword: 'a much better passphrase 42' },
        })
      ).status,
    ).toBe(429);
    expect((await api(stack, 'POST', '/account/close', { token: kim.token, body: { password: strongPassword } })).status).toBe(429);
    expect((await api(stack, 'POST', '/account/email', { token: kim.token, body: { email: uniqueEmail(), password: strongPassword } })).status).toBe(429);
    expect(await mailsTo(stack, kim.email).then((mails) => mails.filter((mail) => !mail.link.includes('/confirm?')))).toEqual([]);
  });
});

describe('signed-in devices', () => {
  test('lists the sessions (this one first) with device, IP and last use; signs one out, then all others', async () => {
    const lea = await signedInUser(stack, label('lea'));
    const firefox = (await login(lea.email, strongPassword, firefoxOnLinux)).body.token as string;
    const iphone = (await login(lea.email, strongPassword, safariOnIphone)).body.token as string;
    // A request more than an hour later records the session's use.
    stack.deps.now = later(2);
    expect((await api(stack, 'GET', '/me', { token: firefox })).status).toBe(200);
    const listed = await api(stack, 'GET', '/account/sessions', { token: iphone });
    expect(listed.status).toBe(200);
    const sessions = listed.body.sessions as {
      id: string;
      current: boolean;
      lastUsedAt?: string;
      device: Record<string, unknown>;
      ip: string;
      createdAt: string;
    }[];
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({
      current: true,
      device: { browser: 'Safari', os: 'iOS', mobile: true },
      ip: expect.stringMatching(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/),
    });
    const firefoxSession = sessions.find((session) => session.device.browser === 'Firefox');
    expect(firefoxSession).toMatchObject({ current: false, device: { os: 'Linux', mobile: false }, lastUsedAt: expect.any(String) });
    expect(Date.parse(firefoxSession!.lastUsedAt!)).toBeGreaterThan(Date.now() + 3600_000);
    expect(JSON.stringify(sessions)).not.toMatch(/tokenHash|[0-9a-f]{64}/);

    expect(await api(stack, 'DELETE', `/account/sessions/${firefoxSession!.id}`, { token: iphone })).toMatchObject({ status: 204 });
    expect((await api(stack, 'GET', '/me', { token: firefox })).status).toBe(401);
    expect(await api(stack, 'DELETE', `/account/sessions/${firefoxSession!.id}`, { token: iphone })).toMatchObject({
      status: 404,
      body: { error: 'not found' },
    });

    expect(await api(stack, 'POST', '/account/sessions/sign-out-others', { token: iphone })).toMatchObject({ status: 200, body: { sessionsEnded: 1 } });
    expect((await api(stack, 'GET', '/me', { token: lea.token })).status).toBe(401);
    expect((await api(stack, 'GET', '/account/sessions', { token: iphone })).body.sessions).toEqual([expect.objectContaining({ current: true })]);
  });

  test("another user's device cannot be signed out", async () => {
    const max = await signedInUser(stack, label('max'));
    const ned = await signedInUser(stack, label('ned'));
    const [nedSession] = (await api(stack, 'GET', '/account/sessions', { token: ned.token })).body.sessions;
    expect(await api(stack, 'DELETE', `/account/sessions/${nedSession.id}`, { token: max.token })).toMatchObject({ status: 404, body: { error: 'not found' } });
    expect((await api(stack, 'GET', '/me', { token: ned.token })).status).toBe(200);
  });
});

describe('realtime sockets end with their sessions (security audit L5)', () => {
  /** A browser tab's realtime socket, as the web app opens it with the session's ticket. */
  async function socketOf(token: string): Promise<WebSocket> {
    const { body } = await api(stack, 'GET', '/ws', { token });
    const socket = new WebSocket(`${body.url}?token=${encodeURIComponent(body.token)}`);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('refused')), { once: true });
    });
    return socket;
  }
  const closed = (socket: WebSocket) =>
    new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) return resolve();
      socket.addEventListener('close', () => resolve(), { once: true });
    });

  test('a password change and "sign out everywhere else" close the other sessions\' sockets and keep this one\'s', async () => {
    const uma = await signedInUser(stack, label('uma'));
    const [second, third] = [(await login(uma.email)).body.token as string, (await login(uma.email)).body.token as string];
    const [mine, theirs] = [await socketOf(uma.token), await socketOf(second)];
    expect(
      (
        await api(stack, 'POST', '/account/password', {
          token: uma.token,
          body: { currentPassword: strongPassword, newPassword: 'a much better passphrase 42' },
        })
      ).status,
    ).toBe(200);
    await closed(theirs);
    expect(mine.readyState).toBe(WebSocket.OPEN);

    const again = (await login(uma.email, 'a much better passphrase 42')).body.token as string;
    const [fresh, device] = [await socketOf(again), await socketOf(uma.token)];
    expect((await api(stack, 'POST', '/account/sessions/sign-out-others', { token: again })).status).toBe(200);
    await closed(device);
    expect(fresh.readyState).toBe(WebSocket.OPEN);
    expect((await api(stack, 'GET', '/me', { token: third })).status).toBe(401);
    fresh.close();
    mine.close();
  });

  test("signing one device out closes that device's socket only", async () => {
    const vic = await signedInUser(stack, label('vic'));
    const phone = (await login(vic.email, strongPassword, safariOnIphone)).body.token as string;
    const [mine, theirs] = [await socketOf(vic.token), await socketOf(phone)];
    const { sessions } = (await api(stack, 'GET', '/account/sessions', { token: vic.token })).body as { sessions: { id: string; current: boolean }[] };
    expect((await api(stack, 'DELETE', `/account/sessions/${sessions.find((s) => !s.current)!.id}`, { token: vic.token })).status).toBe(204);
    await closed(theirs);
    expect(mine.readyState).toBe(WebSocket.OPEN);
    mine.close();
  });
});

describe('data export', () => {
  test('a JSON download of the account, its sessions, media, destinations (no keys) and streams', async () => {
    const olga = await creatorWithDestination(stack, label('olga'));
    const stream = await createStream(stack, olga, { title: 'Rain radio' });
    expect((await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token: olga.token })).status).toBe(200);
    await waitForStreamStatus(stack, olga.token, stream.body.id, 'started', 90_000);
    expect((await api(stack, 'POST', `/streams/${stream.body.id}/stop`, { token: olga.token })).status).toBe(200);
    const answer = await api(stack, 'GET', '/account/export', { token: olga.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="loopcast-account-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(answer.body).toMatchObject({
      format: 'loopcast-account-export/1',
      account: { id: olga.userId, email: olga.email, termsAcceptedAt: expect.any(String), confirmedAt: expect.any(String) },
      sessions: [expect.objectContaining({ userAgent: expect.any(String), ip: expect.any(String) })],
      media: [expect.objectContaining({ id: olga.videoId, status: 'ready' })],
      destinations: [expect.objectContaining({ id: olga.channelId, keyHint: expect.stringMatching(/^••••/), storedSecret: 'stream key' })],
      streams: [expect.objectContaining({ id: stream.body.id, title: 'Rain radio' })],
      notifications: { email: true },
      payments: [],
      supportActions: [],
    });
    // The stream's history: its start, media reaching the destination, its stop.
    expect(answer.body.streams[0].history.map((event: { kind: string }) => event.kind)).toEqual(expect.arrayContaining(['started', 'live', 'stopped']));
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(olga.key);
    expect(text).not.toMatch(/passwordHash|sealed|scrypt\$/);
  }, 180_000);

  test('is rate-limited per account', async () => {
    const pia = await signedInUser(stack, label('pia'));
    expect((await exhaust(rateLimits.exportPerUser.limit, () => api(stack, 'GET', '/account/export', { token: pia.token }))).body.error).toBe(
      'too many requests',
    );
  });
});

/** A tus upload created and given its first bytes, never finished: a multipart upload, `.info` and `.part` objects. */
async function unfinishedUpload(token: string): Promise<void> {
  const metadata = [
    ['filename', 'half.mp4'],
    ['filetype', 'video/mp4'],
    ['kind', 'video'],
  ]
    .map(([k, v]) => `${k} ${Buffer.from(v!).toString('base64')}`)
    .join(',');
  const created = await fetch(`${stack.urls.api}/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': String(8 * 1024 * 1024), 'upload-metadata': metadata },
  });
  expect(created.status).toBe(201);
  const patched = await fetch(new URL(created.headers.get('location')!, stack.urls.api), {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: randomBytes(64 * 1024),
  });
  expect(patched.status).toBe(204);
}

describe('closing the account', () => {
  test('refuses a wrong password and rate-limits the e-mails', async () => {
    const quin = await signedInUser(stack, label('quin'));
    expect(
      (await exhaust(rateLimits.closurePerUser.limit, () => api(stack, 'POST', '/account/close', { token: quin.token, body: { password: strongPassword } })))
        .body.error,
    ).toBe('too many requests');
    // Only the newest link works; asking changed nothing.
    const links = (await mailsTo(stack, quin.email)).filter((mail) => mail.link.includes('close-account'));
    expect(links).toHaveLength(rateLimits.closurePerUser.limit);
    expect(await api(stack, 'POST', '/account/close/confirm', { body: { token: tokenOf(links[0]) } })).toMatchObject({
      status: 400,
      body: { error: 'invalid token' },
    });
    expect((await api(stack, 'GET', '/me', { token: quin.token })).status).toBe(200);

    const ray = await signedInUser(stack, label('ray'));
    expect(await api(stack, 'POST', '/account/close', { token: ray.token, body: { password: 'not the password' } })).toMatchObject({
      status: 403,
      body: { error: 'wrong password' },
    });
    expect(await api(stack, 'POST', '/account/close', { token: ray.token, body: {} })).toMatchObject({ status: 400, body: { error: 'invalid request' } });
    expect((await mailsTo(stack, ray.email)).filter((mail) => mail.link.includes('close-account'))).toEqual([]);
  });

  test('a malformed, unknown or expired link is refused', async () => {
    const rua = await signedInUser(stack, label('rua'));
    await api(stack, 'POST', '/account/close', { token: rua.token, body: { password: strongPassword } });
    expect(await api(stack, 'POST', '/account/close/confirm', { body: { token: 'short' } })).toMatchObject({ status: 400, body: { error: 'invalid request' } });
    expect(await api(stack, 'POST', '/account/close/confirm', { body: { token: 'y'.repeat(43) } })).toMatchObject({
      status: 400,
      body: { error: 'invalid token' },
    });
    stack.deps.now = later(25);
    expect(await api(stack, 'POST', '/account/close/confirm', { body: { token: tokenOf((await mailsTo(stack, rua.email)).at(-1)) } })).toMatchObject({
      status: 400,
      body: { error: 'invalid token' },
    });
    stack.deps.now = realNow;
    expect((await api(stack, 'GET', '/me', { token: rua.token })).status).toBe(200);
  });

  test('stops the streams, deletes everything, and leaves nothing of the user in the table or the bucket', async () => {
    const name = label('sam');
    const sam = await creatorWithDestination(stack, name);
    const stream = await createStream(stack, sam, { title: `${name} loop` });
    expect((await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token: sam.token })).status).toBe(200);
    await waitFor(
      'stream live',
      async () => (await api(stack, 'GET', `/streams/${stream.body.id}`, { token: sam.token })).body.status,
      (status) => status === 'started',
      90_000,
    );
    // Everything else an account leaves around: a second device, a realtime connection, a pending new address,
    // an unfinished upload, a finished one still being transcoded (its outcome held until after the closure).
    await login(sam.email, strongPassword, firefoxOnLinux);
    const realtime = await listenRealtime(stack, sam.token);
    const pendingAddress = uniqueEmail('sam-next');
    expect((await api(stack, 'POST', '/account/email', { token: sam.token, body: { email: pendingAddress, password: strongPassword } })).status).toBe(202);
    await unfinishedUpload(sam.token);
    // A Telegram link started and not yet followed in Telegram.
    expect((await api(stack, 'POST', '/notifications/telegram', { token: sam.token })).status).toBe(200);
    held.hold(sam.userId);
    const encodingId = await uploadWithTus(stack, sam.token, (await makeClip({ seconds: 2 })).bytes, {
      filename: 'late.mp4',
      filetype: 'video/mp4',
      kind: 'video',
    });
    await held.ended(encodingId);

    const asked = await api(stack, 'POST', '/account/close', { token: sam.token, body: { password: strongPassword } });
    expect(asked).toMatchObject({ status: 202, body: { pendingClosure: { email: sam.email, expiresAt: expect.any(String) } } });
    const link = (await mailsTo(stack, sam.email)).at(-1);
    expect(link).toMatchObject({ subject: 'Confirm closing your Loopcast account', link: expect.stringContaining('/app/auth/close-account?token=') });
    // Asking alone changes nothing.
    expect((await api(stack, 'GET', `/streams/${stream.body.id}`, { token: sam.token })).body.status).toBe('started');

    // The link may be opened in a browser that is not signed in.
    expect(await api(stack, 'POST', '/account/close/confirm', { body: { token: tokenOf(link) } })).toMatchObject({ status: 200, body: { closed: true } });
    expect(await noMediaWithin(`${stack.urls.rtmp}/${sam.key}`, 5)).toBe(true);
    await waitFor(
      'lifecycle execution to end',
      async () => stack.streamRunner.children.length,
      (count) => count === 0,
      30_000,
    );
    // The held transcode finishes after its item is gone: what it wrote is removed.
    await held.release(sam.userId);
    realtime.close();

    expect((await api(stack, 'GET', '/me', { token: sam.token })).status).toBe(401);
    expect((await login(sam.email)).body.error).toBe('invalid credentials');
    expect(await api(stack, 'POST', '/account/close/confirm', { body: { token: tokenOf(link) } })).toMatchObject({
      status: 400,
      body: { error: 'invalid token' },
    });
    expect((await mailsTo(stack, sam.email)).at(-1)).toMatchObject({ subject: 'Your Loopcast account is closed' });

    await new Promise((resolve) => setTimeout(resolve, 2_000)); // anything that would still write, has
    const left = await leftoversOf(stack, [sam.userId, sam.email, name, pendingAddress, sam.key]);
    expect(left).toEqual({ items: [], objects: [], uploads: [] });
    // The address is free for a new account.
    expect(await claimOf(sam.email)).toBeUndefined();
  }, 240_000);

  test("a paying account's subscription is canceled at Stripe; only the payment records the law requires stay", async () => {
    const name = label('tia');
    const tia = await signedInUser(stack, name);
    const started = await api(stack, 'POST', '/billing/checkout', { token: tia.token, body: { plan: 'basic', period: 'month' } });
    const outcome = fake.completeCheckout(/cs_test_[A-Za-z0-9]+/.exec(started.body.url)![0]);
    for (const delivery of outcome.events) expect((await fake.deliver(delivery, `${stack.urls.api}/billing/webhook`)).status).toBe(200);
    expect((await api(stack, 'GET', '/subscription', { token: tia.token })).body).toMatchObject({ plan: 'basic', state: 'active' });

    // Where payments are not configured, closing refuses before it changes anything.
    const withoutStripe = await closureContext({ ...stack.deps, paymentProvider: async () => undefined });
    await api(stack, 'POST', '/account/close', { token: tia.token, body: { password: strongPassword } });
    const link = tokenOf((await mailsTo(stack, tia.email)).at(-1));
    await expect(confirmClosure(withoutStripe, link)).rejects.toMatchObject({ key: 'payment provider missing configuration' });
    expect((await api(stack, 'GET', '/me', { token: tia.token })).status).toBe(200);

    expect((await api(stack, 'POST', '/account/close/confirm', { body: { token: link } })).status).toBe(200);
    expect((await new Stripe(fake.apiKey, fake.clientOptions).subscriptions.retrieve(outcome.subscription.id)).status).toBe('canceled');
    const left = await leftoversOf(stack, [tia.userId, tia.email, name]);
    expect(left.objects).toEqual([]);
    expect(left.items).toEqual([
      expect.objectContaining({ pk: userKey(tia.userId).pk, sk: expect.stringMatching(/^PAYMENT#in_/), expiresAt: expect.any(Number) }),
    ]);
    const paid = (await new DynamoBillingStore(stack.deps.db, stack.config.tables.app).payments(tia.userId))[0]!;
    const retention = new Date(paid.paidAt);
    retention.setUTCFullYear(retention.getUTCFullYear() + PAYMENT_RETENTION_YEARS);
    expect(left.items[0]!.expiresAt).toBe(Math.floor(retention.getTime() / 1000));
    expect(JSON.stringify(left.items[0])).not.toContain(tia.email);
  }, 60_000);
});
