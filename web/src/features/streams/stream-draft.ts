// The stream form's state and what it sends. Pure.
import type { Privacy, Stream, StreamInput } from './api/streams-api';
import { browserTimeZone, rowsOf, timesOf, type RestartTimeRow } from './restart-times';

export interface StreamDraft {
  title: string;
  description: string;
  /** YouTube broadcasts' privacy; other destinations ignore it. */
  privacy: Privacy;
  videoId: string;
  /** Several videos played one after another instead of `videoId`, when `on`. */
  playlist: { on: boolean; videoIds: string[]; shuffle: boolean };
  /** '' plays the video's own sound. */
  audioId: string;
  channelIds: string[];
  restartTimes: RestartTimeRow[];
  timeZone: string;
  /** As typed in the number field: minutes of bad health before the stream needs attention. */
  attentionMinutes: string;
}

/**
 * The attention time the API accepts (PATCH and POST /streams, `attentionMinutes`), and the one it gives streams that
 * never set theirs (DEFAULT_ATTENTION_MINUTES of lambdas/core/streams/stream.ts, whose module would bring zod into the
 * page's bundle; stream-draft.test.ts checks they agree).
 */
export const ATTENTION_MINUTES = { min: 1, max: 60, default: 5 } as const;

/** A stream's settings to edit, or a new stream's defaults (public, no restarts, the browser's time zone, attention
 * after 5 minutes). */
export const draftOf = (stream?: Stream): StreamDraft => ({
  title: stream?.title ?? '',
  description: stream?.description ?? '',
  privacy: stream?.privacy ?? 'public',
  videoId: stream?.videoId ?? '',
  playlist: {
    on: !!stream?.playlist,
    videoIds: stream?.playlist?.videoIds ?? (stream?.videoId ? [stream.videoId] : []),
    shuffle: stream?.playlist?.shuffle ?? false,
  },
  audioId: stream?.audioId ?? '',
  channelIds: stream?.channelIds ?? [],
  restartTimes: rowsOf(stream?.restartTimes ?? []),
  timeZone: stream?.timeZone ?? browserTimeZone(),
  attentionMinutes: String(stream?.attentionMinutes ?? ATTENTION_MINUTES.default),
});

export const inputOf = (draft: StreamDraft): StreamInput => ({
  title: draft.title.trim(),
  description: draft.description.trim(),
  privacy: draft.privacy,
  videoId: draft.playlist.on ? (draft.playlist.videoIds[0] ?? '') : draft.videoId,
  playlist: draft.playlist.on ? { videoIds: draft.playlist.videoIds, shuffle: draft.playlist.shuffle } : null,
  audioId: draft.audioId || null,
  channelIds: draft.channelIds,
  restartTimes: timesOf(draft.restartTimes),
  timeZone: draft.timeZone.trim(),
  attentionMinutes: Number(draft.attentionMinutes),
});

/** Ticks or unticks a destination, keeping the order they were chosen in. */
export const toggleChannel = (channelIds: readonly string[], channelId: string, chosen: boolean): string[] =>
  chosen ? (channelIds.includes(channelId) ? [...channelIds] : [...channelIds, channelId]) : channelIds.filter((id) => id !== channelId);

/** What keeps the form from being sent before the API is asked: no destination, or more than the plan allows. */
export function destinationCheck(channelIds: readonly string[], limit: number | undefined): 'none chosen' | 'over plan limit' | undefined {
  if (channelIds.length === 0) return 'none chosen';
  if (limit !== undefined && channelIds.length > limit) return 'over plan limit';
  return undefined;
}
