// Signed URLs for the library's pictures: an <img> cannot send the Bearer header, so the API hands out URLs that
// carry their own proof (HMAC over owner, item and expiry), valid for an hour and for that one picture.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_BASE } from '../../contract/routes';

export const MEDIA_URL_TTL_SECONDS = 3600;

const signature = (secret: string, userId: string, videoId: string, expires: number) =>
  createHmac('sha256', secret).update(`thumbnail\n${userId}\n${videoId}\n${expires}`).digest('base64url');

export function thumbnailUrl(secret: string, userId: string, videoId: string, now: Date): string {
  // Expiry rounded to the next 10 minutes, so the URL (and the browser's cache of it) stays the same a while.
  const expires = Math.ceil((now.getTime() / 1000 + MEDIA_URL_TTL_SECONDS) / 600) * 600;
  const query = new URLSearchParams({ u: userId, e: String(expires), s: signature(secret, userId, videoId, expires) });
  return `${API_BASE}/media/${encodeURIComponent(videoId)}/thumbnail?${query}`;
}

/** The owner the URL was signed for, or undefined when it is forged, altered or expired. */
export function verifyThumbnailUrl(secret: string, videoId: string, query: { u?: string; e?: string; s?: string }, now: Date): string | undefined {
  const expires = Number(query.e);
  if (!query.u || !query.s || !Number.isInteger(expires) || expires <= now.getTime() / 1000) return undefined;
  const expected = Buffer.from(signature(secret, query.u, videoId, expires));
  const given = Buffer.from(query.s);
  return expected.length === given.length && timingSafeEqual(expected, given) ? query.u : undefined;
}
