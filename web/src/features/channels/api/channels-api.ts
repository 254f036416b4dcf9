// The destinations a user streams to (docs/api.md, "Destinations"). The cache holds the API's answer as it is:
// ['channels'] -> { channels: ChannelView[], youtubeAvailable }; the Streams page reads the same entry for its
// destination choices. ['subscription'] is GET /subscription, shared with the billing pages.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { DestinationPresetId } from '@loopcast/contract/destination-presets';
import type { ChannelView } from '@loopcast/contract/api/channels';
import { api } from '../../../api/client';
import { channelsQuery, queryKeys, streamsQuery, subscriptionQuery } from '../../../api/queries';
import type { LanguageCode } from '../../../i18n/languages';

export type { ChannelView };

const channelsKey = queryKeys.channels;

export interface RtmpChannelInput {
  name: string;
  url: string;
  key: string;
  /** The platform picked (lambdas/contract/destination-presets.ts). */
  preset: DestinationPresetId;
}

export const useChannels = () => useQuery({ ...channelsQuery, select: (answer) => answer.channels });

export const useYouTubeAvailable = () => useQuery({ ...channelsQuery, select: (answer) => answer.youtubeAvailable });

/** How many YouTube accounts the user's plan connects. */
export const useYouTubeLimit = () =>
  useQuery({
    ...subscriptionQuery,
    select: (answer) => answer.limits.youtubeChannels,
  });

export function useAddRtmpChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RtmpChannelInput) => api.post<ChannelView>('/channels/rtmp', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}

/**
 * Connecting (or reconnecting) a YouTube account leaves the app: the browser goes to Google's consent screen, and
 * Google sends it back to /api/channels/youtube/callback, which opens this page again in the same language with
 * `?connected=<id>` or `?error=<catalogue key>`. A succeeded mutation means the browser is on its way out.
 */
export function useConnectYouTube() {
  const connect = useMutation({
    mutationFn: async (language: LanguageCode) => {
      const { url } = await api.post<{ url: string }>('/channels/youtube', { language });
      window.location.assign(url);
    },
  });
  // Back from Google with the browser's Back button, the page may come from the back-forward cache as it was left.
  const { reset } = connect;
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);
  return connect;
}

export interface ChannelChanges {
  name?: string;
  url?: string;
  key?: string;
  preset?: DestinationPresetId;
}

/** PATCH /channels/{id}: a new name, or (stream keys) a new platform, server URL or key. */
export function useUpdateChannel(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ChannelChanges) => api.patch<ChannelView>(`/channels/${encodeURIComponent(channelId)}`, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}

/** A stream going to a destination, and whether it is running now (then the destination's address cannot change). */
export interface StreamUsingChannel {
  id: string;
  title: string;
  running: boolean;
}

/** The streams that go to a destination, from the entry the Streams page shares (['streams']). */
export const useStreamsUsingChannel = (channelId: string) =>
  useQuery({
    ...streamsQuery,
    select: (answer): StreamUsingChannel[] =>
      answer.streams
        .filter((stream) => stream.channelIds.includes(channelId))
        .map((stream) => ({ id: stream.id, title: stream.title, running: stream.status !== 'stopped' })),
  });

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelId: string) => api.delete<void>(`/channels/${encodeURIComponent(channelId)}`),
    // Stopped streams forget a deleted destination, so their cached copies change too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: channelsKey }), queryClient.invalidateQueries({ queryKey: queryKeys.streams })]),
  });
}
