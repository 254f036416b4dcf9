// Browsers a user has signed in on (security audit M4): a sign-in, a confirmation or a reset link hands the browser
// a device token bound to the e-mail address (an HttpOnly cookie, lambdas/http/auth.ts). Sign-ins that present it
// have their own attempt budget, so strangers who spend an address's budget for unknown browsers (guessing stays
// slow) never keep its owner out of the browsers they use. The token is a random nonce and an HMAC of it with the
// address, so it cannot be made for another address and opens nothing by itself.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const mac = (secret: string, nonce: string, email: string) => createHmac('sha256', secret).update(`device\u0000${nonce}\u0000${email}`).digest('base64url');

/** A new device token for a browser that proved it knows the account of `email` (normalised). */
export function issueDeviceToken(email: string, secret: string): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${mac(secret, nonce, email)}`;
}

/** The device's id (its nonce) when the token was issued for `email`, else undefined. */
export function trustedDevice(token: string | undefined, email: string, secret: string): string | undefined {
  const [nonce, signature, ...rest] = (token ?? '').split('.');
  if (!nonce || !signature || rest.length || nonce.length > 64) return undefined;
  const expected = Buffer.from(mac(secret, nonce, email));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : undefined;
}
