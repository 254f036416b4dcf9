// Abuse of the account routes, as the security audit reproduced it.
// - M4: ten wrong passwords from anywhere locked the owner out for 13 minutes. Now guessing stays limited per
//   address (for browsers the account never signed in on), but the owner's own browser (its device cookie) still
//   signs in with the right password while a stranger is being refused.
// - M5: an older reset link still worked after a newer one was used.
// - L9: forgot-password and resend answered a few milliseconds faster for addresses without an account.
import { rateLimits } from '../../lambdas/core/accounts/rate-limits';
import { FLAT_RESPONSE_MS } from '../../lambdas/http/auth';
import type { LocalStack } from '../../local/stack';
import { api, holdTheClock, mailsTo, signedInUser, strongPassword, tokenOf, uniqueEmail, type ApiResult } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());
afterEach(() => {
  stack.deps.now = () => new Date();
});

/** A request CloudFront forwards for the viewer `ip` (the API's own endpoint with the origin-verify secret). */
async function fromViewer(ip: string, path: string, body: unknown, cookie?: string): Promise<ApiResult<Record<string, any>>> {
  const response = await fetch(`${stack.urls.apiDirect}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-viewer-address': ip, 'x-origin-verify': stack.originVerify, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** The device cookie a sign-in sets, as the browser would send it back to /login. */
const deviceCookieOf = (answer: ApiResult<unknown>) => {
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('loopcast_device='));
  expect(cookie).toMatch(/; Path=\/api\/login; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
  return cookie!.split(';')[0]!;
};

describe('sign-in guessing (M4)', () => {
  test("a stranger's wrong passwords never keep the owner's own browser out; guessing stays limited", async () => {
    holdTheClock(stack);
    const { email } = await signedInUser(stack, 'owner');
    const ownBrowser = deviceCookieOf(await fromViewer('198.51.100.1', '/login', { email, password: strongPassword }));

    // A stranger, from one address and then from many, spends every budget of this address for unknown browsers.
    const guesses: number[] = [];
    for (let i = 0; i < rateLimits.loginPerEmailAndIp.limit + 1; i++)
      guesses.push((await fromViewer('203.0.113.50', '/login', { email, password: `guess number ${i}` })).status);
    expect(guesses).toEqual([...Array.from({ length: rateLimits.loginPerEmailAndIp.limit }, () => 401), 429]);
    for (let i = 0; guesses.length < rateLimits.loginPerEmail.limit + 5; i++)
      guesses.push((await fromViewer(`203.0.113.${60 + i}`, '/login', { email, password: `guess ${i}` })).status);
    expect(guesses.at(-1)).toBe(429);
    // Even the right password gets nowhere from a browser the account does not know...
    expect((await fromViewer('203.0.113.99', '/login', { email, password: strongPassword })).status).toBe(429);

    // ...while the owner's browser signs in, from any address.
    const owner = await fromViewer('198.51.100.2', '/login', { email, password: strongPassword }, ownBrowser);
    expect(owner.status).toBe(200);
    expect(owner.body.token).toMatch(/^[\w-]{43}$/);
  }, 120_000);

  test('a device cookie counts only for its own account and its own attempts', async () => {
    holdTheClock(stack);
    const alice = await signedInUser(stack, 'alice');
    const bob = await signedInUser(stack, 'bob');
    const alicesBrowser = deviceCookieOf(await fromViewer('198.51.100.3', '/login', { email: alice.email, password: strongPassword }));
    // Spend Bob's budget for unknown browsers from one address.
    for (let i = 0; i < rateLimits.loginPerEmailAndIp.limit; i++) await fromViewer('203.0.113.70', '/login', { email: bob.email, password: `guess ${i}` });
    // Alice's cookie does not make Bob's sign-ins trusted.
    expect((await fromViewer('203.0.113.70', '/login', { email: bob.email, password: strongPassword }, alicesBrowser)).status).toBe(429);
    // Guessing with a trusted cookie is limited too, by its own budget.
    const statuses: number[] = [];
    for (let i = 0; i <= rateLimits.loginPerDevice.limit; i++)
      statuses.push((await fromViewer('198.51.100.4', '/login', { email: alice.email, password: `wrong ${i}` }, alicesBrowser)).status);
    expect(statuses.at(-1)).toBe(429);
  }, 120_000);
});

describe('reset links (M5)', () => {
  test('using a reset link makes every older one invalid', async () => {
    const { email } = await signedInUser(stack, 'resets');
    for (let i = 0; i < 2; i++) expect((await api(stack, 'POST', '/forgot-password', { body: { email } })).status).toBe(202);
    const [older, newer] = (await mailsTo(stack, email)).filter((mail) => mail.subject === 'Reset your Loopcast password').map(tokenOf);
    expect((await api(stack, 'POST', '/reset-password', { body: { token: newer, password: 'the newest passphrase' } })).status).toBe(200);
    expect(await api(stack, 'POST', '/reset-password', { body: { token: older, password: 'an attacker passphrase' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid token' },
    });
    expect((await api(stack, 'POST', '/login', { body: { email, password: 'the newest passphrase' } })).status).toBe(200);
    // A link asked for after the change works.
    await api(stack, 'POST', '/forgot-password', { body: { email } });
    const latest = tokenOf((await mailsTo(stack, email)).at(-1));
    expect((await api(stack, 'POST', '/reset-password', { body: { token: latest, password: 'yet another passphrase' } })).status).toBe(200);
  });
});

describe('timing (L9)', () => {
  async function timed(path: string, email: string, ip: string): Promise<number> {
    const started = performance.now();
    const answer = await fromViewer(ip, path, { email });
    expect(answer.status).toBe(202);
    return performance.now() - started;
  }

  test.each(['/forgot-password', '/confirm/resend'])(
    '%s takes as long for an address with an account as for one without',
    async (path) => {
      const existing = path === '/forgot-password' ? (await signedInUser(stack, 'timing')).email : uniqueEmail('pending');
      if (path === '/confirm/resend') {
        await api(stack, 'POST', '/register', {
          body: { displayName: 'Pending', email: existing, password: strongPassword, acceptTerms: true, ageConfirmed: true },
        });
      }
      const withAccount: number[] = [];
      const without: number[] = [];
      // Alternating, so load on the machine falls on both alike; 3 each stay under the per-address limit.
      for (let i = 0; i < 3; i++) {
        withAccount.push(await timed(path, existing, `192.0.2.${10 + i}`));
        without.push(await timed(path, uniqueEmail('nobody'), `192.0.2.${20 + i}`));
      }
      // Each side's quickest answer: the machine's load only ever adds time, so a side's minimum is what its path
      // takes (a median of 3 moved by 90 ms when the suite shared a loaded machine). An unpadded path answers
      // below the floor; a path whose work outlasts the padding has its quickest answer above the other's.
      expect(Math.min(...withAccount, ...without)).toBeGreaterThanOrEqual(FLAT_RESPONSE_MS - 5);
      expect(Math.abs(Math.min(...withAccount) - Math.min(...without))).toBeLessThan(FLAT_RESPONSE_MS / 4);
    },
    60_000,
  );
});
