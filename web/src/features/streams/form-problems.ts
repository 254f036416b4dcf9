// Where the stream form shows an API refusal: next to the field it concerns, or above the buttons. Pure.
import { ApiError, type ApiErrorKey } from '../../api/client';

export type StreamField =
  'title' | 'description' | 'privacy' | 'videoId' | 'playlist' | 'audioId' | 'channelIds' | 'restartTimes' | 'timeZone' | 'attentionMinutes' | 'schedule';
const streamFields: readonly string[] = [
  'title',
  'description',
  'privacy',
  'videoId',
  'playlist',
  'audioId',
  'channelIds',
  'restartTimes',
  'timeZone',
  'attentionMinutes',
  'schedule',
] satisfies StreamField[];

export interface FormProblem {
  /** The field to show it at; undefined: the form as a whole. */
  field?: StreamField;
  key: ApiErrorKey;
  /** The value the API refused (a restart time), to mark the right row. */
  value?: string;
  /** The field's whole name when it is a part of one ('schedule.startAt'), to mark the right input. */
  path?: string;
  /** Playlist videos that cannot be joined to the first by stream copy (another picture size or frame rate). */
  videoIds?: string[];
}

const asField = (name: unknown): StreamField | undefined => {
  const first = typeof name === 'string' ? name.split('.')[0] : undefined;
  return first !== undefined && streamFields.includes(first) ? (first as StreamField) : undefined;
};

/**
 * The API names the field of a domain refusal in `details.field` (422 'duplicate restart times', 'invalid number',
 * 404 'not found'), schema refusals in `details.fields` (400 'invalid request'); a second destination without
 * multistreaming is 403 'plan feature unavailable', a video a destination's platform cannot take 422 'destination
 * limits exceeded'; playlist videos that cannot be joined are named in `details.videoIds`.
 */
export function formProblemOf(error: unknown): FormProblem {
  if (!(error instanceof ApiError)) return { key: 'internal error' };
  const details = error.details ?? {};
  if (error.key === 'plan feature unavailable' || error.key === 'destination limits exceeded') return { field: 'channelIds', key: error.key };
  if (error.key === 'playlist limit') return { field: 'playlist', key: error.key };
  const fields = typeof details.fields === 'object' && details.fields !== null ? Object.keys(details.fields) : [];
  const field = asField(details.field) ?? asField(fields[0]);
  const path = typeof details.field === 'string' && details.field.includes('.') ? details.field : undefined;
  const videoIds = Array.isArray(details.videoIds) ? details.videoIds.filter((id): id is string => typeof id === 'string') : [];
  return {
    ...(field ? { field } : {}),
    key: error.key,
    ...(typeof details.value === 'string' ? { value: details.value } : {}),
    ...(path ? { path } : {}),
    ...(videoIds.length ? { videoIds } : {}),
  };
}
