// Per-IP rate limits count the viewer's address only when CloudFront vouches for it. In AWS the HTTP API's own
// execute-api endpoint is reachable without CloudFront, where a client may send any `x-viewer-address`; the
// handlers believe that header only beside CloudFront's `x-origin-verify` secret. The local stack has both ways in:
// `urls.api` (the local origin, CloudFront's part included) and `urls.apiDirect` (the API's own endpoint).
import { rateLimits } from '../../lambdas/core/accounts/rate-limits';
import type { LocalStack } from '../../local/stack';
import { holdTheClock, uniqueEmail } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());
afterEach(() => {
  stack.deps.now = () => new Date();
});

/** Password-reset requests per IP: cheap (an unknown e-mail sends nothing), a fresh e-mail each time so only the
 * per-IP limit can answer 429. */
const perIpLimit = rateLimits.resetRequestPerIp.limit;
let forged = 0;
const forgedAddress = () => `198.51.100.${++forged % 250}`;

async function forgotPassword(base: string, headers: Record<string, string> = {}): Promise<{ status: number; error?: string; retryAfter?: string }> {
  const response = await fetch(`${base}/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: uniqueEmail('ip') }),
  });
  const body = (await response.json()) as { error?: string };
  const retryAfter = response.headers.get('retry-after');
  return { status: response.status, ...(body.error ? { error: body.error } : {}), ...(retryAfter ? { retryAfter } : {}) };
}

/** The refusal: 429 'too many requests' with a Retry-After of whole seconds within the limit's window. */
const tooMany = { status: 429, error: 'too many requests', retryAfter: expect.stringMatching(/^\d+$/) };
function expectRetryAfterWithinWindow(result: { retryAfter?: string }): void {
  expect(Number(result.retryAfter)).toBeGreaterThan(0);
  expect(Number(result.retryAfter)).toBeLessThanOrEqual(rateLimits.resetRequestPerIp.windowSeconds);
}

async function statuses(count: number, request: () => Promise<{ status: number }>): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await request()).status);
  return result;
}

const accepted = (count: number) => Array.from({ length: count }, () => 202);

test('requests CloudFront vouches for keep a bucket per viewer', async () => {
  holdTheClock(stack);
  const viaCloudFront = (viewer: string) => () => forgotPassword(stack.urls.apiDirect, { 'x-viewer-address': viewer, 'x-origin-verify': stack.originVerify });
  expect(await statuses(perIpLimit, viaCloudFront('203.0.113.10'))).toEqual(accepted(perIpLimit));
  const refused = await viaCloudFront('203.0.113.10')();
  expect(refused).toEqual(tooMany);
  expectRetryAfterWithinWindow(refused);
  // Another viewer behind the same edge (the same TCP peer) is not held back by the first.
  expect(await statuses(3, viaCloudFront('203.0.113.11'))).toEqual(accepted(3));
});

// Security audit L11: the execute-api endpoint bypasses CloudFront (and its WAF); a request there without
// CloudFront's origin-verify value is refused outright, forged viewer address or not.
test("a direct request without CloudFront's value is refused, whatever address it claims", async () => {
  const refused = { status: 403, error: 'direct access refused' };
  expect(await forgotPassword(stack.urls.apiDirect, { 'x-viewer-address': forgedAddress() })).toEqual(refused);
  expect(await forgotPassword(stack.urls.apiDirect)).toEqual(refused);
  // A made-up origin-verify value (or a prefix of the real one) does not help either.
  expect(await forgotPassword(stack.urls.apiDirect, { 'x-viewer-address': forgedAddress(), 'x-origin-verify': 'guessed' })).toEqual(refused);
  expect(await forgotPassword(stack.urls.apiDirect, { 'x-viewer-address': forgedAddress(), 'x-origin-verify': stack.originVerify.slice(0, -1) })).toEqual(
    refused,
  );
  // The viewers CloudFront vouches for are served, with their own buckets.
  expect(await forgotPassword(stack.urls.apiDirect, { 'x-viewer-address': '203.0.113.12', 'x-origin-verify': stack.originVerify })).toEqual({ status: 202 });
});

test('through the local origin the client cannot choose its address either: both headers are overwritten', async () => {
  // All of these count as 127.0.0.1, whose bucket these requests spend.
  holdTheClock(stack);
  const forgedThroughOrigin = () => forgotPassword(stack.urls.api, { 'x-viewer-address': forgedAddress(), 'x-origin-verify': 'guessed' });
  const results = await statuses(perIpLimit + 1, forgedThroughOrigin);
  expect(results.at(-1)).toBe(429);
});
