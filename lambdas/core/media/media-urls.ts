// Signed URLs for pictures: an <img> cannot send the Bearer header, so the API hands out URLs that carry their own
// proof (HMAC over the kind of picture, its owner, its item and an expiry), valid for an hour and for that picture:
// a library item's thumbnail, a running stream's latest preview frame, or a stream's own thumbnail for YouTube.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_BASE } from '../../contract/routes';

export const MEDIA_URL_TTL_SECONDS = 3600;

export type PictureKind = 'thumbnail' | 'preview' | 'stream-thumbnail';

const signature = (secret: string, kind: PictureKind, userId: string, id: string, expires: number) =>
  createHmac('sha256', secret).update(`${kind}\n${userId}\n${id}\n${expires}`).digest('base64url');

export function pictureUrl(secret: string, kind: PictureKind, userId: string, id: string, now: Date): string {
  // Expiry rounded to the next 10 minutes, so the URL (and the browser's cache of it) stays the same a while.
  const expires = Math.ceil((now.getTime() / 1000 + MEDIA_URL_TTL_SECONDS) / 600) * 600;
  const query = new URLSearchParams({ u: userId, e: String(expires), s: signature(secret, kind, userId, id, expires) });
  return `${API_BASE}/media/${encodeURIComponent(id)}/${kind}?${query}`;
}

/** The owner the URL was signed for, or undefined when it is forged, altered, expired or for another picture. */
export function verifyPictureUrl(secret: string, kind: PictureKind, id: string, query: { u?: string; e?: string; s?: string }, now: Date): string | undefined {
  const expires = Number(query.e);
  if (!query.u || !query.s || !Number.isInteger(expires) || expires <= now.getTime() / 1000) return undefined;
  const expected = Buffer.from(signature(secret, kind, query.u, id, expires));
  const given = Buffer.from(query.s);
  return expected.length === given.length && timingSafeEqual(expected, given) ? query.u : undefined;
}
