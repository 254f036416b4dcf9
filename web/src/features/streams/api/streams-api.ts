// Streams (docs/api.md, "Streams"). The cache holds the API's answers as they are, so the realtime client can
// update them: ['streams'] -> { streams: Stream[] } (GET /streams), ['streams', id] -> Stream (GET /streams/{id}).
// Every list fetch also refreshes each stream's own entry; a card shows whichever of the two is newer.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Privacy, StreamView } from '@loopcast/contract/api/streams';
import type { StreamSchedule } from '@loopcast/contract/api/streams';
import { api, ApiError, createApiClient } from '../../../api/client';
import { queryKeys } from '../../../api/queries';
import { thumbnailStep, type ThumbnailChoice } from '../thumbnail';

export type { HealthVerdict, Privacy, StreamHealth, StreamStatus } from '@loopcast/contract/api/streams';
export type { StreamSchedule, WeeklyWindow } from '@loopcast/contract/api/streams';

/** A live look at the stream: an HLS playlist (local stack) or a frame refreshed every minute (AWS). */
export interface StreamPreview {
  kind: 'hls' | 'image';
  url: string;
}

export type Stream = StreamView & {
  preview?: StreamPreview;
  /** The stream's own thumbnail (JPEG or PNG), a signed same-origin address valid for about an hour; present when
   * `hasCustomThumbnail` is. */
  thumbnailUrl?: string;
};

export interface StreamsAnswer {
  streams: Stream[];
}

/** What the create and edit form sends; `audioId: null` removes a separate audio track. */
export interface StreamInput {
  title: string;
  description: string;
  privacy: Privacy;
  videoId: string;
  /** Several videos instead of `videoId`; null turns a playlist back into one video. */
  playlist: { videoIds: string[]; shuffle: boolean } | null;
  audioId: string | null;
  channelIds: string[];
  restartTimes: string[];
  timeZone: string;
  /** Minutes the running stream may be unhealthy before it needs attention and the creator is told (1-60). */
  attentionMinutes: number;
}

export const streamsKey = ['streams'] as const;
const subscriptionKey = queryKeys.subscription;
export const streamKey = (id: string) => ['streams', id] as const;

const streamPath = (id: string) => `/streams/${encodeURIComponent(id)}`;

/** Puts a stream the API answered into its own entry and into the list, in place. */
function remember(queryClient: QueryClient, stream: Stream): void {
  queryClient.setQueryData(streamKey(stream.id), stream);
  queryClient.setQueryData<StreamsAnswer>(
    streamsKey,
    (answer) =>
      answer && {
        streams: answer.streams.some((s) => s.id === stream.id) ? answer.streams.map((s) => (s.id === stream.id ? stream : s)) : [stream, ...answer.streams],
      },
  );
}

export function useStreamList() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: streamsKey,
    queryFn: async ({ signal }) => {
      const answer = await api.get<StreamsAnswer>('/streams', undefined, signal);
      for (const stream of answer.streams) queryClient.setQueryData(streamKey(stream.id), stream);
      return answer;
    },
  });
}

/**
 * One stream as fresh as the cache knows it: its own entry (realtime heartbeats, start/stop answers) or the list's
 * copy, whichever was written last. The entry is only fetched on its own when invalidated.
 */
export function useStream(listed: Stream, listedAt: number): Stream {
  const own = useQuery({
    queryKey: streamKey(listed.id),
    queryFn: ({ signal }) => api.get<Stream>(streamPath(listed.id), undefined, signal),
    initialData: listed,
    initialDataUpdatedAt: listedAt,
    staleTime: Infinity,
  });
  return own.dataUpdatedAt >= listedAt ? own.data : listed;
}

/**
 * One stream on its own page (GET /streams/{id}), starting from the list's copy when the cache has one. A stream that
 * does not exist or is another user's is a 404 'stream not found', asked once: asking again cannot change it.
 */
export function useStreamById(streamId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: streamKey(streamId),
    queryFn: ({ signal }) => api.get<Stream>(streamPath(streamId), undefined, signal),
    initialData: () => queryClient.getQueryData<StreamsAnswer>(streamsKey)?.streams.find((stream) => stream.id === streamId),
    initialDataUpdatedAt: () => queryClient.getQueryState(streamsKey)?.dataUpdatedAt,
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 3,
  });
}

/**
 * PUT /streams/{id}/thumbnail takes the picture's bytes as the body. The app's client sends it (its headers, its
 * errors, sign-out on a 401) through a fetch that puts the picture in place of the client's empty body.
 */
function putThumbnail(streamId: string, picture: Blob): Promise<Stream> {
  const client = createApiClient({
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('content-type', picture.type);
      return fetch(input, { ...init, headers, body: picture });
    },
  });
  return client.put<Stream>(`${streamPath(streamId)}/thumbnail`);
}

export interface StreamSave {
  input: StreamInput;
  thumbnail: ThumbnailChoice;
  /** The schedule to set (null: none), sent with a new stream or after an edit; undefined: unchanged. */
  schedule?: StreamSchedule | null;
}

const putSchedule = (streamId: string, schedule: StreamSchedule | null) => api.put<Stream>(`${streamPath(streamId)}/schedule`, { schedule });

export interface SavedStream {
  stream: Stream;
  /** The stream was saved but its thumbnail was not (the API's refusal or a network failure). */
  thumbnailError?: unknown;
}

/** Saves the stream (a new one with its schedule; an edited one, then its schedule: in the zone just saved), then its
 * thumbnail (the thumbnail routes need the stream's id, which a new stream only gets now). A failed thumbnail does not
 * undo the saved stream. */
export function useSaveStream(streamId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, thumbnail, schedule }: StreamSave): Promise<SavedStream> => {
      let saved: Stream;
      if (streamId) {
        saved = await api.patch<Stream>(streamPath(streamId), input);
        if (schedule !== undefined) {
          // The edit is saved even when the schedule is refused: the card shows it, the form stays open with the reason.
          remember(queryClient, saved);
          saved = await putSchedule(streamId, schedule);
        }
      } else {
        saved = await api.post<Stream>('/streams', schedule ? { ...input, schedule } : input);
      }
      const step = thumbnailStep(thumbnail, saved.hasCustomThumbnail);
      if (!step) return { stream: saved };
      try {
        return { stream: step === 'remove' ? await api.delete<Stream>(`${streamPath(saved.id)}/thumbnail`) : await putThumbnail(saved.id, step.upload) };
      } catch (error) {
        return { stream: saved, thumbnailError: error };
      }
    },
    onSuccess: ({ stream }) => remember(queryClient, stream),
  });
}

/** PUT /streams/{id}/schedule, in any state (a running stream keeps running until its next transition). */
export function useSaveSchedule(streamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedule: StreamSchedule | null) => putSchedule(streamId, schedule),
    onSuccess: (stream) => remember(queryClient, stream),
  });
}

/** When a running stream's edited playlist takes effect (lambdas/contract/stream-task.ts, playlistApplyModes). */
export type PlaylistApply = 'join' | 'restart';

/** PUT /streams/{id}/playlist: a stopped stream's playlist, or a running one's, applied at the next join or restart. */
export function useSavePlaylist(streamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { videoIds: string[]; shuffle: boolean; apply: PlaylistApply }) => api.put<Stream>(`${streamPath(streamId)}/playlist`, body),
    onSuccess: (stream) => remember(queryClient, stream),
  });
}

/** Start or stop; the answer goes into the cache, and the plan's usage (streams running now) is asked again, as
 * realtime's stream.state does for a start or stop made elsewhere. */
export function useStreamAction(streamId: string, action: 'start' | 'stop') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Stream>(`${streamPath(streamId)}/${action}`),
    onSuccess: (stream) => {
      remember(queryClient, stream);
      void queryClient.invalidateQueries({ queryKey: subscriptionKey });
    },
  });
}

export function useDeleteStream(streamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<void>(streamPath(streamId)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: streamKey(streamId), exact: true });
      queryClient.setQueryData<StreamsAnswer>(streamsKey, (answer) => answer && { streams: answer.streams.filter((s) => s.id !== streamId) });
    },
  });
}
