// The media library (docs/api.md, "Media library"): items as the API answers them, under the keys realtime keeps
// current (features/realtime/cache-updates.ts): ['videos'] is GET /videos.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QualityChoice } from '@loopcast/core/media-spec';
import { api } from '../../../api/client';
import { queryKeys, streamsQuery, videosQuery, type VideoItem } from '../../../api/queries';

export type { VideoItem };

export const videosQueryKey = queryKeys.videos;

/** GET /videos; `refetchInterval` polls while realtime is down. */
export const useVideos = (refetchInterval: number | false) =>
  useQuery({
    ...videosQuery,
    select: (answer) => answer.videos,
    refetchInterval,
  });

function replaceItem(videos: { videos: VideoItem[] } | undefined, item: VideoItem) {
  return videos && { videos: videos.videos.map((video) => (video.id === item.id ? item : video)) };
}

export function useRenameVideo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => api.patch<VideoItem>(`/videos/${encodeURIComponent(id)}`, { title }),
    onSuccess: (item) => queryClient.setQueryData(videosQueryKey, (videos: { videos: VideoItem[] } | undefined) => replaceItem(videos, item)),
  });
}

/** POST /videos/{id}/quality: the item comes back `encoding` (or unchanged when nothing would change). */
export function useChangeQuality(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: QualityChoice) => api.post<VideoItem>(`/videos/${encodeURIComponent(id)}/quality`, choice),
    onSuccess: (item) => queryClient.setQueryData(videosQueryKey, (videos: { videos: VideoItem[] } | undefined) => replaceItem(videos, item)),
  });
}

/** Deletes an item; `onDeleted` runs after the list dropped it (the plan's storage changed). */
export function useDeleteVideo(id: string, onDeleted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<void>(`/videos/${encodeURIComponent(id)}`),
    onSuccess: () => {
      queryClient.setQueryData(
        videosQueryKey,
        (videos: { videos: VideoItem[] } | undefined) => videos && { videos: videos.videos.filter((video) => video.id !== id) },
      );
      onDeleted();
    },
  });
}

/** A stream that plays an item, and whether it is running now (then the item cannot change). */
export interface StreamUsingItem {
  id: string;
  title: string;
  running: boolean;
}

/** The streams that play an item as its video or its sound, from the entry the Streams page shares (['streams']). */
export const useStreamsUsing = (itemId: string) =>
  useQuery({
    ...streamsQuery,
    select: (answer): StreamUsingItem[] =>
      answer.streams
        .filter((stream) => stream.videoId === itemId || stream.audioId === itemId)
        .map((stream) => ({ id: stream.id, title: stream.title, running: stream.status !== 'stopped' })),
  });
